package hackathon_test

import (
	"fmt"
	"testing"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

const (
	builder = hackathon.RoleBuilder
	mentor  = hackathon.RoleMentor
)

func TestCreateTeam(t *testing.T) {
	w := judgedWorld(t)
	tests := []struct {
		name, by, team string
		want           kernel.Kind
		members        int // builders the new team starts with
	}{
		{name: "builder without a team", by: "b4", team: "Nova", members: 1},
		{name: "organiser", by: org, team: "Nova"},
		{name: "builder already in a team", by: "b1", team: "Nova", want: kernel.KindConflict},
		{name: "name taken ignoring case", by: "b4", team: "ROCKET", want: kernel.KindConflict},
		{name: "name taken after trimming", by: org, team: "  comet ", want: kernel.KindConflict},
		{name: "mentor", by: "m1", team: "Nova", want: kernel.KindForbidden},
		{name: "judge", by: "j1", team: "Nova", want: kernel.KindForbidden},
		{name: "stranger", by: "stranger", team: "Nova", want: kernel.KindForbidden},
		{name: "blank name", by: "b4", team: "  ", want: kernel.KindInvalid},
		{name: "control character", by: "b4", team: "No\x07va", want: kernel.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := w.h.CreateTeam(tt.by, "t9", tt.team, "", t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				return
			}
			if err != nil || len(evs) != 1+tt.members {
				t.Fatalf("events %v, err %v", evs, err)
			}
			if ev := evs[0].(*hackathon.TeamSaved); !ev.Created || ev.Name != "Nova" || ev.By != tt.by {
				t.Fatalf("team %+v", ev)
			}
			if tt.members == 1 {
				if ev := evs[1].(*hackathon.TeamMemberAdded); ev.UserID != tt.by || ev.Role != builder || ev.TeamID != "t9" {
					t.Fatalf("member %+v", ev)
				}
			}
		})
	}
}

func TestAddMember(t *testing.T) {
	tests := []struct {
		name, by, team, user, role string
		want                       kernel.Kind
	}{
		{"organiser adds a builder", org, "t1", "b4", builder, 0},
		{"builder of the team adds a builder", "b1", "t1", "b4", builder, 0},
		{"builder adds themselves", "b4", "t1", "b4", builder, 0},
		{"role defaults to builder", "b4", "t2", "b4", "", 0},
		{"mentor adds themselves to a second team", "m1", "t2", "m1", mentor, 0},
		{"organiser adds a mentor", org, "t2", "m1", mentor, 0},
		{"builder already in another team", org, "t1", "b3", builder, kernel.KindConflict},
		{"builder adds themselves to a second team", "b3", "t1", "b3", builder, kernel.KindConflict},
		{"builder of the team adds a mentor", "b3", "t2", "m1", mentor, kernel.KindForbidden},
		{"mentor of the team adds a builder", "m1", "t1", "b4", builder, kernel.KindForbidden},
		{"builder of another team", "b3", "t1", "b4", builder, kernel.KindForbidden},
		{"not joined as builder", org, "t1", "j1", builder, kernel.KindUnprocessable},
		{"mentor not joined as builder", org, "t2", "m1", builder, kernel.KindUnprocessable},
		{"builder not joined as mentor", org, "t2", "b4", mentor, kernel.KindUnprocessable},
		{"stranger", org, "t1", "stranger", builder, kernel.KindUnprocessable},
		{"already a builder of the team as mentor", org, "t1", "b2", mentor, kernel.KindUnprocessable},
		{"judge role", org, "t1", "j1", hackathon.RoleJudge, kernel.KindInvalid},
		{"unknown team", org, "t9", "b4", builder, kernel.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := judgedWorld(t)
			evs, err := w.h.AddMember(tt.by, tt.team, tt.user, tt.role, t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				return
			}
			w.must(evs, err)
			role := tt.role
			if role == "" {
				role = builder
			}
			if got := w.h.Teams[tt.team].Members[tt.user]; got != role {
				t.Fatalf("%s is %q in %s, want %q", tt.user, got, tt.team, role)
			}
			if role == builder && w.h.TeamOf[tt.user] != tt.team {
				t.Fatalf("TeamOf[%s] = %q", tt.user, w.h.TeamOf[tt.user])
			}
		})
	}
}

func TestAddMemberTwiceAndMentorOfManyTeams(t *testing.T) {
	w := judgedWorld(t)
	evs, err := w.h.AddMember(org, "t1", "b2", builder, t0)
	noop(t, evs, err)
	w.join("b2", mentor)
	evs, err = w.h.AddMember(org, "t1", "b2", mentor, t0)
	refused(t, evs, err, kernel.KindConflict) // already in t1 as builder
	w.must(w.h.AddMember("m1", "t2", "m1", mentor, t0))
	w.must(w.h.CreateTeam(org, "t3", "Nebula", "", t0))
	w.member("t3", "m1", mentor)
	for _, team := range []string{"t1", "t2", "t3"} {
		if w.h.Teams[team].Members["m1"] != mentor {
			t.Fatalf("m1 does not mentor %s", team)
		}
	}
	if _, ok := w.h.TeamOf["m1"]; ok {
		t.Fatal("a mentor is recorded as a builder's team")
	}
}

func TestUpdateTeam(t *testing.T) {
	w := judgedWorld(t)
	evs, err := w.h.UpdateTeam("b1", "t1", hackathon.TextPatch{"name": "COMET"}, t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.UpdateTeam("m1", "t1", hackathon.TextPatch{"name": "X"}, t0)
	refused(t, evs, err, kernel.KindForbidden) // mentors do not edit the team
	evs, err = w.h.UpdateTeam("b3", "t1", hackathon.TextPatch{"name": "X"}, t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.UpdateTeam(org, "t9", hackathon.TextPatch{"name": "X"}, t0)
	refused(t, evs, err, kernel.KindNotFound)
	evs, err = w.h.UpdateTeam("b2", "t1", hackathon.TextPatch{"name": "Rocket"}, t0)
	noop(t, evs, err)
	w.must(w.h.UpdateTeam("b2", "t1", hackathon.TextPatch{"name": "ROCKET", "description": "Fast"}, t0)) // its own name, new case
	if tm := w.h.Teams["t1"]; tm.Name != "ROCKET" || tm.Description != "Fast" || len(tm.Members) != 3 {
		t.Fatalf("team %+v", tm)
	}
}

func TestRemoveMemberReleasesTheBuilder(t *testing.T) {
	w := judgedWorld(t)
	evs, err := w.h.RemoveMember("m1", "t1", "b2", t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.RemoveMember("b3", "t1", "b2", t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.RemoveMember(org, "t1", "b4", t0)
	refused(t, evs, err, kernel.KindNotFound)
	evs, err = w.h.RemoveMember(org, "t9", "b1", t0)
	refused(t, evs, err, kernel.KindNotFound)

	w.must(w.h.RemoveMember("b1", "t1", "b2", t0))
	if _, in := w.h.Teams["t1"].Members["b2"]; in || w.h.TeamOf["b2"] != "" {
		t.Fatalf("b2 still in t1: %v, TeamOf %q", w.h.Teams["t1"].Members, w.h.TeamOf["b2"])
	}
	w.member("t2", "b2", builder) // free to join another team
	w.must(w.h.RemoveMember("m1", "t1", "m1", t0))
	if len(w.h.Teams["t1"].Members) != 1 {
		t.Fatalf("t1 members %v", w.h.Teams["t1"].Members)
	}
}

func TestDeleteTeam(t *testing.T) {
	w := judgedWorld(t)
	evs, err := w.h.DeleteTeam("b1", "t1", t0)
	refused(t, evs, err, kernel.KindConflict) // it has submission s1
	evs, err = w.h.DeleteTeam("m1", "t1", t0)
	refused(t, evs, err, kernel.KindForbidden)
	evs, err = w.h.DeleteTeam(org, "t9", t0)
	refused(t, evs, err, kernel.KindNotFound)

	w.must(w.h.DeleteSubmission("b2", "s1", t0))
	w.must(w.h.DeleteTeam("b1", "t1", t0))
	if _, ok := w.h.Teams["t1"]; ok || w.h.TeamOf["b1"] != "" || w.h.TeamOf["b2"] != "" {
		t.Fatalf("team or membership left: %v %v", w.h.Teams, w.h.TeamOf)
	}
	w.team("b1", "t4", "Rocket") // the name and the builders are free again
	w.member("t2", "b2", builder)
}

func TestSubmissions(t *testing.T) {
	w := judgedWorld(t)
	w.must(w.h.SaveTrack(org, "tr1", true, hackathon.TextPatch{"name": "AI"}, t0))
	sub := func(team, track string) hackathon.Submission {
		return hackathon.Submission{TeamID: team, ProjectName: "Probe", TrackID: track}
	}
	tests := []struct {
		name, by string
		s        hackathon.Submission
		want     kernel.Kind
	}{
		{"second submission of a team", "b1", sub("t1", ""), kernel.KindConflict},
		{"mentor of the team", "m1", sub("t1", ""), kernel.KindForbidden},
		{"builder of another team", "b1", sub("t2", ""), kernel.KindForbidden},
		{"judge", "j1", sub("t2", ""), kernel.KindForbidden},
		{"unknown team", org, sub("t9", ""), kernel.KindInvalid},
		{"unknown track", "b3", sub("t2", "tr9"), kernel.KindInvalid},
		{"no project name", "b3", hackathon.Submission{TeamID: "t2"}, kernel.KindInvalid},
		{"no team", "b3", hackathon.Submission{ProjectName: "P"}, kernel.KindInvalid},
		{"builder of the team", "b3", sub("t2", "tr1"), 0},
		{"organiser", org, sub("t2", ""), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := w.h.CreateSubmission(tt.by, "s9", tt.s, t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				return
			}
			if err != nil || len(evs) != 1 || !evs[0].(*hackathon.SubmissionSaved).Created {
				t.Fatalf("events %v, err %v", evs, err)
			}
		})
	}
	evs, err := w.h.UpdateSubmission("b1", "s1", hackathon.TextPatch{"team_id": "t2"}, t0)
	refused(t, evs, err, kernel.KindInvalid)
	evs, err = w.h.UpdateSubmission("b1", "s1", hackathon.TextPatch{"project_name": "Project s1"}, t0)
	noop(t, evs, err)
	w.must(w.h.UpdateSubmission("b2", "s1", hackathon.TextPatch{"track_id": "tr1"}, t0))
	evs, err = w.h.DeleteTrack(org, "tr1", t0)
	refused(t, evs, err, kernel.KindConflict) // s1 enters it
}

func TestScoredSubmissionCannotBeDeleted(t *testing.T) {
	w := judgedWorld(t)
	w.must(w.h.RecordScore("j1", std16("j1", "s1"), t0))
	evs, err := w.h.DeleteSubmission("b1", "s1", t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.DeleteSubmission(org, "s1", t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.DeleteSubmission("b1", "s9", t0)
	refused(t, evs, err, kernel.KindNotFound)

	w.submit("b3", "s2", "t2") // unscored: withdrawn, and the team may submit again
	w.must(w.h.DeleteSubmission("b3", "s2", t0))
	if w.h.Teams["t2"].Submission != "" || w.h.Submissions["s2"] != nil {
		t.Fatal("withdrawn submission still recorded")
	}
	w.submit("b3", "s3", "t2")
}

func TestAttachFilesUpToTheLimit(t *testing.T) {
	w := judgedWorld(t)
	for i := range hackathon.MaxFilesPerSubmission {
		w.must(w.h.AttachFile("b1", "s1", hackathon.File{FileID: fmt.Sprint("f", i), Name: "a.pdf"}, t0))
	}
	if n := len(w.h.Submissions["s1"].Files); n != hackathon.MaxFilesPerSubmission {
		t.Fatalf("%d files", n)
	}
	evs, err := w.h.AttachFile("b1", "s1", hackathon.File{FileID: "one-too-many"}, t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.AttachFile("m1", "s1", hackathon.File{FileID: "x"}, t0)
	refused(t, evs, err, kernel.KindForbidden)
}

package hackathon_test

import (
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

const (
	draft     = hackathon.StatusDraft
	live      = hackathon.StatusLive
	completed = hackathon.StatusCompleted
)

// worldIn returns a hackathon moved (by legal steps) to status.
func worldIn(t *testing.T, status string) *world {
	t.Helper()
	w := newWorld(t, nil)
	switch status {
	case live:
		w.status(live)
	case completed:
		w.status(live)
		w.status(completed)
	}
	return w
}

func TestSetStatusMovesOneStepForwardOnly(t *testing.T) {
	tests := []struct {
		from, to string
		want     kernel.Kind // KindInternal: accepted
		noEvents bool
	}{
		{from: draft, to: live},
		{from: draft, to: completed, want: kernel.KindConflict},
		{from: draft, to: draft, noEvents: true},
		{from: live, to: completed},
		{from: live, to: draft, want: kernel.KindConflict},
		{from: live, to: live, noEvents: true},
		{from: completed, to: live, want: kernel.KindConflict},
		{from: completed, to: draft, want: kernel.KindConflict},
		{from: completed, to: completed, noEvents: true},
		{from: draft, to: "ARCHIVED", want: kernel.KindInvalid},
		{from: draft, to: "live", want: kernel.KindInvalid},
		{from: live, to: "", want: kernel.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.from+"->"+tt.to, func(t *testing.T) {
			w := worldIn(t, tt.from)
			evs, err := w.h.SetStatus(org, tt.to, t0)
			switch {
			case tt.want != kernel.KindInternal:
				refused(t, evs, err, tt.want)
				if w.h.Status != tt.from {
					t.Fatalf("status changed to %s", w.h.Status)
				}
			case tt.noEvents:
				noop(t, evs, err)
			default:
				w.must(evs, err)
				ev, ok := evs[0].(*hackathon.StatusChanged)
				if len(evs) != 1 || !ok || ev.From != tt.from || ev.To != tt.to || ev.By != org || !ev.At.Equal(t0) {
					t.Fatalf("events %#v", evs)
				}
				if w.h.Status != tt.to {
					t.Fatalf("folded status %s, want %s", w.h.Status, tt.to)
				}
			}
		})
	}
}

func TestSetStatusOnlyByOrganisers(t *testing.T) {
	w := newWorld(t, nil)
	for _, by := range []string{"stranger", ""} {
		evs, err := w.h.SetStatus(by, live, t0)
		refused(t, evs, err, kernel.KindForbidden)
	}
	evs, err := w.h.SetStatus("stranger", draft, t0) // even a no-op move
	refused(t, evs, err, kernel.KindForbidden)
	w.must(w.h.AddOrganizer(org, "co", t0))
	w.must(w.h.SetStatus("co", live, t0))
	if w.h.Status != live {
		t.Fatalf("status %s", w.h.Status)
	}
}

func TestNewHackathonStartsInDraft(t *testing.T) {
	w := newWorld(t, nil)
	if w.h.Status != draft || w.h.ID != hid || w.h.CreatedBy != org || !w.h.IsOrganizer(org) || w.h.Version != 1 {
		t.Fatalf("created %+v", w.h)
	}
	if _, err := hackathon.Create(hid, org, hackathon.Details{Name: "x"}, t0); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("Create without dates: %v", err)
	}
}

func TestVisibility(t *testing.T) {
	tests := []struct {
		status, user string
		visible      bool
	}{
		{draft, org, true},
		{draft, "stranger", false},
		{live, "stranger", true},
		{completed, "stranger", true},
		{completed, org, true},
	}
	for _, tt := range tests {
		w := worldIn(t, tt.status)
		if got := w.h.VisibleTo(tt.user); got != tt.visible {
			t.Errorf("%s, %s: VisibleTo %v, want %v", tt.status, tt.user, got, tt.visible)
		}
	}
	if (&hackathon.Hackathon{}).VisibleTo(org) {
		t.Error("a hackathon never created is visible")
	}
}

func TestDraftRefusesJoinsExceptInvitedJudges(t *testing.T) {
	tests := []struct {
		name string
		user string
		role string
		want kernel.Kind // KindInternal: accepted
	}{
		{"builder is not shown the draft", "b1", hackathon.RoleBuilder, kernel.KindNotFound},
		{"mentor is not shown the draft", "m1", hackathon.RoleMentor, kernel.KindNotFound},
		{"uninvited judge is not shown the draft", "j9", hackathon.RoleJudge, kernel.KindNotFound},
		{"organiser may not join as builder yet", org, hackathon.RoleBuilder, kernel.KindConflict},
		{"organiser may not join as mentor yet", org, hackathon.RoleMentor, kernel.KindConflict},
		{"organiser joins as judge without invitation", org, hackathon.RoleJudge, kernel.KindInternal},
		{"invited judge joins the draft", "j1", hackathon.RoleJudge, kernel.KindInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, nil)
			w.invite("j1")
			evs, err := w.h.Join(hackathon.Joiner{UserID: tt.user, Email: email(tt.user), TokenHash: token(tt.user)}, tt.role, t0)
			if tt.want != kernel.KindInternal {
				refused(t, evs, err, tt.want)
				return
			}
			w.must(evs, err)
			if !w.h.HasRole(tt.user, tt.role) {
				t.Fatalf("%s did not get role %s", tt.user, tt.role)
			}
		})
	}
}

func TestTeamsAndSubmissionsOnlyWhileLive(t *testing.T) {
	w := newWorld(t, nil)
	evs, err := w.h.CreateTeam(org, "t1", "Rocket", "", t0)
	refused(t, evs, err, kernel.KindConflict)

	// A team cannot arise in DRAFT through the decisions; fold one in to
	// show that submitting is refused by status, not by a missing team.
	w.fold(&hackathon.TeamSaved{TeamID: "t1", Name: "Rocket", Created: true, By: org, At: t0})
	evs, err = w.h.CreateSubmission(org, "s1", hackathon.Submission{TeamID: "t1", ProjectName: "P"}, t0)
	refused(t, evs, err, kernel.KindConflict)

	w = judgedWorld(t)
	w.must(w.h.RecordScore("j1", std16("j1", "s1"), t0)) // scores are allowed while LIVE
	w.status(completed)
	evs, err = w.h.CreateTeam("b4", "t9", "Late", "", t0)
	refused(t, evs, err, kernel.KindConflict)
	evs, err = w.h.CreateSubmission("b3", "s9", hackathon.Submission{TeamID: "t2", ProjectName: "P"}, t0)
	refused(t, evs, err, kernel.KindConflict)
}

// TestCompletedRefusesEveryChange builds a hackathon with something of
// every kind, completes it, and checks each decision is refused with 409.
func TestCompletedRefusesEveryChange(t *testing.T) {
	w := judgedWorld(t)
	w.must(w.h.AddOrganizer(org, "o2", t0))
	w.must(w.h.SaveTrack(org, "tr1", true, hackathon.TextPatch{"name": "AI"}, t0))
	w.must(w.h.SavePrize(org, "p1", true, hackathon.TextPatch{"name": "Best", "amount": "100", "currency": "EUR"}, t0))
	w.rubric("r2", stdRubric())
	w.submit("b3", "s2", "t2")
	w.must(w.h.CreateTeam(org, "t3", "Nebula", "", t0))
	w.must(w.h.RecordScore("j1", std16("j1", "s1"), t0))
	w.invite("j9")
	w.status(completed)
	h := w.h
	at := t0.Add(time.Hour)
	name := "Renamed"
	jn := func(user, role string) func() ([]kernel.Event, error) {
		return func() ([]kernel.Event, error) {
			return h.Join(hackathon.Joiner{UserID: user, Email: email(user), TokenHash: token(user)}, role, at)
		}
	}
	rev := std16("j1", "s1")
	rev.Scores["tech"], rev.TotalScore = "4", "15"
	tests := []struct {
		name   string
		decide func() ([]kernel.Event, error)
	}{
		{"update details", func() ([]kernel.Event, error) { return h.Update(org, hackathon.DetailsPatch{Name: &name}, at) }},
		{"add organiser", func() ([]kernel.Event, error) { return h.AddOrganizer(org, "o3", at) }},
		{"remove organiser", func() ([]kernel.Event, error) { return h.RemoveOrganizer(org, "o2", at) }},
		{"create track", func() ([]kernel.Event, error) {
			return h.SaveTrack(org, "tr2", true, hackathon.TextPatch{"name": "Web"}, at)
		}},
		{"update track", func() ([]kernel.Event, error) {
			return h.SaveTrack(org, "tr1", false, hackathon.TextPatch{"name": "ML"}, at)
		}},
		{"delete track", func() ([]kernel.Event, error) { return h.DeleteTrack(org, "tr1", at) }},
		{"create prize", func() ([]kernel.Event, error) {
			return h.SavePrize(org, "p2", true, hackathon.TextPatch{"name": "Jury"}, at)
		}},
		{"update prize", func() ([]kernel.Event, error) {
			return h.SavePrize(org, "p1", false, hackathon.TextPatch{"amount": "200"}, at)
		}},
		{"delete prize", func() ([]kernel.Event, error) { return h.DeletePrize(org, "p1", at) }},
		{"create rubric", func() ([]kernel.Event, error) { return h.SaveRubric(org, "r3", true, stdRubric(), nil, false, at) }},
		{"update rubric", func() ([]kernel.Event, error) {
			return h.SaveRubric(org, "r2", false, stdRubric(), []string{"name"}, false, at)
		}},
		{"delete rubric", func() ([]kernel.Event, error) { return h.DeleteRubric(org, "r2", at) }},
		{"invite judges", func() ([]kernel.Event, error) {
			return h.InviteJudges(org, []hackathon.Invite{{InvitationID: "i", Email: "x@example.com", TokenHash: "t"}}, at)
		}},
		{"join as builder", jn("b9", hackathon.RoleBuilder)},
		{"join as mentor", jn("m9", hackathon.RoleMentor)},
		{"join as invited judge", jn("j9", hackathon.RoleJudge)},
		{"organiser joins as judge", jn(org, hackathon.RoleJudge)},
		{"create team", func() ([]kernel.Event, error) { return h.CreateTeam("b4", "t9", "Late", "", at) }},
		{"update team", func() ([]kernel.Event, error) {
			return h.UpdateTeam("b1", "t1", hackathon.TextPatch{"name": "Rocket 2"}, at)
		}},
		{"delete team", func() ([]kernel.Event, error) { return h.DeleteTeam(org, "t3", at) }},
		{"add builder", func() ([]kernel.Event, error) { return h.AddMember(org, "t3", "b4", hackathon.RoleBuilder, at) }},
		{"add mentor", func() ([]kernel.Event, error) { return h.AddMember("m1", "t2", "m1", hackathon.RoleMentor, at) }},
		{"remove member", func() ([]kernel.Event, error) { return h.RemoveMember("b1", "t1", "b2", at) }},
		{"leave team", func() ([]kernel.Event, error) { return h.RemoveMember("b2", "t1", "b2", at) }},
		{"create submission", func() ([]kernel.Event, error) {
			return h.CreateSubmission(org, "s9", hackathon.Submission{TeamID: "t3", ProjectName: "Late"}, at)
		}},
		{"update submission", func() ([]kernel.Event, error) {
			return h.UpdateSubmission("b1", "s1", hackathon.TextPatch{"project_name": "New"}, at)
		}},
		{"delete submission", func() ([]kernel.Event, error) { return h.DeleteSubmission("b3", "s2", at) }},
		{"attach file", func() ([]kernel.Event, error) { return h.AttachFile("b1", "s1", hackathon.File{FileID: "f"}, at) }},
		{"new score", func() ([]kernel.Event, error) { return h.RecordScore("j2", std16("j2", "s2"), at) }},
		{"score revision", func() ([]kernel.Event, error) { return h.RecordScore("j1", rev, at) }},
		{"score entered by organiser", func() ([]kernel.Event, error) { return h.RecordScore(org, std16("j2", "s1"), at) }},
		{"recusal", func() ([]kernel.Event, error) { return h.Recuse("j2", "j2", "s2", "I know them", at) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := tt.decide()
			refused(t, evs, err, kernel.KindConflict)
		})
	}
	if err := h.CanAttach("b1", "s1"); kernel.KindOf(err) != kernel.KindConflict {
		t.Errorf("CanAttach after COMPLETED: %v, want a conflict", err)
	}
}

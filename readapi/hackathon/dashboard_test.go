package hackathon_test

import (
	"fmt"
	"net/http"
	"testing"
)

// dashJudge registers a user with email, has org invite them to judge
// hackathon id and joins them with the mailed token; it returns their
// token and id.
func (s *server) dashJudge(t *testing.T, org, id, email string) (string, string) {
	t.Helper()
	tok, uid := s.user(t, email)
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/invite-judges", org, map[string]any{"emails": []string{email}})
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/join", tok,
		map[string]any{"role": "judge", "invitation_token": s.invitation(t, email)})
	return tok, uid
}

// dashRubric is a rubric of one criterion (weight 1, 0-10): a score of
// x totals x.
var dashRubric = map[string]any{"name": "Simple", "is_active": true,
	"criteria": []map[string]any{{"key": "overall", "name": "Overall", "weight": 1, "min": 0, "max": 10}}}

// dashScore records judge's score x of submission sub in hackathon id.
func (s *server) dashScore(t *testing.T, judge, judgeID, id, sub string, x int) {
	t.Helper()
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/judging/scores", judge, map[string]any{"submission_id": sub,
		"judge_id": judgeID, "scores": map[string]any{"overall": x}, "total_score": x})
}

// jsonAt walks a JSON body along keys (a number indexes an array).
func jsonAt(t *testing.T, v any, keys ...any) any {
	t.Helper()
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v is not an object (looking for %s)", v, k)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v has no element %d", v, k)
			}
			v = a[k]
		}
	}
	return v
}

// TestDashboards: the organiser's counts, the builder's team and
// submission, the judge's assignments and progress, and the overview of
// one hackathon (organiser-only parts hidden from others).
func TestDashboards(t *testing.T) {
	s := newServer(t)
	org, _ := s.user(t, "org@dash.test")
	b1, b1ID := s.user(t, "b1@dash.test")
	b2, _ := s.user(t, "b2@dash.test")
	mentor, mentorID := s.user(t, "mentor@dash.test")
	stranger, _ := s.user(t, "stranger@dash.test")

	id := s.liveHackathon(t, org, map[string]any{"name": "Dash Hack"})
	draft := s.hackathon(t, org, map[string]any{"name": "Later Hack", "start_date": "2027-01-01T09:00:00Z",
		"end_date": "2027-01-02T09:00:00Z"})
	track := s.must(t, http.StatusCreated, "POST", base+"/"+id+"/tracks", org, map[string]any{"name": "AI"})["id"].(string)
	var judges, judgeIDs []string
	for i := range 3 {
		tok, uid := s.dashJudge(t, org, id, fmt.Sprintf("judge%d@dash.test", i))
		judges, judgeIDs = append(judges, tok), append(judgeIDs, uid)
	}
	for _, tok := range []string{b1, b2} {
		s.must(t, http.StatusCreated, "POST", base+"/"+id+"/join", tok, map[string]any{"role": "builder"})
	}
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/join", mentor, map[string]any{"role": "mentor"})
	teamA := s.must(t, http.StatusCreated, "POST", base+"/"+id+"/teams", b1, map[string]any{"name": "Alpha"})["id"].(string)
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/teams/"+teamA+"/members", mentor, map[string]any{"user_id": mentorID, "role": "mentor"})
	teamB := s.must(t, http.StatusCreated, "POST", base+"/"+id+"/teams", b2, map[string]any{"name": "Beta"})["id"].(string)
	subA := s.must(t, http.StatusCreated, "POST", base+"/"+id+"/submissions", b1,
		map[string]any{"team_id": teamA, "project_name": "Alpha App", "track_id": track})["id"].(string)
	subB := s.must(t, http.StatusCreated, "POST", base+"/"+id+"/submissions", b2,
		map[string]any{"team_id": teamB, "project_name": "Beta Bot"})["id"].(string)
	s.must(t, http.StatusCreated, "POST", base+"/"+id+"/rubrics", org, dashRubric)
	for i := range judges {
		s.dashScore(t, judges[i], judgeIDs[i], id, subA, 5+i)
	}
	s.dashScore(t, judges[0], judgeIDs[0], id, subB, 4)

	// Organiser: both hackathons, newest first, with counts.
	d := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/organizer", org, nil)
	if d["total"] != float64(2) || jsonAt(t, d, "items", 0, "hackathon", "id") != draft || jsonAt(t, d, "items", 1, "hackathon", "id") != id {
		t.Fatalf("organizer dashboard: %v", d)
	}
	live := jsonAt(t, d, "items", 1).(map[string]any)
	for k, want := range map[string]float64{"teams": 2, "submissions": 2, "scores": 4, "judges": 3, "judges_scoring": 3} {
		if live[k] != want {
			t.Fatalf("organizer dashboard %s = %v, want %v: %v", k, live[k], want, live)
		}
	}
	if p := live["participants"].(map[string]any); p["builder"] != float64(2) || p["judge"] != float64(3) || p["mentor"] != float64(1) {
		t.Fatalf("participants by role: %v", p)
	}
	if jsonAt(t, live, "hackathon", "status") != "LIVE" || jsonAt(t, d, "items", 0, "scores") != float64(0) {
		t.Fatalf("organizer dashboard: %v", d)
	}
	if d := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/organizer", stranger, nil); d["total"] != float64(0) || len(d["items"].([]any)) != 0 {
		t.Fatalf("a stranger organises: %v", d)
	}
	if d := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/organizer?limit=1&offset=5", org, nil); d["total"] != float64(2) || len(d["items"].([]any)) != 0 {
		t.Fatalf("past the last page: %v", d)
	}

	// Builder: the team with its members and the submission.
	d = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/builder", b1, nil)
	if d["total"] != float64(1) || jsonAt(t, d, "items", 0, "hackathon", "id") != id || jsonAt(t, d, "items", 0, "team", "id") != teamA ||
		jsonAt(t, d, "items", 0, "team", "name") != "Alpha" || jsonAt(t, d, "items", 0, "submission", "id") != subA ||
		jsonAt(t, d, "items", 0, "submission", "project_name") != "Alpha App" || jsonAt(t, d, "items", 0, "submission", "track_id") != track {
		t.Fatalf("builder dashboard: %v", d)
	}
	if members := jsonAt(t, d, "items", 0, "team", "members").([]any); len(members) != 2 {
		t.Fatalf("members %v", members)
	}
	for _, m := range jsonAt(t, d, "items", 0, "team", "members").([]any) {
		m := m.(map[string]any)
		if (m["user_id"] == b1ID) != (m["role"] == "builder") || (m["user_id"] == mentorID) != (m["role"] == "mentor") {
			t.Fatalf("member %v", m)
		}
	}
	// A builder without a team yet; a mentor is no builder.
	solo := s.liveHackathon(t, org, map[string]any{"name": "Solo", "start_date": "2026-04-01T09:00:00Z", "end_date": "2026-04-02T09:00:00Z"})
	s.must(t, http.StatusCreated, "POST", base+"/"+solo+"/join", b1, map[string]any{"role": "builder"})
	d = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/builder", b1, nil)
	if d["total"] != float64(2) || jsonAt(t, d, "items", 0, "hackathon", "id") != solo || jsonAt(t, d, "items", 0, "team") != nil ||
		jsonAt(t, d, "items", 0, "submission") != nil || jsonAt(t, d, "items", 1, "team", "id") != teamA {
		t.Fatalf("builder dashboard, latest start first: %v", d)
	}
	if d := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/builder", mentor, nil); d["total"] != float64(0) {
		t.Fatalf("a mentor's builder dashboard: %v", d)
	}

	// Judge: every judge sits on both panels (3 judges, k = 3).
	d = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/judge", judges[1], nil)
	it := jsonAt(t, d, "items", 0).(map[string]any)
	if d["total"] != float64(1) || jsonAt(t, it, "hackathon", "id") != id || it["k"] != float64(3) || it["scores"] != float64(1) ||
		jsonAt(t, it, "progress", "assigned") != float64(2) || jsonAt(t, it, "progress", "scored") != float64(1) ||
		jsonAt(t, it, "pending", 0) != subB {
		t.Fatalf("judge dashboard: %v", it)
	}
	d = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/judge", judges[0], nil)
	if jsonAt(t, d, "items", 0, "progress", "scored") != float64(2) || len(jsonAt(t, d, "items", 0, "pending").([]any)) != 0 {
		t.Fatalf("judge 0's dashboard: %v", d)
	}
	if d := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/judge", b1, nil); d["total"] != float64(0) {
		t.Fatalf("a builder judges: %v", d)
	}

	// Overview: counts for anyone who may see it; organiser's part only
	// for organisers.
	o := s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/"+id+"/overview", stranger, nil)
	if o["teams"] != float64(2) || o["submissions"] != float64(2) || o["scores"] != float64(4) || o["organizer"] != nil ||
		jsonAt(t, o, "participants", "judge") != float64(3) || jsonAt(t, o, "judging", "complete") != float64(1) ||
		jsonAt(t, o, "judging", "scored") != float64(2) || jsonAt(t, o, "judging", "k") != float64(3) ||
		jsonAt(t, o, "submissions_by_track", 0, "track_id") != track || jsonAt(t, o, "submissions_by_track", 0, "submissions") != float64(1) ||
		jsonAt(t, o, "submissions_by_track", 1, "track_id") != nil || jsonAt(t, o, "submissions_by_track", 1, "submissions") != float64(1) ||
		jsonAt(t, o, "you", "organizer") != false || len(jsonAt(t, o, "you", "roles").([]any)) != 0 {
		t.Fatalf("stranger's overview: %v", o)
	}
	o = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/"+id+"/overview", org, nil)
	if len(jsonAt(t, o, "organizer", "judges").([]any)) != 3 || jsonAt(t, o, "organizer", "active_rubric_id") == nil ||
		jsonAt(t, o, "organizer", "invitations_pending") != float64(0) || jsonAt(t, o, "you", "organizer") != true {
		t.Fatalf("organiser's overview: %v", o)
	}
	o = s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/"+id+"/overview", b1, nil)
	if jsonAt(t, o, "you", "team_id") != teamA || jsonAt(t, o, "you", "roles", 0) != "builder" {
		t.Fatalf("builder's overview: %v", o)
	}
	refused(t, s.raw("GET", "/api/v1/dashboard/"+draft+"/overview", stranger, nil), http.StatusNotFound, "", draft)
	s.must(t, http.StatusOK, "GET", "/api/v1/dashboard/"+draft+"/overview", org, nil)
	refused(t, s.raw("GET", "/api/v1/dashboard/organizer?limit=0", org, nil), http.StatusBadRequest, "/api/v1/dashboard/organizer", "limit")
	refused(t, s.raw("GET", "/api/v1/dashboard/judge", "", nil), http.StatusUnauthorized, "/api/v1/dashboard/judge")
}

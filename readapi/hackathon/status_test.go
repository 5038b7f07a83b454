package hackathon_test

import (
	"net/http"
	"testing"
)

// listed reports whether the hackathon list as token shows id.
func (s *server) listed(t *testing.T, token, query, id string) bool {
	t.Helper()
	for _, h := range items(t, s.must(t, http.StatusOK, "GET", base+query, token, nil)) {
		if h["id"] == id {
			return true
		}
	}
	return false
}

// TestStatusMoves: DRAFT -> LIVE -> COMPLETED one step at a time, by an
// organiser; skips and moves back are 409; a non-organiser gets 404 while
// the hackathon is a DRAFT they cannot see and 403 once they can.
func TestStatusMoves(t *testing.T) {
	s := newServer(t)
	org, other := s.actor(t, "org"), s.actor(t, "other")
	id := s.hackathon(t, org.Token, nil)
	st := path(id, "/status")

	if h := s.must(t, http.StatusOK, "GET", path(id, ""), org.Token, nil); h["status"] != "DRAFT" {
		t.Fatalf("new hackathon status %v, want DRAFT", h["status"])
	}
	refused(t, s.raw("POST", st, org.Token, map[string]any{"status": "COMPLETED"}), http.StatusConflict, st, "DRAFT")
	refused(t, s.raw("POST", st, other.Token, map[string]any{"status": "LIVE"}), http.StatusNotFound, st)
	refused(t, s.raw("POST", st, org.Token, map[string]any{"status": "ARCHIVED"}), http.StatusBadRequest, st, "status")

	if h := s.must(t, http.StatusOK, "POST", st, org.Token, map[string]any{"status": "LIVE"}); h["status"] != "LIVE" {
		t.Fatalf("status %v after the move to LIVE", h["status"])
	}
	s.must(t, http.StatusOK, "POST", st, org.Token, map[string]any{"status": "LIVE"}) // the same status: nothing changes
	refused(t, s.raw("POST", st, org.Token, map[string]any{"status": "DRAFT"}), http.StatusConflict, st, "LIVE")
	refused(t, s.raw("POST", st, other.Token, map[string]any{"status": "COMPLETED"}), http.StatusForbidden, st, "organisers")

	// A co-organiser may move it.
	s.must(t, http.StatusOK, "POST", path(id, "/organizers"), org.Token, map[string]any{"user_id": other.ID})
	if h := s.must(t, http.StatusOK, "POST", st, other.Token, map[string]any{"status": "COMPLETED"}); h["status"] != "COMPLETED" {
		t.Fatalf("status %v after the move to COMPLETED", h["status"])
	}
	for _, to := range []string{"LIVE", "DRAFT"} {
		refused(t, s.raw("POST", st, org.Token, map[string]any{"status": to}), http.StatusConflict, st, "COMPLETED")
	}
}

// TestDraftIsInvisible: a DRAFT is its organisers' alone: 404 to anyone
// else, missing from their list, not joinable; once LIVE everyone sees it.
func TestDraftIsInvisible(t *testing.T) {
	s := newServer(t)
	org, other := s.actor(t, "org"), s.actor(t, "other")
	id := s.hackathon(t, org.Token, nil)

	refused(t, s.raw("GET", path(id, ""), other.Token, nil), http.StatusNotFound, path(id, ""), "not found")
	if s.listed(t, other.Token, "", id) || s.listed(t, other.Token, "?status=DRAFT", id) {
		t.Fatal("another user's list shows the DRAFT")
	}
	if !s.listed(t, org.Token, "", id) || !s.listed(t, org.Token, "?status=DRAFT", id) {
		t.Fatal("the organiser's list does not show their DRAFT")
	}
	for _, p := range []string{"/tracks", "/teams", "/submissions", "/participants", "/rubrics"} {
		refused(t, s.raw("GET", path(id, p), other.Token, nil), http.StatusNotFound, path(id, p))
	}

	// What a DRAFT refuses: builders and mentors (404 to them: they cannot
	// see it; 409 to an organiser), teams and submissions.
	for _, role := range []string{"builder", "mentor"} {
		refused(t, s.raw("POST", path(id, "/join"), other.Token, map[string]any{"role": role}), http.StatusNotFound, path(id, "/join"))
		refused(t, s.raw("POST", path(id, "/join"), org.Token, map[string]any{"role": role}), http.StatusConflict, path(id, "/join"), "DRAFT")
	}
	refused(t, s.raw("POST", path(id, "/teams"), other.Token, map[string]any{"name": "A"}), http.StatusNotFound, path(id, "/teams"))
	refused(t, s.raw("POST", path(id, "/teams"), org.Token, map[string]any{"name": "A"}), http.StatusConflict, path(id, "/teams"), "LIVE")
	sub := map[string]any{"team_id": "0190d3a4-0000-7000-8000-000000000000", "project_name": "P"}
	refused(t, s.raw("POST", path(id, "/submissions"), other.Token, sub), http.StatusNotFound, path(id, "/submissions"))

	s.setStatus(t, org.Token, id, "LIVE")
	s.must(t, http.StatusOK, "GET", path(id, ""), other.Token, nil)
	if !s.listed(t, other.Token, "", id) || !s.listed(t, other.Token, "?status=LIVE", id) || s.listed(t, other.Token, "?status=DRAFT", id) {
		t.Fatal("the LIVE hackathon is not listed (or listed under DRAFT)")
	}
}

// TestCompletedRefusesEveryWrite: once COMPLETED nothing changes (409),
// whoever asks.
func TestCompletedRefusesEveryWrite(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	track := s.must(t, http.StatusCreated, "POST", path(id, "/tracks"), org.Token, map[string]any{"name": "AI"})["id"].(string)
	prize := s.must(t, http.StatusCreated, "POST", path(id, "/prizes"), org.Token, map[string]any{"name": "Best"})["id"].(string)
	rub := s.addRubric(t, org, id)
	j := s.judge(t, org, id, "judge")
	e := s.entry(t, id, "ann", "")
	mate := s.builder(t, id, "ben")
	late, mentor := s.actor(t, "late"), s.actor(t, "mentor")
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), mentor.Token, map[string]any{"role": "mentor"})
	s.score(t, id, j, j.ID, e.Submission, 3, 3)
	s.setStatus(t, org.Token, id, "COMPLETED")

	writes := []struct {
		who          actor
		method, path string
		body         any
	}{
		{org, "PATCH", "", map[string]any{"name": "Renamed"}},
		{org, "POST", "/status", map[string]any{"status": "LIVE"}},
		{org, "POST", "/organizers", map[string]any{"user_id": late.ID}},
		{org, "POST", "/tracks", map[string]any{"name": "Web"}},
		{org, "PATCH", "/tracks/" + track, map[string]any{"name": "ML"}},
		{org, "DELETE", "/tracks/" + track, nil},
		{org, "POST", "/prizes", map[string]any{"name": "Runner-up"}},
		{org, "PATCH", "/prizes/" + prize, map[string]any{"name": "Top"}},
		{org, "POST", "/rubrics", rubric},
		{org, "PATCH", "/rubrics/" + rub, map[string]any{"name": "Other"}},
		{org, "POST", "/invite-judges", map[string]any{"emails": []string{"new@hackathon.test"}}},
		{late, "POST", "/join", map[string]any{"role": "builder"}},
		{mentor, "POST", "/teams/" + e.Team + "/members", map[string]any{"user_id": mentor.ID, "role": "mentor"}},
		{mate, "POST", "/teams", map[string]any{"name": "Late team"}},
		{e.Builder, "PATCH", "/teams/" + e.Team, map[string]any{"name": "Renamed"}},
		{e.Builder, "POST", "/teams/" + e.Team + "/members", map[string]any{"user_id": mate.ID}},
		{e.Builder, "PATCH", "/submissions/" + e.Submission, map[string]any{"project_name": "v2"}},
		{e.Builder, "DELETE", "/submissions/" + e.Submission, nil},
		{j, "POST", "/judging/scores", scoreBody(e.Submission, j.ID, 5, 5)},
		{org, "POST", "/judging/scores", scoreBody(e.Submission, j.ID, 4, 4)},
	}
	for _, w := range writes {
		p := path(id, w.path)
		r := s.raw(w.method, p, w.who.Token, w.body)
		if r.Status != http.StatusConflict {
			t.Errorf("%s %s after COMPLETED: status %d, want 409: %s", w.method, w.path, r.Status, r.Raw)
			continue
		}
		refused(t, r, http.StatusConflict, p)
	}
	// Reads still work, and the score stands.
	sc := items(t, s.must(t, http.StatusOK, "GET", path(id, "/judging/scores"), org.Token, nil))
	if len(sc) != 1 || sc[0]["total_score"] != float64(9) {
		t.Fatalf("scores after COMPLETED: %v", sc)
	}
}

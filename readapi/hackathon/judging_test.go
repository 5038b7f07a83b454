package hackathon_test

import (
	"net/http"
	"testing"
)

// TestConflictOfInterest: a judge who builds in or mentors a team may not
// score its submission (403), nor after a recusal; a judge scores only as
// themselves; an organiser may enter a score for a judge.
func TestConflictOfInterest(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	s.addRubric(t, org, id)
	scores := path(id, "/judging/scores")

	// A judge who is also a builder of team A.
	jb := s.judge(t, org, id, "judge-builder")
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), jb.Token, map[string]any{"role": "builder"})
	a := s.entry(t, id, "ann", "")
	s.must(t, http.StatusCreated, "POST", path(id, "/teams/"+a.Team+"/members"), a.Builder.Token, map[string]any{"user_id": jb.ID})
	// A judge who mentors team B.
	jm := s.judge(t, org, id, "judge-mentor")
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), jm.Token, map[string]any{"role": "mentor"})
	b := s.entry(t, id, "bea", "")
	s.must(t, http.StatusCreated, "POST", path(id, "/teams/"+b.Team+"/members"), jm.Token, map[string]any{"user_id": jm.ID, "role": "mentor"})
	jo := s.judge(t, org, id, "judge-other")

	refused(t, s.raw("POST", scores, jb.Token, scoreBody(a.Submission, jb.ID, 3, 3)), http.StatusForbidden, scores, "conflict of interest", "member")
	refused(t, s.raw("POST", scores, jm.Token, scoreBody(b.Submission, jm.ID, 3, 3)), http.StatusForbidden, scores, "conflict of interest", "mentors")
	// An organiser cannot enter a score a conflict forbids either.
	refused(t, s.raw("POST", scores, org.Token, scoreBody(a.Submission, jb.ID, 3, 3)), http.StatusForbidden, scores, "conflict of interest")
	// Each may score the other team.
	s.must(t, http.StatusCreated, "POST", scores, jb.Token, scoreBody(b.Submission, jb.ID, 3, 3))
	s.must(t, http.StatusCreated, "POST", scores, jm.Token, scoreBody(a.Submission, jm.ID, 3, 3))

	// Leaving the team does not end the conflict.
	s.must(t, http.StatusNoContent, "DELETE", path(id, "/teams/"+a.Team+"/members/"+jb.ID), jb.Token, nil)
	refused(t, s.raw("POST", scores, jb.Token, scoreBody(a.Submission, jb.ID, 3, 3)), http.StatusForbidden, scores, "conflict of interest")

	// A recusal, then the judge may not score it.
	rec := path(id, "/judging/recusals")
	s.must(t, http.StatusCreated, "POST", rec, jo.Token, map[string]any{"submission_id": a.Submission, "reason": "Ann is my sister"})
	refused(t, s.raw("POST", scores, jo.Token, scoreBody(a.Submission, jo.ID, 3, 3)), http.StatusForbidden, scores, "recused")
	refused(t, s.raw("POST", rec, jo.Token, map[string]any{"submission_id": b.Submission}), http.StatusBadRequest, rec, "reason")

	// A judge scores only as themselves; an organiser may score for a judge.
	refused(t, s.raw("POST", scores, jo.Token, scoreBody(b.Submission, jm.ID, 4, 4)), http.StatusForbidden, scores, "themselves")
	refused(t, s.raw("POST", scores, a.Builder.Token, scoreBody(b.Submission, jo.ID, 4, 4)), http.StatusForbidden, scores)
	sc := s.must(t, http.StatusCreated, "POST", scores, org.Token, scoreBody(b.Submission, jo.ID, 4, 1))
	if sc["judge_id"] != jo.ID || sc["scored_by"] != org.ID || sc["total_score"] != float64(9) || sc["revision"] != float64(1) {
		t.Fatalf("score entered by the organiser: %v", sc)
	}
	// Someone who is not a judge cannot be scored for.
	refused(t, s.raw("POST", scores, org.Token, scoreBody(b.Submission, a.Builder.ID, 4, 4)), http.StatusUnprocessableEntity, scores, "judge")

	// The judge sees their own score; a builder sees none.
	mine := items(t, s.must(t, http.StatusOK, "GET", scores, jo.Token, nil))
	if len(mine) != 1 || mine[0]["submission_id"] != b.Submission {
		t.Fatalf("judge's scores: %v", mine)
	}
	refused(t, s.raw("GET", scores, a.Builder.Token, nil), http.StatusForbidden, scores)
}

// TestRubricValidation: a score must match the active rubric: every
// criterion, in range, the weighted total (422 naming the expected total);
// malformed input is 400 naming the field. A revision is a new revision;
// the rubric is frozen once judging starts.
func TestRubricValidation(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	rub := s.addRubric(t, org, id)
	j := s.judge(t, org, id, "judge")
	e := s.entry(t, id, "ann", "")
	scores := path(id, "/judging/scores")
	post := func(body any) reply { return s.raw("POST", scores, j.Token, body) }
	score := func(sc, total any) map[string]any {
		return map[string]any{"submission_id": e.Submission, "judge_id": j.ID, "scores": sc, "total_score": total}
	}

	unprocessable := []struct {
		body  map[string]any
		words []string
	}{
		{score(map[string]any{"impact": 4}, 8), []string{"scores.polish", "missing"}},
		{score(map[string]any{"impact": 6, "polish": 1}, 13), []string{"scores.impact", "from 0 to 5", "6"}},
		{score(map[string]any{"impact": 4, "polish": -1}, 7), []string{"scores.polish", "from 0 to 5"}},
		// 2 × 4 + 3 = 11, not 10.
		{score(map[string]any{"impact": 4, "polish": 3}, 10), []string{"total_score", "11", "got 10"}},
		// 2 × 4.5 + 2.25 = 11.25; 11.2 is off by more than the tolerance.
		{score(map[string]any{"impact": 4.5, "polish": 2.25}, 11.2), []string{"total_score", "11.25"}},
		{score(map[string]any{"impact": 4, "polish": 3, "design": 2}, 11), []string{"scores.design", "not a criterion"}},
	}
	for _, c := range unprocessable {
		refused(t, post(c.body), http.StatusUnprocessableEntity, scores, c.words...)
	}
	malformed := []struct {
		body  any
		words []string
	}{
		{map[string]any{"judge_id": j.ID, "scores": map[string]any{"impact": 4, "polish": 3}, "total_score": 11}, []string{"submission_id", "required"}},
		{map[string]any{"submission_id": e.Submission, "scores": map[string]any{"impact": 4, "polish": 3}, "total_score": 11}, []string{"judge_id", "required"}},
		{map[string]any{"submission_id": e.Submission, "judge_id": j.ID, "total_score": 11}, []string{"scores", "required"}},
		{score(map[string]any{"impact": 4, "polish": 3}, nil), []string{"total_score", "required"}},
		{score([]any{4, 3}, 11), []string{"scores"}},
		{score(map[string]any{"impact": true, "polish": 3}, 11), []string{"scores"}},
		{score(map[string]any{"impact": 4, "polish": 3}, "eleven"), []string{"total_score", "number"}},
		{score(map[string]any{"impact": "high", "polish": 3}, 11), []string{"scores", "number"}},
		{score(map[string]any{"impact": 4.125, "polish": 3}, 11.25), []string{"scores.impact"}},
		{map[string]any{"submission_id": e.Submission, "judge_id": j.ID, "scores": map[string]any{"impact": 4, "polish": 3},
			"total_score": 11, "grade": "A"}, []string{"grade", "unknown_field"}},
		{map[string]any{"submission_id": 7, "judge_id": j.ID, "scores": map[string]any{"impact": 4, "polish": 3}, "total_score": 11}, []string{"submission_id"}},
	}
	for _, c := range malformed {
		refused(t, post(c.body), http.StatusBadRequest, scores, c.words...)
	}
	if n := len(items(t, s.must(t, http.StatusOK, "GET", scores, org.Token, nil))); n != 0 {
		t.Fatalf("%d scores recorded from refused requests", n)
	}

	// A valid score (the total may be sent to two decimals: 11.254 is
	// within 0.005 of 11.25), then a revision.
	first := s.must(t, http.StatusCreated, "POST", scores, j.Token, score(map[string]any{"impact": 4.5, "polish": 2.25}, 11.254))
	if first["revision"] != float64(1) || first["total_score"] != 11.25 {
		t.Fatalf("first score: %v", first)
	}
	s.must(t, http.StatusOK, "POST", scores, j.Token, score(map[string]any{"impact": 4.5, "polish": 2.25}, 11.25)) // unchanged
	second := s.must(t, http.StatusCreated, "POST", scores, j.Token, score(map[string]any{"impact": 3, "polish": 5}, 11))
	if second["revision"] != float64(2) {
		t.Fatalf("revision: %v", second)
	}
	got := items(t, s.must(t, http.StatusOK, "GET", scores+"?submission_id="+e.Submission, org.Token, nil))
	if len(got) != 1 || got[0]["revision"] != float64(2) || got[0]["total_score"] != float64(11) ||
		got[0]["scores"].(map[string]any)["impact"] != float64(3) || got[0]["rubric_id"] != rub {
		t.Fatalf("GET scores after the revision: %v", got)
	}

	// The rubric is frozen: criteria, ladder, name of the active rubric;
	// no other rubric may become active.
	rp := path(id, "/rubrics/"+rub)
	refused(t, s.raw("PATCH", rp, org.Token, map[string]any{"criteria": []map[string]any{{"key": "impact"}}}), http.StatusConflict, rp, "fixed")
	refused(t, s.raw("PATCH", rp, org.Token, map[string]any{"tie_break": []string{"raw_mean", "id"}}), http.StatusConflict, rp)
	if r := s.must(t, http.StatusOK, "GET", path(id, "/rubrics/active"), org.Token, nil); r["locked"] != true || r["id"] != rub {
		t.Fatalf("active rubric after the first score: %v", r)
	}
	other := s.must(t, http.StatusCreated, "POST", path(id, "/rubrics"), org.Token, map[string]any{"name": "Other",
		"criteria": []map[string]any{{"key": "fun"}}})
	refused(t, s.raw("PATCH", path(id, "/rubrics/"+other["id"].(string)), org.Token, map[string]any{"is_active": true}),
		http.StatusConflict, path(id, "/rubrics/"+other["id"].(string)), "judging has started")
}

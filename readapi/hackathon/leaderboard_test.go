package hackathon_test

import (
	"math"
	"net/http"
	"testing"
)

// board is the hand-made judging of TestLeaderboard and TestRebuild: 3
// judges, 4 submissions, the tests' rubric (total = 2 × impact + polish).
type board struct {
	id, track      string
	org, builder   actor
	j1, j2, j3     actor
	s1, s2, s3, s4 string
}

// newBoard records the scores (impact, polish → total):
//
//	      S1 (AI)     S2          S3 (AI)     S4
//	J1    4,3 → 11    5,1 → 11    2,3 → 7     3,1 → 7
//	J2    4,4 → 12    4,2 → 10    5,2 → 12    3,4 → 10
//	J3    -           3,1.5 → 7.5 -           5,5 → 15
//
// J1: n 4, mean (11+11+7+7)/4 = 9, SD √((4+4+4+4)/4) = 2: z +1 +1 -1 -1.
// J2: n 4, mean (12+10+12+10)/4 = 11, SD √((1+1+1+1)/4) = 1: z +1 -1 +1 -1.
// J3: n 2, below the 3 scores z needs: z = 0 (raw means count them).
//
//	S1: raw (11+12)/2 = 11.5;        z (1+1)/2 = 1;     impact mean (4+4)/2 = 4
//	S2: raw (11+10+7.5)/3 = 9.5;     z (1-1+0)/3 = 0;   impact mean (5+4+3)/3 = 4
//	S3: raw (7+12)/2 = 9.5;          z (-1+1)/2 = 0;    impact mean (2+5)/2 = 3.5
//	S4: raw (7+10+15)/3 = 32/3;      z (-1-1+0)/3 = -2/3; impact mean (3+3+5)/3 = 11/3
//
// On the way, J1 first gives S1 1,1 and J2 gives S3 0,0, each revised
// (revision 2) to the values above; the organiser enters J3's score of S4.
func newBoard(t *testing.T, s *server) *board {
	t.Helper()
	b := &board{org: s.actor(t, "org")}
	b.id = s.liveHackathon(t, b.org.Token, nil)
	b.track = s.must(t, http.StatusCreated, "POST", path(b.id, "/tracks"), b.org.Token, map[string]any{"name": "AI"})["id"].(string)
	s.addRubric(t, b.org, b.id)
	b.j1, b.j2, b.j3 = s.judge(t, b.org, b.id, "j1"), s.judge(t, b.org, b.id, "j2"), s.judge(t, b.org, b.id, "j3")
	e1 := s.entry(t, b.id, "one", b.track)
	b.builder = e1.Builder
	b.s1, b.s2 = e1.Submission, s.entry(t, b.id, "two", "").Submission
	b.s3, b.s4 = s.entry(t, b.id, "three", b.track).Submission, s.entry(t, b.id, "four", "").Submission

	s.score(t, b.id, b.j1, b.j1.ID, b.s1, 1, 1)
	s.score(t, b.id, b.j2, b.j2.ID, b.s3, 0, 0)
	for _, x := range []struct {
		by, judge      actor
		sub            string
		impact, polish float64
	}{
		{b.j1, b.j1, b.s1, 4, 3}, {b.j1, b.j1, b.s2, 5, 1}, {b.j1, b.j1, b.s3, 2, 3}, {b.j1, b.j1, b.s4, 3, 1},
		{b.j2, b.j2, b.s1, 4, 4}, {b.j2, b.j2, b.s2, 4, 2}, {b.j2, b.j2, b.s3, 5, 2}, {b.j2, b.j2, b.s4, 3, 4},
		{b.j3, b.j3, b.s2, 3, 1.5}, {b.org, b.j3, b.s4, 5, 5},
	} {
		s.score(t, b.id, x.by, x.judge.ID, x.sub, x.impact, x.polish)
	}
	return b
}

// want is an expected leaderboard entry.
type want struct {
	sub         string
	z, raw, top float64
	n           int
	separatedBy string // "" for the first entry
}

func checkBoard(t *testing.T, got map[string]any, wants []want) {
	t.Helper()
	es := got["entries"].([]any)
	if len(es) != len(wants) || got["total"] != float64(len(wants)) {
		t.Fatalf("%d entries (total %v), want %d: %v", len(es), got["total"], len(wants), got)
	}
	near := func(a any, b float64) bool { f, ok := a.(float64); return ok && math.Abs(f-b) <= 1e-9 }
	for i, w := range wants {
		e := es[i].(map[string]any)
		sep, _ := e["separated_by"].(string)
		if e["submission_id"] != w.sub || e["rank"] != float64(i+1) || !near(e["normalized_score"], w.z) ||
			!near(e["raw_mean"], w.raw) || !near(e["top_criterion_mean"], w.top) || e["score_count"] != float64(w.n) ||
			sep != w.separatedBy || (i == 0 && e["separated_by"] != nil) {
			t.Fatalf("entry %d: %v, want %+v", i+1, e, w)
		}
	}
}

// TestLeaderboard: the hand-made board ranks as computed by hand under
// both methods, overall and per track.
func TestLeaderboard(t *testing.T) {
	s := newServer(t)
	b := newBoard(t, s)
	lb := path(b.id, "/judging/leaderboard")

	// z-score: S1 (z 1); S2 and S3 tie on z (0) and raw mean (9.5), the
	// impact mean puts S2 (4) above S3 (3.5); S4 (z -2/3).
	z := s.must(t, http.StatusOK, "GET", lb+"?method=zscore", b.j1.Token, nil)
	checkBoard(t, z, []want{
		{b.s1, 1, 11.5, 4, 2, ""},
		{b.s2, 0, 9.5, 4, 3, "normalised"},
		{b.s3, 0, 9.5, 3.5, 2, "top_criterion"},
		{b.s4, -2.0 / 3, 32.0 / 3, 11.0 / 3, 3, "normalised"},
	})
	if jb := z["judges_below_min_scores"].([]any); len(jb) != 1 || jb[0] != b.j3.ID {
		t.Fatalf("judges_below_min_scores %v, want [%s]", jb, b.j3.ID)
	}
	if z["top_criterion"] != "impact" || z["method"] != "zscore" || z["unscored"] != float64(0) {
		t.Fatalf("leaderboard header: %v", z)
	}
	// zscore is the default.
	if d := s.must(t, http.StatusOK, "GET", lb, b.org.Token, nil); d["method"] != "zscore" {
		t.Fatalf("default method %v", d["method"])
	}

	// raw: S1 11.5, S4 32/3, then S2 and S3 at 9.5 with z 0 each, the
	// impact mean separating them.
	checkBoard(t, s.must(t, http.StatusOK, "GET", lb+"?method=raw", b.org.Token, nil), []want{
		{b.s1, 1, 11.5, 4, 2, ""},
		{b.s4, -2.0 / 3, 32.0 / 3, 11.0 / 3, 3, "raw_mean"},
		{b.s2, 0, 9.5, 4, 3, "raw_mean"},
		{b.s3, 0, 9.5, 3.5, 2, "top_criterion"},
	})

	// Track AI: S1 and S3, with the z-scores of all the judges' scores.
	checkBoard(t, s.must(t, http.StatusOK, "GET", lb+"?method=zscore&track_id="+b.track, b.org.Token, nil), []want{
		{b.s1, 1, 11.5, 4, 2, ""},
		{b.s3, 0, 9.5, 3.5, 2, "normalised"},
	})
	checkBoard(t, s.must(t, http.StatusOK, "GET", lb+"?method=raw&track_id="+b.track, b.org.Token, nil), []want{
		{b.s1, 1, 11.5, 4, 2, ""},
		{b.s3, 0, 9.5, 3.5, 2, "raw_mean"},
	})

	refused(t, s.raw("GET", lb+"?method=bad", b.org.Token, nil), http.StatusBadRequest, lb, "method")
	refused(t, s.raw("GET", lb+"?track_id=0190d3a4-0000-7000-8000-000000000000", b.org.Token, nil), http.StatusNotFound, lb)
	// A builder sees it once the hackathon is COMPLETED.
	refused(t, s.raw("GET", lb, b.builder.Token, nil), http.StatusForbidden, lb)
	s.setStatus(t, b.org.Token, b.id, "COMPLETED")
	s.must(t, http.StatusOK, "GET", lb, b.builder.Token, nil)
}

package hackathon_test

import (
	"net/http"
	"testing"
)

// The surface keeps computed leaderboards until the read model's results
// move: a leaderboard read, a revised score, and the next read shows the
// revision (read your writes through the cache), in both methods.
func TestLeaderboardCacheFollowsScores(t *testing.T) {
	s := newServer(t)
	b := newBoard(t, s)
	for _, method := range []string{"zscore", "raw"} {
		lb := path(b.id, "/judging/leaderboard?method="+method)
		first := entriesOf(t, s.must(t, http.StatusOK, "GET", lb, b.org.Token, nil))
		again := entriesOf(t, s.must(t, http.StatusOK, "GET", lb, b.org.Token, nil))
		if first[0]["submission_id"] != again[0]["submission_id"] || first[0]["raw_mean"] != again[0]["raw_mean"] {
			t.Fatalf("%s: the same read gave %v then %v", method, first[0], again[0])
		}
	}
	// J2 revises S4 from 3,4 (10) to 5,5 (15): S4's raw mean becomes
	// (7+15+15)/3 = 37/3, the highest, so the raw leaderboard's first entry
	// changes at once.
	s.score(t, b.id, b.j2, b.j2.ID, b.s4, 5, 5)
	raw := entriesOf(t, s.must(t, http.StatusOK, "GET", path(b.id, "/judging/leaderboard?method=raw"), b.org.Token, nil))
	if raw[0]["submission_id"] != b.s4 {
		t.Fatalf("after the revision the raw leaderboard starts with %v, want S4 %s", raw[0]["submission_id"], b.s4)
	}
	if got := raw[0]["raw_mean"].(float64); got < 12.333 || got > 12.334 {
		t.Fatalf("S4 raw_mean %v, want 37/3", got)
	}
}

func entriesOf(t *testing.T, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["entries"].([]any)
	if !ok || len(raw) == 0 {
		t.Fatalf("no entries in %v", body)
	}
	out := make([]map[string]any, len(raw))
	for i, e := range raw {
		out[i] = e.(map[string]any)
	}
	return out
}

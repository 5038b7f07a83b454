package hackathon_test

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"testing"

	"github.com/strata-platform/strata/projections"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
)

// TestRebuild: rebuilding the hackathon.v1 projection from the events
// (revisions included) gives byte-identical leaderboards and exports.
func TestRebuild(t *testing.T) {
	s := newServer(t)
	b := newBoard(t, s)
	lb := path(b.id, "/judging/leaderboard")
	boards := []string{lb + "?method=zscore", lb + "?method=raw", lb + "?method=zscore&track_id=" + b.track,
		lb + "?method=raw&track_id=" + b.track, lb + "?method=zscore&limit=2&offset=1"}
	exports := []string{path(b.id, "/analytics/export?format=json"), path(b.id, "/analytics/export?format=csv")}
	read := func(paths []string, allow404 bool) [][]byte {
		t.Helper()
		out := make([][]byte, len(paths))
		for i, p := range paths {
			r := s.raw("GET", p, b.org.Token, nil)
			if r.Status == http.StatusNotFound && allow404 {
				return nil
			}
			if r.Status != http.StatusOK || len(r.Raw) == 0 {
				t.Fatalf("GET %s: %d %s", p, r.Status, r.Raw)
			}
			out[i] = r.Raw
		}
		return out
	}
	beforeBoards, beforeExports := read(boards, false), read(exports, true)

	res, err := projections.Rebuilder{DB: s.Platform.DB, Registry: s.Platform.Reg, BatchSize: 7}.Rebuild(context.Background(), projhackathon.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied == 0 {
		t.Fatalf("the rebuild applied no events: %+v", res)
	}

	for i, after := range read(boards, false) {
		if !bytes.Equal(beforeBoards[i], after) {
			t.Fatalf("GET %s changed in the rebuild:\nbefore %s\nafter  %s", boards[i], beforeBoards[i], after)
		}
	}
	t.Run("export", func(t *testing.T) {
		if beforeExports == nil {
			t.Skip("GET .../analytics/export answers 404: the export route is not there yet")
		}
		for i, after := range read(exports, false) {
			if !bytes.Equal(beforeExports[i], after) {
				t.Fatalf("GET %s changed in the rebuild:\nbefore %s\nafter  %s", exports[i], beforeExports[i], after)
			}
		}
	})

	// The live consumer carries on after the rebuild: a revision moves
	// the board. J2 revises S4 from 3,4 (10) to 5,5 (15): S4's raw mean
	// becomes (7+15+15)/3 = 37/3, above S1's 11.5.
	s.score(t, b.id, b.j2, b.j2.ID, b.s4, 5, 5)
	got := s.must(t, http.StatusOK, "GET", lb+"?method=raw", b.org.Token, nil)
	e := got["entries"].([]any)[0].(map[string]any)
	if raw, _ := e["raw_mean"].(float64); e["submission_id"] != b.s4 || math.Abs(raw-37.0/3) > 1e-9 {
		t.Fatalf("after a revision past the rebuild, first entry %v, want S4 with raw mean 37/3", e)
	}
}

package hackathon_test

import (
	"math"
	"testing"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
)

// TestPairwiseFlow: a judge is shown a first submission, then a second,
// votes, and the vote updates both submissions by Crowd-BT. From the priors
// (mu 0, sigma² 1, judge alpha 10, beta 1) one vote moves the winner to
// mu = 9/22 and the loser to -9/22, both variances to 403/484, and leaves
// the judge at (10, 1) (worked by hand in judging's tests).
func TestPairwiseFlow(t *testing.T) {
	w := conflictWorld(t)
	w.submit("b3", "s2", "t2")
	evs, err := w.h.VotePair("j1", "current", t0)
	refused(t, evs, err, kernel.KindConflict) // no pair yet
	evs, err = w.h.VotePair("j1", "best", t0)
	refused(t, evs, err, kernel.KindInvalid)
	evs, err = w.h.NextPair("b1", t0)
	refused(t, evs, err, kernel.KindForbidden) // not a judge

	w.must(w.h.NextPair("j1", t0))
	first := w.h.Pairs.Judges["j1"].Current
	w.must(w.h.NextPair("j1", t0))
	pj := w.h.Pairs.Judges["j1"]
	if pj.Previous != first || pj.Current == "" || pj.Current == first {
		t.Fatalf("pair = %q, %q after first %q", pj.Previous, pj.Current, first)
	}
	evs, err = w.h.NextPair("j1", t0)
	noop(t, evs, err) // the pair stays until the judge votes
	cur := pj.Current
	w.must(w.h.VotePair("j1", "current", t0))
	win, lose := w.h.Pairs.Item(cur), w.h.Pairs.Item(first)
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15f, want %.15f", name, got, want)
		}
	}
	near("winner mu", win.Mu, 9.0/22)
	near("loser mu", lose.Mu, -9.0/22)
	near("winner sigma²", win.SigmaSq, 403.0/484)
	near("loser sigma²", lose.SigmaSq, 403.0/484)
	near("alpha", w.h.Pairs.Judges["j1"].Alpha, 10)
	near("beta", w.h.Pairs.Judges["j1"].Beta, 1)
	if w.h.Pairs.Votes[cur] != 1 || w.h.Pairs.Votes[first] != 1 {
		t.Errorf("votes = %v", w.h.Pairs.Votes)
	}
}

// TestPairwiseSkipsConflicts: a judge is never shown a submission of a team
// they belong to.
func TestPairwiseSkipsConflicts(t *testing.T) {
	w := conflictWorld(t)
	w.submit("b3", "s2", "t2")
	for i := 0; i < 10; i++ {
		evs, err := w.h.NextPair("jb", t0)
		if err != nil {
			if kernel.KindOf(err) != kernel.KindConflict {
				t.Fatalf("NextPair: %v", err)
			}
			break
		}
		w.fold(evs...)
		pj := w.h.Pairs.Judges["jb"]
		if why := w.h.Conflicted("jb", pj.Current); why != "" {
			t.Fatalf("shown %s: %s", pj.Current, why)
		}
		if pj.Previous != "" {
			w.must(w.h.VotePair("jb", "previous", t0))
		}
	}
	if _, seen := w.h.Pairs.Judges["jb"].Seen["s1"]; seen {
		t.Error("jb, a builder of team t1, was shown its submission s1")
	}
	_ = hackathon.RoleJudge
}

package waterfall

import (
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
)

// solver finds the equilibrium of the choices at one exit value (Run) or on
// the regime just above one (Breakpoints). It caches each profile's
// distribution, and reuses it while the regime it was computed for lasts.
type solver struct {
	m     *model
	e     aff // the exit value: a constant for Run, E itself for Breakpoints
	ev    evaluator
	cache map[string]*plan
	cmps  map[cmpKey]*cmpVal // nil: comparisons are not cached (Run)
	next  bound              // end of the current solve's regime
	// maxPasses bounds best-response passes; reaching it is an internal error.
	maxPasses int
}

type cmpKey struct {
	cur, alt *dist
	player   int
}

type cmpVal struct {
	sign int
	root bound // where the sign may change
}

func newSolver(m *model, e aff, e0 q, right bool) *solver {
	s := &solver{m: m, e: e, ev: evaluator{e0: e0, right: right}, cache: map[string]*plan{},
		maxPasses: 4*len(m.players) + 8}
	if right {
		s.cmps = map[cmpKey]*cmpVal{}
	}
	return s
}

// get returns the distribution under prof, computing it unless a cached one
// is still exact at the evaluation point.
func (s *solver) get(prof []byte) *dist {
	pl := s.cache[string(prof)]
	if pl == nil {
		pl = s.m.newPlan(prof)
		s.cache[string(prof)] = pl
	}
	if pl.d == nil || !pl.d.next.above(s.ev.e0) {
		pl.d = s.m.distribute(&s.ev, s.e, pl)
	}
	s.next.lower(pl.d.next)
	return pl.d
}

// gain returns the sign of what player gains by moving from cur to alt.
func (s *solver) gain(player int, cur, alt *dist) int {
	key := cmpKey{cur, alt, player}
	if s.cmps != nil {
		if c := s.cmps[key]; c != nil && c.root.above(s.ev.e0) {
			s.next.lower(c.root)
			return c.sign
		}
	}
	s.ev.next = bound{}
	sg := s.ev.signDiff(s.m.payoff(alt, player), s.m.payoff(cur, player))
	root := s.ev.next
	s.next.lower(root)
	if s.cmps != nil {
		s.cmps[key] = &cmpVal{sign: sg, root: root}
	}
	return sg
}

// solve runs best-response iteration at the solver's point: starting from
// "no class converts, no award exercises", each player in turn (classes by
// seniority then input order, then award groups by strike) switches when
// that strictly raises its own payout, or, when it has converted or
// exercised, switches back unless staying is strictly better (ties keep the
// preference and do not exercise). It stops after a pass in which nobody
// switched: then nobody gains strictly by switching alone. It returns the
// profile and its distribution, or an internal error after too many passes.
func (s *solver) solve(e0 q) ([]byte, *dist, error) {
	s.ev.e0, s.next = e0, bound{}
	prof := make([]byte, len(s.m.players))
	for pass := 0; pass < s.maxPasses; pass++ {
		changed := false
		for pl := range prof {
			cur := s.get(prof)
			prof[pl] ^= 1
			alt := s.get(prof)
			prof[pl] ^= 1
			g := s.gain(pl, cur, alt)
			if g > 0 || (g == 0 && prof[pl] != 0) {
				prof[pl] ^= 1
				changed = true
			}
		}
		if !changed {
			return prof, s.get(prof), nil
		}
	}
	return nil, nil, kernel.E(kernel.KindInternal,
		fmt.Sprintf("waterfall: the conversion and exercise choices did not settle after %d passes", s.maxPasses))
}

package waterfall

import (
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Breakpoint is an exit value at which some payout changes slope, with one
// thing that happens there (Event, e.g. "Series A converts to common") and
// the class it concerns ("" for costs, debt and awards).
type Breakpoint struct {
	ExitValue num.Num
	Event     string
	ClassID   string
}

// maxRegimes bounds the regimes Breakpoints walks through; every regime ends
// at a distinct root of a finite set of affine forms, so it is never reached
// by a valid input of the sizes Validate accepts.
const maxRegimes = 1 << 20

// regime is the equilibrium on the exit values just above a point.
type regime struct {
	prof []byte
	d    *dist
}

// Breakpoints returns every exit value in (0, maxExit] at which the payout
// of the costs, the debt, a class or an award changes slope (or jumps),
// ascending and exact, with one entry per event there (several events at
// one value are listed in the order costs, debt, preferences, conversions,
// caps, awards). Between two consecutive values (and 0 and maxExit) every
// payout Run returns is affine in the exit value. in.ExitValue is ignored;
// the rest of in is validated as Run does, and maxExit must be positive.
//
// It walks the regimes of exit values: on each, the equilibrium and every
// comparison the waterfall makes keep their outcome, so every amount is an
// affine form of the exit value; the regime ends at the smallest root of
// those comparisons, where the next regime is solved and compared.
func Breakpoints(in Input, maxExit num.Num) ([]Breakpoint, error) {
	if err := in.validateTable(); err != nil {
		return nil, err
	}
	if maxExit.Sign() <= 0 {
		return nil, kernel.Invalid("maxExit", "positive", "maxExit must be positive (rule positive)")
	}
	m := newModel(in)
	limit := qNum(maxExit)
	s := newSolver(m, aff{b: qInt(1)}, q{}, true)
	prof, d, err := s.solve(q{})
	if err != nil {
		return nil, err
	}
	prev := regime{prof, d}
	out := []Breakpoint{}
	for n := 0; s.next.set && s.next.v.cmp(limit) <= 0; n++ {
		if n == maxRegimes {
			return nil, kernel.E(kernel.KindInternal, "waterfall: too many regimes between breakpoints")
		}
		at := s.next.v
		prof, d, err := s.solve(at)
		if err != nil {
			return nil, err
		}
		cur := regime{prof, d}
		if m.payoutsChange(prev.d, cur.d) {
			out = append(out, m.describe(at.num(), prev, cur)...)
		}
		prev = cur
	}
	return out, nil
}

// payoutsChange reports whether any payout form differs between a and b.
func (m *model) payoutsChange(a, b *dist) bool {
	if a == b {
		return false
	}
	if !a.costs.equal(b.costs) || !a.debt.equal(b.debt) {
		return true
	}
	for i := range m.classes {
		if !m.total(a, i).equal(m.total(b, i)) {
			return true
		}
	}
	for _, g := range m.groups {
		if !m.payoff(a, g.player).equal(m.payoff(b, g.player)) {
			return true
		}
	}
	return false
}

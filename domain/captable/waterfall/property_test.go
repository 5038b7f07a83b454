package waterfall

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

func pick(rng *rand.Rand, options ...string) num.Num { return d(options[rng.IntN(len(options))]) }

// randomInput is a random valid cap table of 1 to 10 classes with random
// seniorities, multiples, conversion ratios, participation and caps, some
// zero-share classes, some awards, debt and costs.
func randomInput(rng *rand.Rand) Input {
	var in Input
	n := 1 + rng.IntN(10)
	total := num.Zero
	for i := range n {
		c := Class{ID: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("Class %d", i)}
		if rng.IntN(6) > 0 {
			c.Shares = num.Int(int64(1+rng.IntN(5000)) * 1000)
		}
		c.ConversionRatio = pick(rng, "0", "0", "1", "1.1", "2", "0.5")
		if i > 0 && rng.IntN(4) > 0 {
			c.Preferred = true
			c.IssuePrice = num.Ratio(int64(1+rng.IntN(1000)), 100)
			c.PreferenceMultiple = pick(rng, "0", "1", "1", "1", "1.5", "2")
			c.Seniority = 1 + rng.IntN(3)
			if rng.IntN(5) < 2 {
				c.Participating = true
				if rng.IntN(2) == 0 {
					c.ParticipationCap = num.Max(num.Max(num.Int(1), c.PreferenceMultiple), pick(rng, "1", "2", "2.5", "3"))
				}
			}
		} else {
			c.IssuePrice = pick(rng, "0", "0.001")
		}
		if rng.IntN(2) == 0 && c.Shares.Sign() > 0 {
			part := c.Shares.Mul(num.Ratio(int64(rng.IntN(4)), 4)).Floor()
			c.Holders = []Holding{{HolderID: fmt.Sprintf("h%d", rng.IntN(4)), Shares: part},
				{HolderID: fmt.Sprintf("h%d", rng.IntN(4)), Shares: c.Shares.Sub(part)}}
		}
		total = total.Add(c.Shares)
		in.Classes = append(in.Classes, c)
	}
	if total.IsZero() {
		in.Classes[0].Shares = num.Int(1_000_000)
	}
	for j := range rng.IntN(5) {
		in.Awards = append(in.Awards, Award{ID: fmt.Sprintf("w%d", j), HolderID: fmt.Sprintf("h%d", rng.IntN(4)),
			Quantity: num.Int(int64(rng.IntN(2000)) * 1000), Strike: pick(rng, "0", "0.1", "0.5", "1", "2.5", "3.33")})
	}
	if rng.IntN(3) == 0 {
		in.Debt = num.Int(int64(rng.IntN(20_000_000)))
	}
	if rng.IntN(3) == 0 {
		in.TransactionCosts = num.Ratio(int64(rng.IntN(300_000_000)), 100)
	}
	return in
}

// scale is a size of exit at which everything interesting has happened or
// is about to.
func scale(in Input) num.Num {
	s := in.Debt.Add(in.TransactionCosts)
	for _, c := range in.Classes {
		s = s.Add(c.Shares.Mul(c.IssuePrice).Mul(num.Max(c.ParticipationCap, c.PreferenceMultiple).Add(num.Int(1))))
	}
	return s.Add(num.Int(1_000_000))
}

func randomExit(rng *rand.Rand, in Input) num.Num {
	switch rng.IntN(8) {
	case 0:
		return num.Zero
	case 1:
		return d("1000000000000")
	}
	return scale(in).Mul(num.Ratio(int64(rng.IntN(30001)), 10000)).Round(2)
}

// TestPropertySumsAndEquilibrium checks on random tables that the payouts add
// up exactly, match the reference distribution under the chosen choices,
// and that no class or award gains by flipping its own choice alone.
func TestPropertySumsAndEquilibrium(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for table := range 300 {
		in := randomInput(rng)
		for range 4 {
			in.ExitValue = randomExit(rng, in)
			r, err := Run(in)
			if err != nil {
				t.Fatalf("table %d exit %s: %v", table, in.ExitValue, err)
			}
			checkBalances(t, in, r)
			conv, ex := choices(r)
			ref := refDistribute(in, conv, ex)
			for i, c := range r.Classes {
				if !c.Total.Equal(ref.class[i]) {
					t.Fatalf("table %d exit %s class %s: %s, reference %s", table, in.ExitValue, c.ID, c.Total, ref.class[i])
				}
			}
			for j, a := range r.Awards {
				if !a.Net.Equal(ref.award[j]) {
					t.Fatalf("table %d exit %s award %s: %s, reference %s", table, in.ExitValue, a.ID, a.Net, ref.award[j])
				}
			}
			for i, c := range in.Classes {
				if !c.Preferred {
					continue
				}
				conv[i] = !conv[i]
				if alt := refDistribute(in, conv, ex).class[i]; r.Classes[i].Total.Less(alt) {
					t.Fatalf("table %d exit %s: class %s gains by flipping (%s -> %s)", table, in.ExitValue, c.ID, r.Classes[i].Total, alt)
				}
				conv[i] = !conv[i]
			}
			for j, a := range in.Awards {
				ex[j] = !ex[j]
				if alt := refDistribute(in, conv, ex).award[j]; r.Awards[j].Net.Less(alt) {
					t.Fatalf("table %d exit %s: award %s gains by flipping (%s -> %s)", table, in.ExitValue, a.ID, r.Awards[j].Net, alt)
				}
				ex[j] = !ex[j]
			}
		}
	}
}

func choices(r Result) (conv, ex []bool) {
	for _, c := range r.Classes {
		conv = append(conv, c.Converted)
	}
	for _, a := range r.Awards {
		ex = append(ex, a.Exercised)
	}
	return conv, ex
}

// payouts lists every payout of r: costs, debt, classes, awards, holders.
func payouts(r Result) []num.Num {
	out := []num.Num{r.TransactionCosts, r.Debt}
	for _, c := range r.Classes {
		out = append(out, c.Total)
	}
	for _, a := range r.Awards {
		out = append(out, a.Net)
	}
	for _, h := range r.Holders {
		out = append(out, h.Total)
	}
	return out
}

func mustRun(t *testing.T, in Input, e num.Num) Result {
	t.Helper()
	in.ExitValue = e
	r, err := Run(in)
	if err != nil {
		t.Fatalf("exit %s: %v", e, err)
	}
	return r
}

// TestPropertyMonotone checks that no payout falls when the exit rises.
func TestPropertyMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for table := range 300 {
		in := randomInput(rng)
		for range 4 {
			e := randomExit(rng, in)
			delta := scale(in).Mul(num.Ratio(int64(1+rng.IntN(1000)), int64(1+rng.IntN(100000))))
			lo, hi := payouts(mustRun(t, in, e)), payouts(mustRun(t, in, e.Add(delta)))
			for k := range lo {
				if hi[k].Less(lo[k]) {
					t.Fatalf("table %d: payout %d falls from %s at %s to %s at %s", table, k, lo[k], e, hi[k], e.Add(delta))
				}
			}
		}
	}
}

// TestPropertyAffineBetweenBreakpoints checks that between consecutive
// breakpoints (and 0 and maxExit) every payout is affine: the payout at the
// midpoint is exactly the average of the payouts at the ends.
func TestPropertyAffineBetweenBreakpoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for table := range 300 {
		in := randomInput(rng)
		maxExit := scale(in).Mul(num.Int(2))
		bps, err := Breakpoints(in, maxExit)
		if err != nil {
			t.Fatalf("table %d: %v", table, err)
		}
		points := []num.Num{num.Zero}
		for _, b := range bps {
			if !b.ExitValue.Equal(points[len(points)-1]) {
				points = append(points, b.ExitValue)
			}
		}
		if !maxExit.Equal(points[len(points)-1]) {
			points = append(points, maxExit)
		}
		prev := payouts(mustRun(t, in, points[0]))
		for k := 1; k < len(points); k++ {
			lo, hi := points[k-1], points[k]
			next := payouts(mustRun(t, in, hi))
			mid := payouts(mustRun(t, in, lo.Add(hi).Div(num.Int(2))))
			for x := range mid {
				if !mid[x].Mul(num.Int(2)).Equal(prev[x].Add(next[x])) {
					t.Fatalf("table %d: payout %d not affine on [%s, %s]: %s, %s, %s (breakpoints %v)",
						table, x, lo, hi, prev[x], mid[x], next[x], bps)
				}
			}
			prev = next
		}
	}
}

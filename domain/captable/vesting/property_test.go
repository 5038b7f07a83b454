package vesting

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// randomSchedule returns a valid schedule drawn from rng.
func randomSchedule(rng *rand.Rand) Schedule {
	start := Date(2000+rng.IntN(30), time.Month(1+rng.IntN(12)), 1+rng.IntN(31))
	var q num.Num
	switch rng.IntN(4) {
	case 0:
		q = num.Int(1 + rng.Int64N(60)) // small: many zero-rounded months
	case 1:
		q = num.Int(1 + rng.Int64N(1_000_000))
	case 2:
		q = num.MustParse(fmt.Sprintf("%d%018d", 1+rng.Int64N(1e9), rng.Int64N(1e18))) // huge
	default:
		q = num.Int(1 + rng.Int64N(10_000))
	}
	s := Schedule{
		Kind:     kinds()[rng.IntN(4)],
		Start:    start,
		Quantity: q,
		Rounding: append(roundings(), "")[rng.IntN(5)],
	}
	if s.Kind == Custom {
		s.Tranches = randomTranches(rng, start, q)
	}
	return s
}

// randomTranches returns 1..30 tranches on distinct days, in random order,
// all by quantity (when q is small enough) or all by percent.
func randomTranches(rng *rand.Rand, start time.Time, q num.Num) []Tranche {
	count := 1 + rng.IntN(30)
	offsets := rng.Perm(120)[:count] // distinct month offsets
	ts := make([]Tranche, count)
	qi, fits := q.Int64()
	byQuantity := fits && qi >= int64(count) && rng.IntN(2) == 0
	// Cut points split the total (q units, or 10000 basis points) into
	// count positive parts.
	total := int64(10_000)
	if byQuantity {
		total = qi
	}
	cuts := []int64{0, total}
	for len(cuts) < count+1 {
		c := 1 + rng.Int64N(total-1)
		if !slices.Contains(cuts, c) {
			cuts = append(cuts, c)
		}
	}
	slices.Sort(cuts)
	for i := range ts {
		part := num.Int(cuts[i+1] - cuts[i])
		if byQuantity {
			ts[i].Quantity = &part
		} else {
			pct := part.Div(num.Int(100))
			ts[i].Percent = &pct
		}
		if m := offsets[i]; rng.IntN(2) == 0 {
			ts[i].Months = &m
		} else {
			d := AddMonths(start, m).Add(time.Duration(rng.IntN(86400)) * time.Second)
			ts[i].Date = &d
		}
	}
	return ts
}

func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(20240115, 48))
	for c := range 2000 {
		s := randomSchedule(rng)
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			ins := checkInvariants(t, s)
			start := DateOf(s.Start)
			if ins[0].Date.Before(start) {
				t.Fatalf("installment before start")
			}
			days := []time.Time{start.AddDate(0, 0, -1), start, s.FullyVestedDate()}
			for _, in := range ins {
				days = append(days, in.Date, in.Date.AddDate(0, 0, -1))
			}
			for range 20 {
				days = append(days, start.AddDate(0, 0, rng.IntN(5000)-100).Add(time.Duration(rng.IntN(86400))*time.Second))
			}
			slices.SortFunc(days, func(a, b time.Time) int { return a.Compare(b) })
			prev := num.Int(-1)
			for _, d := range days {
				vested := s.VestedAt(d)
				unvested := num.Zero
				for _, in := range ins {
					if in.Date.After(DateOf(d)) {
						unvested = unvested.Add(in.Quantity)
					}
				}
				if !vested.Add(unvested).Equal(s.Quantity) {
					t.Fatalf("on %s vested %s + unvested %s != %s", d, vested, unvested, s.Quantity)
				}
				if vested.Less(prev) {
					t.Fatalf("VestedAt decreased on %s: %s < %s", d, vested, prev)
				}
				prev = vested
				term := s.Terminate(d, rng.IntN(200)-50)
				if !term.Vested.Equal(vested) || !term.Vested.Add(term.Forfeited).Equal(s.Quantity) ||
					term.Forfeited.Sign() < 0 || !term.WindowEnds.After(term.On) {
					t.Fatalf("Terminate(%s) = %+v", d, term)
				}
			}
			if d := s.FullyVestedDate(); !s.VestedAt(d).Equal(s.Quantity) || s.VestedAt(d.AddDate(0, 0, -1)).Equal(s.Quantity) {
				t.Fatalf("not fully vested exactly on %s", d)
			}
		})
	}
}

// TestSpreadGivesAtMostOneExtra checks the front/back-loaded rules against
// their definition: each month gets floor(total/n) or one more, the extras
// on the earliest (front) or latest (back) months.
func TestSpreadGivesAtMostOneExtra(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		total := num.Int(1 + rng.Int64N(100_000))
		nn := 1 + rng.IntN(60)
		w := make([]num.Num, nn)
		for i := range w {
			w[i] = num.Ratio(1, int64(nn))
		}
		base := total.Div(num.Int(int64(nn))).Floor()
		left, _ := total.Sub(base.Mul(num.Int(int64(nn)))).Int64()
		for _, front := range []bool{true, false} {
			got := spread(total, w, front)
			for i, g := range got {
				extra := (front && int64(i) < left) || (!front && int64(nn-1-i) < left)
				want := base
				if extra {
					want = base.Add(num.Int(1))
				}
				if !g.Equal(want) {
					t.Fatalf("total %s n %d front %v: part %d = %s, want %s", total, nn, front, i, g, want)
				}
			}
		}
	}
}

func BenchmarkVestedAt(b *testing.B) {
	s := Schedule{Kind: FourYearOneYearCliff, Start: Date(2024, 1, 15), Quantity: num.Int(4801), Rounding: CumulativeRounding}
	d := Date(2026, 6, 1)
	for b.Loop() {
		s.VestedAt(d)
	}
}

// TestEqualCumulativeMatchesSplit checks the closed forms used for the
// monthly kinds against the general split used for custom percents.
func TestEqualCumulativeMatchesSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 36))
	for range 300 {
		total := num.Int(1 + rng.Int64N(5000))
		nn := 1 + rng.IntN(60)
		w := make([]num.Num, nn)
		for i := range w {
			w[i] = num.Ratio(1, int64(nn))
		}
		for _, r := range append(roundings(), "") {
			cum := num.Zero
			for k, part := range split(total, w, r) {
				cum = cum.Add(part)
				if got := equalCumulative(total, k+1, nn, r); !got.Equal(cum) {
					t.Fatalf("total %s n %d %q k %d: closed form %s, split %s", total, nn, r, k+1, got, cum)
				}
			}
		}
	}
}

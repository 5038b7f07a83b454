package judging

import (
	"math"
	"slices"
	"testing"
)

// TestExpectedInformationGainFromPriors: from the priors both outcomes are
// mirror images (c = 1/2, judge unchanged so its Beta divergence is 0):
//
//	KL(N(9/22, r) || N(0, 1)) = (9/22)^2/2 + (r - 1 - ln r)/2, r = 403/484, for each item
//	EIG = 2 * [81/968 + (r - 1 - ln r)/2] = 81/484 + 403/484 - 1 - ln r = ln(484/403) = 0.18315...
func TestExpectedInformationGainFromPriors(t *testing.T) {
	got := ExpectedInformationGain(NewAnnotator("j"), NewItem("a"), NewItem("b"))
	if want := math.Log(484.0 / 403); !near(got, want, cbtTol) {
		t.Fatalf("EIG = %.17g, want ln(484/403) = %.17g", got, want)
	}
}

// TestExpectedInformationGainMatchesHandComputation rebuilds the gain from
// handVote (each outcome), the Gaussian KL written out here, and
// divergenceBeta (checked against integration below).
func TestExpectedInformationGainMatchesHandComputation(t *testing.T) {
	klNormal := func(m1, s1, m2, s2 float64) float64 {
		return 0.5 * (s1/s2 + (m1-m2)*(m1-m2)/s2 - 1 + math.Log(s2/s1))
	}
	tests := []struct {
		name string
		j    Annotator
		a, b Item
	}{
		{"typical", Annotator{"j", 8, 2}, Item{"a", 0.3, 0.7}, Item{"b", -0.2, 0.9}},
		{"far apart", Annotator{"j", 10, 1}, Item{"a", 2, 0.1}, Item{"b", -2, 0.1}},
		{"doubtful judge", Annotator{"j", 2, 3}, Item{"a", 0.1, 1}, Item{"b", 0, 0.3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j, a, b := tc.j, tc.a, tc.b
			a1, b1, muA1, sA1, muB1, sB1, c := handVote(j.Alpha, j.Beta, a.Mu, a.SigmaSq, b.Mu, b.SigmaSq)
			a2, b2, muB2, sB2, muA2, sA2, _ := handVote(j.Alpha, j.Beta, b.Mu, b.SigmaSq, a.Mu, a.SigmaSq)
			want := c*(klNormal(muA1, sA1, a.Mu, a.SigmaSq)+klNormal(muB1, sB1, b.Mu, b.SigmaSq)+Gamma*divergenceBeta(a1, b1, j.Alpha, j.Beta)) +
				(1-c)*(klNormal(muA2, sA2, a.Mu, a.SigmaSq)+klNormal(muB2, sB2, b.Mu, b.SigmaSq)+Gamma*divergenceBeta(a2, b2, j.Alpha, j.Beta))
			got := ExpectedInformationGain(j, a, b)
			if !near(got, want, cbtTol) {
				t.Fatalf("EIG = %.17g, want %.17g", got, want)
			}
			if rev := ExpectedInformationGain(j, b, a); !near(rev, got, 1e-12) {
				t.Fatalf("EIG not symmetric: %v vs %v", got, rev)
			}
			if got <= 0 {
				t.Fatalf("EIG = %v, want > 0", got)
			}
		})
	}
}

func TestDivergences(t *testing.T) {
	tests := []struct {
		name      string
		got, want float64
	}{
		{"normal equal", divergenceGaussian(0.3, 2, 0.3, 2), 0},
		{"normal shift", divergenceGaussian(1, 1, 0, 1), 0.5},                // (1-0)^2/2
		{"normal wider", divergenceGaussian(0, 2, 0, 1), (1 - math.Ln2) / 2}, // (2-1-ln 2)/2
		{"beta equal", divergenceBeta(3, 4, 3, 4), 0},
		// KL(Beta(2,1) || U(0,1)) = ∫ 2x ln(2x) dx = ln 2 - 1/2
		{"beta vs uniform", divergenceBeta(2, 1, 1, 1), math.Ln2 - 0.5},
		{"beta integrated", divergenceBeta(3, 2, 2, 5), integrateBetaKL(3, 2, 2, 5)},
		{"beta integrated 2", divergenceBeta(10, 2, 9, 3), integrateBetaKL(10, 2, 9, 3)},
		{"betaln", betaln(2, 3), math.Log(1.0 / 12)}, // B(2,3) = 1!2!/4! = 1/12
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want, 1e-8) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}

// integrateBetaKL is KL(Beta(a1,b1) || Beta(a2,b2)) by Simpson's rule on the
// densities, independent of digamma.
func integrateBetaKL(a1, b1, a2, b2 float64) float64 {
	logPdf := func(x, a, b float64) float64 {
		return (a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - betaln(a, b)
	}
	f := func(x float64) float64 {
		if x <= 0 || x >= 1 {
			return 0
		}
		l1 := logPdf(x, a1, b1)
		return math.Exp(l1) * (l1 - logPdf(x, a2, b2))
	}
	const n = 200000
	h := 1.0 / n
	sum := f(0) + f(1)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(float64(i)*h)
	}
	return sum * h / 3
}

func TestNext(t *testing.T) {
	j := NewAnnotator("j")
	cur := Item{"cur", 0, 0.5}
	cands := []Item{{"b", 0.1, 0.9}, {"a", 0.1, 0.9}, {"c", 3, 0.05}, {"cur", 0, 0.5}, {"d", -0.2, 0.4}}
	// The best by gain, computed by brute force.
	var bestID string
	best := math.Inf(-1)
	for _, c := range cands {
		if c.ID == "cur" {
			continue
		}
		if g := ExpectedInformationGain(j, cur, c); g > best || (g == best && c.ID < bestID) {
			best, bestID = g, c.ID
		}
	}
	tests := []struct {
		name    string
		current *Item
		cands   []Item
		want    string
		ok      bool
	}{
		{"no candidates", &cur, nil, "", false},
		{"only current", &cur, []Item{cur}, "", false},
		{"max gain, tie by id", &cur, cands, bestID, true},
		{"no current: highest sigma_sq, tie by id", nil, cands, "a", true},
		{"empty current id counts as none", &Item{}, cands, "a", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Next(j, tc.current, tc.cands)
			if ok != tc.ok || got.ID != tc.want {
				t.Fatalf("Next = %q, %v; want %q, %v", got.ID, ok, tc.want, tc.ok)
			}
			for range 3 { // rotated and reversed candidates choose the same
				if len(tc.cands) > 0 {
					tc.cands = append(slices.Clone(tc.cands[1:]), tc.cands[0])
				}
				slices.Reverse(tc.cands)
				if again, _ := Next(j, tc.current, tc.cands); again.ID != got.ID {
					t.Fatalf("order dependent: %q vs %q", again.ID, got.ID)
				}
			}
		})
	}
	if bestID != "a" {
		t.Fatalf("test setup: a and b tie, a should win by id, got %q", bestID)
	}
}

func TestNextNaNGainLoses(t *testing.T) {
	cur := NewItem("cur")
	cands := []Item{{"nan", math.NaN(), 1}, {"ok", 0.5, 1}}
	if got, ok := Next(NewAnnotator("j"), &cur, cands); !ok || got.ID != "ok" {
		t.Fatalf("Next = %q, %v; want ok", got.ID, ok)
	}
}

package judging

import (
	"math"
	"testing"
)

const eulerGamma = 0.57721566490153286060651209008240243

func TestDigammaKnownValues(t *testing.T) {
	tests := []struct {
		x, want float64
	}{
		{1, -eulerGamma},                                  // ψ(1) = -γ
		{0.5, -1.9635100260214235},                        // ψ(1/2) = -γ - 2 ln 2
		{10, 2.251752589066721},                           // ψ(10) = H₉ - γ
		{2, 1 - eulerGamma},                               // ψ(2) = 1 - γ
		{1.5, 0.03648997397857652},                        // ψ(3/2) = 2 - γ - 2 ln 2
		{0.25, -math.Pi/2 - 3*math.Ln2 - eulerGamma},      // Gauss's digamma theorem
		{0.1, -10.423754940411076},                        // tabulated
		{100, 4.600161852738087},                          // tabulated
		{-0.5, 0.03648997397857652},                       // ψ(-1/2) = ψ(1/2) + 2
		{1e-8, -1e8 - eulerGamma + 1.6449340668482264e-8}, // ψ(x) ≈ -1/x - γ + ζ(2)x
	}
	for _, tc := range tests {
		got := digamma(tc.x)
		if !near(got, tc.want, 1e-10*math.Max(1, math.Abs(tc.want))) {
			t.Errorf("digamma(%v) = %.17g, want %.17g", tc.x, got, tc.want)
		}
	}
}

// TestDigammaHarmonic checks ψ(n) = H(n-1) - γ for n = 1..60, which covers
// both the recurrence branch (n < 10) and the asymptotic series.
func TestDigammaHarmonic(t *testing.T) {
	h := 0.0
	for n := 1; n <= 60; n++ {
		if got, want := digamma(float64(n)), h-eulerGamma; !near(got, want, 1e-12) {
			t.Errorf("digamma(%d) = %.17g, want %.17g", n, got, want)
		}
		h += 1 / float64(n)
	}
}

// TestDigammaRecurrence checks ψ(x+1) - ψ(x) = 1/x across the switch from
// recurrence to series at x = 10.
func TestDigammaRecurrence(t *testing.T) {
	for x := 0.05; x < 30; x += 0.37 {
		if d := digamma(x+1) - digamma(x); !near(d, 1/x, 1e-11*math.Max(1, 1/x)) {
			t.Errorf("ψ(%v+1)-ψ(%v) = %.17g, want %.17g", x, x, d, 1/x)
		}
	}
}

func TestDigammaSpecial(t *testing.T) {
	for _, x := range []float64{0, -1, -7, math.NaN(), math.Inf(-1)} {
		if got := digamma(x); !math.IsNaN(got) {
			t.Errorf("digamma(%v) = %v, want NaN", x, got)
		}
	}
	if got := digamma(math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("digamma(+Inf) = %v, want +Inf", got)
	}
}

package judging

import "math"

// digamma returns ψ(x) = d/dx ln Γ(x), accurate to about 1e-14 for x > 0.
//
// For x < 10 it uses the recurrence ψ(x) = ψ(x+1) - 1/x to reach x >= 10,
// then the asymptotic series
//
//	ψ(x) ≈ ln x - 1/(2x) - Σ B₂ₙ/(2n x²ⁿ), n = 1..7,
//
// whose first omitted term is below 5e-17 at x = 10. Negative non-integers
// use the reflection ψ(x) = ψ(1-x) - π/tan(πx). It returns NaN at the poles
// (0 and negative integers) and for NaN, and +Inf for +Inf.
func digamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x <= 0:
		if x == math.Floor(x) {
			return math.NaN()
		}
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*x)
	}
	var acc float64
	for x < 10 {
		acc -= 1 / x
		x++
	}
	inv := 1 / x
	inv2 := inv * inv
	// Bernoulli terms B₂ₙ/(2n): 1/12, -1/120, 1/252, -1/240, 1/132,
	// -691/32760, 1/12, evaluated in Horner form in 1/x².
	series := inv2 * (1.0/12 - inv2*(1.0/120-inv2*(1.0/252-inv2*(1.0/240-inv2*(1.0/132-inv2*(691.0/32760-inv2/12))))))
	return acc + math.Log(x) - 0.5*inv - series
}

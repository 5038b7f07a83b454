package waterfall

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// randomQ returns a random rational and the same as a big.Rat, with
// magnitudes from tiny to far beyond int64, so that both the small path and
// the big.Rat fallback (and the way back) are exercised.
func randomQ(rng *rand.Rand) (q, *big.Rat) {
	bounds := []int64{3, 1000, 1 << 31, math.MaxInt64}
	n := rng.Int64N(bounds[rng.IntN(4)]) - rng.Int64N(bounds[rng.IntN(4)])
	dn := 1 + rng.Int64N(bounds[rng.IntN(4)]-1)
	r := big.NewRat(n, dn)
	if rng.IntN(4) == 0 {
		r.Mul(r, big.NewRat(math.MaxInt64, 3))
	}
	return qRat(new(big.Rat).Set(r)), r
}

func TestRationalMatchesBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 20000 {
		x, xr := randomQ(rng)
		y, yr := randomQ(rng)
		check := func(op string, got q, want *big.Rat) {
			if got.rat().Cmp(want) != 0 {
				t.Fatalf("%s %s %s = %s, want %s", xr.RatString(), op, yr.RatString(), got.rat().RatString(), want.RatString())
			}
			if got.r == nil && got.d != 0 && (got.d < 0 || gcd(abs(got.n), uint64(got.d)) != 1) {
				t.Fatalf("%s not in lowest terms: %d/%d", op, got.n, got.d)
			}
			if got.r != nil && got.r.Num().IsInt64() && got.r.Denom().IsInt64() && got.r.Num().Int64() != math.MinInt64 {
				t.Fatalf("%s kept a big.Rat that fits: %s", op, got.r.RatString())
			}
		}
		check("+", x.add(y), new(big.Rat).Add(xr, yr))
		check("-", x.sub(y), new(big.Rat).Sub(xr, yr))
		check("*", x.mul(y), new(big.Rat).Mul(xr, yr))
		if yr.Sign() != 0 {
			check("/", x.quo(y), new(big.Rat).Quo(xr, yr))
		}
		if x.cmp(y) != xr.Cmp(yr) || x.sign() != xr.Sign() {
			t.Fatalf("cmp/sign %s %s", xr.RatString(), yr.RatString())
		}
	}
}

package waterfall

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/strata-platform/strata/domain/captable/num"
)

// q is an exact rational number used inside the waterfall, where big.Rat's
// allocations would dominate: n/d in lowest terms (d > 0) while both fit in
// an int64, else r. Every operation is exact: one that would overflow is
// done with big.Rat, and a big result that fits again becomes small. The
// zero value is 0; a q is never changed once built.
type q struct {
	n, d int64    // d == 0 only in the zero value
	r    *big.Rat // non-nil: the value, which does not fit n/d
}

func qInt(i int64) q {
	if i == 0 {
		return q{}
	}
	return q{n: i, d: 1}
}

// qRat returns r as a q; r may be kept, so the caller must not change it.
func qRat(r *big.Rat) q {
	n, d := r.Num(), r.Denom()
	if n.IsInt64() && d.IsInt64() && n.Int64() != math.MinInt64 {
		return small(n.Int64(), d.Int64())
	}
	return q{r: r}
}

// qNum returns n as a q.
func qNum(n num.Num) q { return qRat(n.Rat()) }

// small returns n/d already in lowest terms with d > 0.
func small(n, d int64) q {
	if n == 0 {
		return q{}
	}
	return q{n: n, d: d}
}

// rat returns x as a big.Rat the caller must not change.
func (x q) rat() *big.Rat {
	switch {
	case x.r != nil:
		return x.r
	case x.d == 0:
		return new(big.Rat)
	}
	r := new(big.Rat).SetInt64(x.d) // n/d is in lowest terms: set the parts, skip the gcd
	r.Denom().Set(r.Num())
	r.Num().SetInt64(x.n)
	return r
}

// num returns x as a Num.
func (x q) num() num.Num {
	switch {
	case x.isZero():
		return num.Zero
	case x.r == nil && x.d == 1:
		return num.Int(x.n)
	}
	return num.FromRat(x.rat())
}

func (x q) isZero() bool { return x.r == nil && x.n == 0 }

func (x q) sign() int {
	if x.r != nil {
		return x.r.Sign()
	}
	switch {
	case x.n < 0:
		return -1
	case x.n > 0:
		return 1
	}
	return 0
}

func (x q) neg() q {
	if x.r != nil {
		return q{r: new(big.Rat).Neg(x.r)}
	}
	return q{n: -x.n, d: x.d}
}

func (x q) add(y q) q {
	if x.isZero() {
		return y
	}
	if y.isZero() {
		return x
	}
	if x.r == nil && y.r == nil {
		if x.d == y.d { // common: whole numbers, or amounts over one price
			if n, ok := add64(x.n, y.n); ok {
				if x.d == 1 {
					return small(n, 1)
				}
				return reduce(n, x.d)
			}
		}
		g := gcd(uint64(x.d), uint64(y.d))
		xd, yd := x.d/int64(g), y.d/int64(g)
		a, ok1 := mul64(x.n, yd)
		b, ok2 := mul64(y.n, xd)
		d, ok3 := mul64(x.d, yd)
		n, ok4 := add64(a, b)
		if ok1 && ok2 && ok3 && ok4 {
			return reduce(n, d)
		}
	}
	return qRat(new(big.Rat).Add(x.rat(), y.rat()))
}

func (x q) sub(y q) q { return x.add(y.neg()) }

func (x q) mul(y q) q {
	if x.isZero() || y.isZero() {
		return q{}
	}
	if x.r == nil && y.r == nil {
		if x.d == 1 && y.d == 1 {
			if n, ok := mul64(x.n, y.n); ok {
				return q{n: n, d: 1}
			}
		}
		g1, g2 := int64(gcd(abs(x.n), uint64(y.d))), int64(gcd(abs(y.n), uint64(x.d)))
		n, ok1 := mul64(x.n/g1, y.n/g2)
		d, ok2 := mul64(x.d/g2, y.d/g1)
		if ok1 && ok2 {
			return small(n, d)
		}
	}
	return qRat(new(big.Rat).Mul(x.rat(), y.rat()))
}

// quo returns x/y; y must not be 0.
func (x q) quo(y q) q {
	if y.r != nil {
		return qRat(new(big.Rat).Quo(x.rat(), y.r))
	}
	if y.n < 0 {
		return x.mul(q{n: -y.d, d: -y.n})
	}
	return x.mul(q{n: y.d, d: y.n})
}

func (x q) cmp(y q) int {
	if x.r != nil || y.r != nil {
		return x.rat().Cmp(y.rat())
	}
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return cmpInt(sx, sy)
	}
	h1, l1 := bits.Mul64(abs(x.n), uint64(y.d))
	h2, l2 := bits.Mul64(abs(y.n), uint64(x.d))
	c := cmpU(h1, h2)
	if c == 0 {
		c = cmpU(l1, l2)
	}
	return c * sx
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (x q) equal(y q) bool { return x.cmp(y) == 0 }

func abs(n int64) uint64 {
	if n < 0 {
		return uint64(-n)
	}
	return uint64(n)
}

// mul64 returns a*b and whether it fits (MinInt64 is refused).
func mul64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(abs(a), abs(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

// add64 returns a+b and whether it fits (MinInt64 is refused).
func add64(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) || s == math.MinInt64 {
		return 0, false
	}
	return s, true
}

// reduce returns n/d (d > 0) in lowest terms.
func reduce(n, d int64) q {
	if n == 0 {
		return q{}
	}
	if d == 1 {
		return q{n: n, d: 1}
	}
	g := int64(gcd(abs(n), uint64(d)))
	return q{n: n / g, d: d / g}
}

// gcd is the binary greatest common divisor; gcd(0, b) = b.
func gcd(a, b uint64) uint64 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << shift
}

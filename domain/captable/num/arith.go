package num

import (
	"math"
	"math/big"
)

// Arithmetic: two whole int64 operands take the fast path when the result
// is exact in an int64 too; anything else (fractions, overflow) is done
// with big.Rat and brought back to the fast form when it is whole again.

// rat returns a's value as a big.Rat the caller must not change.
func (a Num) rat() *big.Rat {
	if a.r == nil {
		return new(big.Rat).SetInt64(a.i)
	}
	return a.r
}

// Rat returns a copy of a as a big.Rat.
func (a Num) Rat() *big.Rat {
	if a.r == nil {
		return new(big.Rat).SetInt64(a.i)
	}
	return new(big.Rat).Set(a.r)
}

// Add returns a+b.
func (a Num) Add(b Num) Num {
	if a.r == nil && b.r == nil {
		if s := a.i + b.i; (a.i^s)&(b.i^s) >= 0 { // no overflow: s has the sign of a or of b
			return Num{i: s}
		}
	}
	return fromRat(new(big.Rat).Add(a.rat(), b.rat()))
}

// Sub returns a-b.
func (a Num) Sub(b Num) Num {
	if a.r == nil && b.r == nil {
		if d := a.i - b.i; (a.i^b.i)&(a.i^d) >= 0 { // no overflow
			return Num{i: d}
		}
	}
	return fromRat(new(big.Rat).Sub(a.rat(), b.rat()))
}

// Mul returns a*b.
func (a Num) Mul(b Num) Num {
	if a.r == nil && b.r == nil {
		if p, ok := mul64(a.i, b.i); ok {
			return Num{i: p}
		}
	}
	return fromRat(new(big.Rat).Mul(a.rat(), b.rat()))
}

// mul64 returns x*y and whether it did not overflow.
func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	p := x * y
	if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// Div returns a/b exactly. It panics when b is 0: callers check first.
func (a Num) Div(b Num) Num {
	if b.IsZero() {
		panic("num: division by zero")
	}
	if a.r == nil && b.r == nil && a.i%b.i == 0 && (a.i != math.MinInt64 || b.i != -1) {
		return Num{i: a.i / b.i}
	}
	return fromRat(new(big.Rat).Quo(a.rat(), b.rat()))
}

// Neg returns -a.
func (a Num) Neg() Num {
	if a.r == nil && a.i != math.MinInt64 {
		return Num{i: -a.i}
	}
	return fromRat(new(big.Rat).Neg(a.rat()))
}

// Abs returns |a|.
func (a Num) Abs() Num {
	if a.Sign() >= 0 {
		return a
	}
	return a.Neg()
}

// Cmp compares a and b: -1, 0 or +1.
func (a Num) Cmp(b Num) int {
	if a.r == nil && b.r == nil {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	return a.rat().Cmp(b.rat())
}

// Equal reports a == b.
func (a Num) Equal(b Num) bool { return a.Cmp(b) == 0 }

// Less reports a < b.
func (a Num) Less(b Num) bool { return a.Cmp(b) < 0 }

// Sign returns -1, 0 or +1.
func (a Num) Sign() int {
	if a.r != nil {
		return a.r.Sign()
	}
	switch {
	case a.i < 0:
		return -1
	case a.i > 0:
		return 1
	}
	return 0
}

// IsZero reports a == 0.
func (a Num) IsZero() bool { return a.Sign() == 0 }

// IsInt reports whether a is a whole number.
func (a Num) IsInt() bool { return a.r == nil || a.r.IsInt() }

// Min returns the smaller of a and b.
func Min(a, b Num) Num {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// Max returns the larger of a and b.
func Max(a, b Num) Num {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// Sum returns the sum of ns (0 for none).
func Sum(ns ...Num) Num {
	s := Zero
	for _, n := range ns {
		s = s.Add(n)
	}
	return s
}

// Floor returns the largest whole number <= a (toward minus infinity).
func (a Num) Floor() Num {
	if a.r == nil {
		return a
	}
	q, m := new(big.Int).QuoRem(a.r.Num(), a.r.Denom(), new(big.Int))
	if m.Sign() < 0 {
		q.Sub(q, bigOne)
	}
	return fromRat(new(big.Rat).SetInt(q))
}

// Ceil returns the smallest whole number >= a.
func (a Num) Ceil() Num { return a.Neg().Floor().Neg() }

// Int64 returns a's whole part (truncated toward zero) and whether it fits.
func (a Num) Int64() (int64, bool) {
	if a.r == nil {
		return a.i, true
	}
	q := new(big.Int).Quo(a.r.Num(), a.r.Denom())
	return q.Int64(), q.IsInt64()
}

// scale returns 10^places as a Num (1 for places <= 0).
func scale(places int) Num {
	return fromRat(new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(places)), nil)))
}

// RoundDown returns a truncated toward minus infinity at places decimals.
func (a Num) RoundDown(places int) Num {
	if a.r == nil {
		return a
	}
	s := scale(places)
	return a.Mul(s).Floor().Div(s)
}

// Round returns a rounded at places decimals, halves away from zero (the
// rule used for money and prices shown to people).
func (a Num) Round(places int) Num {
	if a.r == nil {
		return a
	}
	s := scale(places)
	x := a.Abs().Mul(s).Add(Ratio(1, 2)).Floor().Div(s)
	if a.Sign() < 0 {
		return x.Neg()
	}
	return x
}

// Package num is the cap table's number: an exact rational, immutable, that
// never rounds unless asked to. Share counts, prices, money and fractions are
// all Nums; float64 never appears in a cap-table calculation.
//
// Why not a decimal library: every cap-table calculation is rational (sums,
// products and quotients, no roots), and the round model divides by share
// counts that themselves depend on the price. A decimal type rounds every
// quotient to a fixed precision; math/big.Rat keeps quotients exact, so a
// figure is rounded once, at the end, by the rule its caller names.
package num

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
)

// Num is an exact rational number. The zero value is 0. Nums are immutable:
// every operation returns a new Num and never changes its operands.
type Num struct{ r *big.Rat }

var (
	bigOne = big.NewInt(1)
	bigTen = big.NewInt(10)
)

// Zero is 0.
var Zero = Num{}

// Int returns i as a Num.
func Int(i int64) Num { return Num{new(big.Rat).SetInt64(i)} }

// Ratio returns a/b; b must not be 0.
func Ratio(a, b int64) Num {
	if b == 0 {
		panic("num: Ratio with zero denominator")
	}
	return Num{big.NewRat(a, b)}
}

// FromRat returns a copy of r as a Num.
func FromRat(r *big.Rat) Num { return Num{new(big.Rat).Set(r)} }

// ErrSyntax is returned by Parse for text that is not a plain decimal.
var ErrSyntax = errors.New("not a decimal number")

// maxDigits bounds the length of a parsed number, so that input cannot make
// arithmetic arbitrarily expensive.
const maxDigits = 40

// Parse reads a plain decimal: an optional minus sign, digits, and an
// optional fraction ("1200", "-0.5", "1.114437"). Exponents, fractions
// written "a/b", leading "+", and more than 40 digits are refused.
func Parse(s string) (Num, error) {
	t := strings.TrimPrefix(s, "-")
	intPart, frac, hasDot := strings.Cut(t, ".")
	if len(intPart)+len(frac) > maxDigits || intPart == "" || (hasDot && frac == "") || !digits(intPart) || !digits(frac) {
		return Num{}, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Num{}, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	return Num{r}, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MustParse is Parse for constants in code and tests; it panics on bad text.
func MustParse(s string) Num {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return n
}

func (a Num) rat() *big.Rat {
	if a.r == nil {
		return new(big.Rat)
	}
	return a.r
}

// Rat returns a copy of a as a big.Rat.
func (a Num) Rat() *big.Rat { return new(big.Rat).Set(a.rat()) }

// Add returns a+b.
func (a Num) Add(b Num) Num { return Num{new(big.Rat).Add(a.rat(), b.rat())} }

// Sub returns a-b.
func (a Num) Sub(b Num) Num { return Num{new(big.Rat).Sub(a.rat(), b.rat())} }

// Mul returns a*b.
func (a Num) Mul(b Num) Num { return Num{new(big.Rat).Mul(a.rat(), b.rat())} }

// Div returns a/b exactly. It panics when b is 0: callers check first.
func (a Num) Div(b Num) Num {
	if b.IsZero() {
		panic("num: division by zero")
	}
	return Num{new(big.Rat).Quo(a.rat(), b.rat())}
}

// Neg returns -a.
func (a Num) Neg() Num { return Num{new(big.Rat).Neg(a.rat())} }

// Abs returns |a|.
func (a Num) Abs() Num { return Num{new(big.Rat).Abs(a.rat())} }

// Cmp compares a and b: -1, 0 or +1.
func (a Num) Cmp(b Num) int { return a.rat().Cmp(b.rat()) }

// Equal reports a == b.
func (a Num) Equal(b Num) bool { return a.Cmp(b) == 0 }

// Less reports a < b.
func (a Num) Less(b Num) bool { return a.Cmp(b) < 0 }

// Sign returns -1, 0 or +1.
func (a Num) Sign() int { return a.rat().Sign() }

// IsZero reports a == 0.
func (a Num) IsZero() bool { return a.Sign() == 0 }

// IsInt reports whether a is a whole number.
func (a Num) IsInt() bool { return a.rat().IsInt() }

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
	s := new(big.Rat)
	for _, n := range ns {
		s.Add(s, n.rat())
	}
	return Num{s}
}

// Floor returns the largest whole number <= a (toward minus infinity).
func (a Num) Floor() Num {
	r := a.rat()
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() < 0 {
		q.Sub(q, bigOne)
	}
	return Num{new(big.Rat).SetInt(q)}
}

// Ceil returns the smallest whole number >= a.
func (a Num) Ceil() Num { return a.Neg().Floor().Neg() }

// Int64 returns a's whole part (truncated toward zero) and whether it fits.
func (a Num) Int64() (int64, bool) {
	r := a.rat()
	q := new(big.Int).Quo(r.Num(), r.Denom())
	return q.Int64(), q.IsInt64()
}

// scale returns 10^places.
func scale(places int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(places)), nil)
}

// RoundDown returns a truncated toward minus infinity at places decimals.
func (a Num) RoundDown(places int) Num {
	s := new(big.Rat).SetInt(scale(places))
	return Num{new(big.Rat).Mul(a.rat(), s)}.Floor().Div(Num{s})
}

// Round returns a rounded at places decimals, halves away from zero (the
// rule used for money and prices shown to people).
func (a Num) Round(places int) Num {
	s := Num{new(big.Rat).SetInt(scale(places))}
	half := Ratio(1, 2)
	x := a.Abs().Mul(s).Add(half).Floor().Div(s)
	if a.Sign() < 0 {
		return x.Neg()
	}
	return x
}

// terminates reports whether a has a finite decimal expansion and how many
// fraction digits it needs (up to limit).
func (a Num) terminates(limit int) (int, bool) {
	d := new(big.Int).Set(a.rat().Denom())
	for places := 0; places <= limit; places++ {
		if d.Cmp(bigOne) == 0 {
			return places, true
		}
		// Multiply by 10 and reduce by the gcd: the denominator shrinks only
		// by its factors of 2 and 5.
		g := new(big.Int).GCD(nil, nil, d, bigTen)
		if g.Cmp(bigOne) == 0 {
			return 0, false
		}
		d.Quo(d, g)
	}
	return 0, false
}

// MaxPlaces is the number of fraction digits String writes for a number
// whose decimal expansion does not end (or ends later).
const MaxPlaces = 12

// String writes a exactly when its decimal expansion ends within MaxPlaces
// fraction digits, and otherwise rounded (halves away from zero) to MaxPlaces
// digits with trailing zeros dropped. No exponent, no trailing dot.
func (a Num) String() string {
	if places, ok := a.terminates(MaxPlaces); ok {
		return a.rat().FloatString(places)
	}
	s := a.Round(MaxPlaces).rat().FloatString(MaxPlaces)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Fixed writes a rounded (halves away from zero) to exactly places decimals.
func (a Num) Fixed(places int) string { return a.Round(places).rat().FloatString(places) }

// MarshalJSON writes a as a JSON number (String's text, never a float's).
func (a Num) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// JSONType names the JSON form of a Num for error messages: "decimal".
func (Num) JSONType() string { return "decimal" }

// UnmarshalJSON reads a JSON number or a JSON string holding a plain decimal.
// Anything else fails with a *json.UnmarshalTypeError, so that
// encoding/json reports the field it was decoding.
func (a *Num) UnmarshalJSON(b []byte) error {
	s := string(b)
	quoted := len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"'
	if quoted {
		s = s[1 : len(s)-1]
	}
	n, err := Parse(s)
	// JSON numbers may carry an exponent; accept it only when the value is
	// still of bounded size.
	if err != nil && !quoted && strings.ContainsAny(s, "eE") {
		if r, ok := new(big.Rat).SetString(s); ok && len(r.Num().String())+len(r.Denom().String()) <= 2*maxDigits {
			n, err = Num{r}, nil
		}
	}
	if err != nil {
		return &json.UnmarshalTypeError{Value: "value " + truncate(string(b)), Type: reflect.TypeOf(Num{})}
	}
	*a = n
	return nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

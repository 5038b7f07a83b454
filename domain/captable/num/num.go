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
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// Num is an exact rational number. The zero value is 0. Nums are immutable:
// every operation returns a new Num and never changes its operands.
//
// A whole number that fits in an int64 (share counts, most amounts) is kept
// in i with r nil, so that sums and comparisons of them do not allocate;
// any other value is kept in r. Every constructor and operation returns
// that form (see fromRat), so a value has exactly one representation.
type Num struct {
	r *big.Rat // nil: the value is i
	i int64
}

var (
	bigOne = big.NewInt(1)
	bigTen = big.NewInt(10)
)

// Zero is 0.
var Zero = Num{}

// Int returns i as a Num.
func Int(i int64) Num { return Num{i: i} }

// Ratio returns a/b; b must not be 0.
func Ratio(a, b int64) Num {
	if b == 0 {
		panic("num: Ratio with zero denominator")
	}
	if a%b == 0 && (a != math.MinInt64 || b != -1) {
		return Num{i: a / b}
	}
	return fromRat(big.NewRat(a, b))
}

// FromRat returns a copy of r as a Num.
func FromRat(r *big.Rat) Num { return fromRat(new(big.Rat).Set(r)) }

// fromRat returns r as a Num, keeping r (the caller must not change it
// afterwards): a whole number that fits in an int64 becomes the fast form.
func fromRat(r *big.Rat) Num {
	if r.IsInt() && r.Num().IsInt64() {
		return Num{i: r.Num().Int64()}
	}
	return Num{r: r}
}

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
	if frac = strings.TrimRight(frac, "0"); len(intPart)+len(frac) <= 18 { // at most 18 digits always fit an int64
		i, err := strconv.ParseInt(intPart+frac, 10, 64)
		if err != nil {
			return Num{}, fmt.Errorf("%q: %w", s, ErrSyntax)
		}
		if t != s {
			i = -i
		}
		if frac == "" {
			return Num{i: i}, nil
		}
		return fromRat(new(big.Rat).SetFrac64(i, pow10[len(frac)])), nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Num{}, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	return fromRat(r), nil
}

// pow10[k] is 10^k.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] * 10
	}
	return p
}()

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

// terminates reports whether a has a finite decimal expansion and how many
// fraction digits it needs (up to limit).
func (a Num) terminates(limit int) (int, bool) {
	if a.r == nil {
		return 0, true
	}
	d := new(big.Int).Set(a.r.Denom())
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
	if a.r == nil {
		return strconv.FormatInt(a.i, 10)
	}
	if places, ok := a.terminates(MaxPlaces); ok {
		return a.rat().FloatString(places)
	}
	s := a.Round(MaxPlaces).rat().FloatString(MaxPlaces)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Fixed writes a rounded (halves away from zero) to exactly places decimals.
func (a Num) Fixed(places int) string {
	if a.r == nil {
		s := strconv.FormatInt(a.i, 10)
		if places > 0 {
			s += "." + strings.Repeat("0", places)
		}
		return s
	}
	return a.Round(places).rat().FloatString(places)
}

// MarshalJSON writes a as a JSON number (String's text, never a float's).
func (a Num) MarshalJSON() ([]byte, error) {
	if a.r == nil {
		return strconv.AppendInt(nil, a.i, 10), nil
	}
	return []byte(a.String()), nil
}

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
			n, err = fromRat(r), nil
		}
	}
	if err != nil {
		return &json.UnmarshalTypeError{Value: "value " + truncate(string(b)), Type: reflect.TypeOf(Num{})}
	}
	if _, ok := n.terminates(MaxPlaces); !ok {
		// More precision than is kept would be rounded silently: refuse it.
		return &json.UnmarshalTypeError{Value: "number " + truncate(string(b)), Type: reflect.TypeOf(TooPrecise{})}
	}
	*a = n
	return nil
}

// TooPrecise is the type named when a decimal has more than MaxPlaces
// fraction digits: its JSONRule tells the decoder the rule and the limit.
type TooPrecise struct{}

// JSONRule names the rule a too precise decimal breaks.
func (TooPrecise) JSONRule() (rule, message string) {
	return "max_places:" + strconv.Itoa(MaxPlaces), "must have at most " + strconv.Itoa(MaxPlaces) + " decimal places (more would be rounded)"
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

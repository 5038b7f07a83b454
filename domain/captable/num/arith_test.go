package num

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestFastPathAgreesWithBigRat checks every operation on whole numbers
// near the int64 bounds (where the fast path overflows into big.Rat) and
// on fractions against big.Rat, and that every result is in its one
// representation: a whole int64 in the fast form, anything else in r.
func TestFastPathAgreesWithBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	edge := []int64{0, 1, -1, 2, -2, 3, 7, -7, 1 << 31, -(1 << 31), 1<<62 + 5, -(1 << 62), math.MaxInt64, math.MinInt64,
		math.MaxInt64 - 1, math.MinInt64 + 1, 3037000499, -3037000500}
	var vals []Num
	for _, e := range edge {
		vals = append(vals, Int(e))
	}
	for range 40 {
		vals = append(vals, Int(rng.Int64()>>rng.IntN(63)*int64(1-2*rng.IntN(2))))
	}
	vals = append(vals, Ratio(1, 3), Ratio(-7, 2), MustParse("12345678901234567890123"), MustParse("-99999999999999999999.5"))
	for _, a := range vals {
		for _, b := range vals {
			ra, rb := a.Rat(), b.Rat()
			check := func(op string, got Num, want *big.Rat) {
				t.Helper()
				canonical(t, got)
				if got.Rat().Cmp(want) != 0 {
					t.Fatalf("%s %s %s = %s, want %s", a, op, b, got.Rat().RatString(), want.RatString())
				}
			}
			check("+", a.Add(b), new(big.Rat).Add(ra, rb))
			check("-", a.Sub(b), new(big.Rat).Sub(ra, rb))
			check("*", a.Mul(b), new(big.Rat).Mul(ra, rb))
			if !b.IsZero() {
				check("/", a.Div(b), new(big.Rat).Quo(ra, rb))
			}
			if got, want := a.Cmp(b), ra.Cmp(rb); got != want {
				t.Fatalf("Cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
		canonical(t, a.Neg())
		canonical(t, a.Abs())
		if a.Neg().Rat().Cmp(new(big.Rat).Neg(a.Rat())) != 0 || a.Abs().Rat().Cmp(new(big.Rat).Abs(a.Rat())) != 0 {
			t.Fatalf("Neg or Abs of %s", a)
		}
		if a.String() != FromRat(a.Rat()).String() || a.Sign() != a.Rat().Sign() {
			t.Fatalf("String or Sign of %s", a)
		}
	}
}

// canonical fails unless n is in its one representation.
func canonical(t *testing.T, n Num) {
	t.Helper()
	if n.r != nil && n.r.IsInt() && n.r.Num().IsInt64() {
		t.Fatalf("%s is a whole int64 kept as a big.Rat", n)
	}
	if n.r == nil && n.i == 0 && n != Zero {
		t.Fatalf("zero is not the zero value")
	}
}

func TestParseWholeNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"0", 0}, {"-0", 0}, {"-0.000", 0}, {"42.00", 42}, {"-17", -17}, {"007", 7},
		{"999999999999999999", 999999999999999999}, {"9223372036854775807", math.MaxInt64}, {"-9223372036854775808", math.MinInt64}} {
		n := MustParse(tc.in)
		canonical(t, n)
		if v, ok := n.Int64(); !ok || v != tc.want || !n.IsInt() {
			t.Errorf("Parse(%q) = %s, want %d", tc.in, n, tc.want)
		}
	}
	big := MustParse("9223372036854775808")
	if big.r == nil || big.String() != "9223372036854775808" {
		t.Errorf("2^63 = %s", big)
	}
	if got := Int(-5).Fixed(2); got != "-5.00" {
		t.Errorf("Fixed = %s", got)
	}
	if got := Int(12).Round(2).String() + Int(12).RoundDown(-1).String(); got != "1212" {
		t.Errorf("Round of a whole number = %s", got)
	}
}

func BenchmarkSumOfWholeNumbers(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := Zero
		for i := range int64(1000) {
			s = s.Add(Int(i)).Sub(Int(i / 2))
		}
		_ = s
	}
}

// TestParseDecimalsAgreesWithBigRat checks the short-decimal path of
// Parse against big.Rat's SetString.
func TestParseDecimalsAgreesWithBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []string{"0.5", "-0.5", "007.50", "1.114437", "0.000000000000000001", "123456789.123456789",
		"99999999999999999.9", "999999999999999999.9", "-1234567890123456789.25", "1.10", "-3.000"} {
		parseAgrees(t, s)
	}
	for range 2000 {
		s := fmt.Sprintf("%d.%0*d", rng.Int64N(1_000_000_000_000), 1+rng.IntN(12), rng.Int64N(1_000_000))
		if rng.IntN(2) == 0 {
			s = "-" + s
		}
		parseAgrees(t, s)
	}
}

func parseAgrees(t *testing.T, s string) {
	t.Helper()
	n, err := Parse(s)
	want, _ := new(big.Rat).SetString(s)
	if err != nil || n.Rat().Cmp(want) != 0 {
		t.Fatalf("Parse(%q) = %v, %v; want %s", s, n, err, want.RatString())
	}
	canonical(t, n)
}

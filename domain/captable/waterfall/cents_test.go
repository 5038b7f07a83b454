package waterfall

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

func TestRoundCents(t *testing.T) {
	third := num.Ratio(1, 3)
	cases := []struct {
		name     string
		in, want []string
	}{
		{"empty", nil, nil},
		{"thirds: the tie goes to the earliest", []string{"1/3", "1/3", "1/3"}, []string{"0.34", "0.33", "0.33"}},
		{"largest remainder wins", []string{"1.004", "2.006", "3.001"}, []string{"1.00", "2.01", "3.00"}},
		{"halves", []string{"1.005", "2.005"}, []string{"1.01", "2.00"}},
		{"exact amounts stay", []string{"10", "0.25"}, []string{"10.00", "0.25"}},
		{"negative", []string{"-1.005", "-1.005"}, []string{"-1.00", "-1.01"}},
	}
	parse := func(s string) num.Num {
		if s == "1/3" {
			return third
		}
		return d(s)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := make([]num.Num, len(tc.in))
			for i, s := range tc.in {
				in[i] = parse(s)
			}
			got := RoundCents(in)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v", got)
			}
			for i := range got {
				if !got[i].Equal(d(tc.want[i])) {
					t.Errorf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestRoundCentsSumsToRoundedTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 300 {
		n := rng.IntN(12)
		in := make([]num.Num, n)
		for i := range in {
			in[i] = num.Ratio(rng.Int64N(10_000_000)-1_000_000, rng.Int64N(997)+1)
		}
		got := RoundCents(in)
		sum, rounded := num.Sum(in...), num.Sum(got...)
		if !rounded.Equal(sum.Round(2)) {
			t.Fatalf("%v rounds to %v: sum %s, want %s", in, got, rounded, sum.Round(2))
		}
		for i := range got {
			if !got[i].Round(2).Equal(got[i]) || !got[i].Sub(in[i]).Abs().Less(num.Ratio(1, 100)) {
				t.Fatalf("%s rounded to %s", in[i], got[i])
			}
		}
	}
}

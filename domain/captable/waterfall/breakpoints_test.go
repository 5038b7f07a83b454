package waterfall

import (
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

func TestBreakpointsExamples(t *testing.T) {
	options := []Award{{ID: "opt", HolderID: "employee", Quantity: d("2000000"), Strike: d("1.00")}}
	cases := []struct {
		name   string
		in     Input
		max    string
		points []Breakpoint
	}{
		{name: "non-participating 1x", in: Input{Classes: []Class{common8M(), seriesA()}}, max: "100000000",
			points: []Breakpoint{
				{ExitValue: d("5000000"), Event: "Series A preference paid in full", ClassID: "a"},
				{ExitValue: d("25000000"), Event: "Series A converts to common", ClassID: "a"},
			}},
		{name: "participating capped at 3x", in: Input{Classes: []Class{common8M(), participating("3")}}, max: "100000000",
			points: []Breakpoint{
				{ExitValue: d("5000000"), Event: "Series A preference paid in full", ClassID: "a"},
				{ExitValue: d("55000000"), Event: "Series A reaches its 3x participation cap", ClassID: "a"},
				{ExitValue: d("75000000"), Event: "Series A converts to common", ClassID: "a"},
			}},
		{name: "maxExit on a breakpoint includes it", in: Input{Classes: []Class{common8M(), participating("3")}}, max: "55000000",
			points: []Breakpoint{
				{ExitValue: d("5000000"), Event: "Series A preference paid in full", ClassID: "a"},
				{ExitValue: d("55000000"), Event: "Series A reaches its 3x participation cap", ClassID: "a"},
			}},
		{name: "participating uncapped never converts", in: Input{Classes: []Class{common8M(), participating("0")}}, max: "1000000000",
			points: []Breakpoint{
				{ExitValue: d("5000000"), Event: "Series A preference paid in full", ClassID: "a"},
			}},
		{name: "costs, debt and options", max: "100000000",
			in: Input{ExitValue: d("-1"), TransactionCosts: d("500000"), Debt: d("1500000"),
				Classes: []Class{common8M()}, Awards: options},
			points: []Breakpoint{
				{ExitValue: d("500000"), Event: "transaction costs paid in full"},
				{ExitValue: d("2000000"), Event: "debt repaid in full"},
				{ExitValue: d("10000000"), Event: "awards at strike 1.00 exercise"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Breakpoints(tc.in, d(tc.max))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.points) {
				t.Fatalf("got %v, want %v", got, tc.points)
			}
			for k, b := range got {
				w := tc.points[k]
				if !b.ExitValue.Equal(w.ExitValue) || b.Event != w.Event || b.ClassID != w.ClassID {
					t.Errorf("breakpoint %d: %v, want %v", k, b, w)
				}
			}
		})
	}
}

// TestBreakpointsAreExactAndDescribed checks the sample table: ascending,
// within (0, maxExit], every one a real kink of some payout, and the
// indifference points exact.
func TestBreakpointsAreExactAndDescribed(t *testing.T) {
	maxExit := d("500000000")
	bps, err := Breakpoints(Sample10(num.Zero), maxExit)
	if err != nil {
		t.Fatal(err)
	}
	if len(bps) < 10 {
		t.Fatalf("only %d breakpoints: %v", len(bps), bps)
	}
	for k, b := range bps {
		if b.ExitValue.Sign() <= 0 || maxExit.Less(b.ExitValue) || (k > 0 && b.ExitValue.Less(bps[k-1].ExitValue)) {
			t.Errorf("breakpoint %d out of order or range: %v", k, b)
		}
		if b.Event == "" || b.Event == "payouts change slope" {
			t.Errorf("breakpoint %d not described: %v", k, b)
		}
		if k > 0 && b.ExitValue.Equal(bps[k-1].ExitValue) && b.Event == bps[k-1].Event && b.ClassID == bps[k-1].ClassID {
			t.Errorf("breakpoint %d duplicated: %v", k, b)
		}
	}
	// Series C (2,000,000 shares at 5.00, 2.5x cap = $25M, conversion ratio
	// 1.1) converts where 2,200,000 as-converted shares are worth exactly $25M.
	found := false
	for _, b := range bps {
		if b.ClassID == "c" && b.Event == "Series C converts to common" {
			found = true
			r, err := Run(withExit(Sample10(num.Zero), b.ExitValue))
			if err != nil {
				t.Fatal(err)
			}
			if !r.PerCommonShare.Mul(d("2200000")).Equal(d("25000000")) {
				t.Errorf("at %s Series C's as-converted value is %s, not exactly its cap",
					b.ExitValue, r.PerCommonShare.Mul(d("2200000")))
			}
		}
	}
	if !found {
		t.Errorf("Series C never converts: %v", bps)
	}
}

func withExit(in Input, e num.Num) Input {
	in.ExitValue = e
	return in
}

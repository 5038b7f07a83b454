package waterfall

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// d parses a decimal constant.
func d(s string) num.Num { return num.MustParse(s) }

func common8M() Class {
	return Class{ID: "common", Name: "Common", Shares: d("8000000"),
		Holders: []Holding{{HolderID: "founder", Shares: d("8000000")}}}
}

// seriesA is 2,000,000 preferred shares at 2.50 ($5M invested), 1x.
func seriesA() Class {
	return Class{ID: "a", Name: "Series A", Preferred: true, Shares: d("2000000"), IssuePrice: d("2.5"),
		PreferenceMultiple: d("1"), Seniority: 1, Holders: []Holding{{HolderID: "fund-a", Shares: d("2000000")}}}
}

func participating(capMultiple string) Class {
	a := seriesA()
	a.Participating, a.ParticipationCap = true, d(capMultiple)
	return a
}

type want struct {
	id        string
	total     string
	converted bool
	capped    bool
}

func TestExamples(t *testing.T) {
	b := Class{ID: "b", Name: "Series B", Preferred: true, Shares: d("1000000"), IssuePrice: d("5"),
		PreferenceMultiple: d("1"), Seniority: 1}
	juniorA := seriesA()
	juniorA.Seniority = 2
	pariB := Class{ID: "b", Name: "Series B", Preferred: true, Shares: d("1000000"), IssuePrice: d("3"),
		PreferenceMultiple: d("1"), Seniority: 1}
	options := []Award{{ID: "opt", HolderID: "employee", Quantity: d("2000000"), Strike: d("1.00")}}
	cases := []struct {
		name        string
		in          Input
		costs, debt string
		classes     []want
		awardNet    string // the first award's net, when there are awards
	}{
		{name: "non-participating 1x at 10M keeps the preference",
			in:      Input{ExitValue: d("10000000"), Classes: []Class{common8M(), seriesA()}},
			classes: []want{{id: "common", total: "5000000"}, {id: "a", total: "5000000"}}},
		{name: "non-participating 1x at 25M is indifferent and keeps the preference",
			in:      Input{ExitValue: d("25000000"), Classes: []Class{common8M(), seriesA()}},
			classes: []want{{id: "common", total: "20000000"}, {id: "a", total: "5000000"}}},
		{name: "non-participating 1x at 50M converts",
			in:      Input{ExitValue: d("50000000"), Classes: []Class{common8M(), seriesA()}},
			classes: []want{{id: "common", total: "40000000"}, {id: "a", total: "10000000", converted: true}}},
		{name: "participating uncapped at 10M",
			in:      Input{ExitValue: d("10000000"), Classes: []Class{common8M(), participating("0")}},
			classes: []want{{id: "common", total: "4000000"}, {id: "a", total: "6000000"}}},
		{name: "capped 3x at 55M reaches the cap",
			in:      Input{ExitValue: d("55000000"), Classes: []Class{common8M(), participating("3")}},
			classes: []want{{id: "common", total: "40000000"}, {id: "a", total: "15000000", capped: true}}},
		{name: "capped 3x at 60M stays at the cap",
			in:      Input{ExitValue: d("60000000"), Classes: []Class{common8M(), participating("3")}},
			classes: []want{{id: "common", total: "45000000"}, {id: "a", total: "15000000", capped: true}}},
		{name: "capped 3x at 75M is indifferent and keeps the cap",
			in:      Input{ExitValue: d("75000000"), Classes: []Class{common8M(), participating("3")}},
			classes: []want{{id: "common", total: "60000000"}, {id: "a", total: "15000000", capped: true}}},
		{name: "capped 3x at 100M converts",
			in:      Input{ExitValue: d("100000000"), Classes: []Class{common8M(), participating("3")}},
			classes: []want{{id: "common", total: "80000000"}, {id: "a", total: "20000000", converted: true}}},
		{name: "senior B paid in full, junior A partly",
			in: Input{ExitValue: d("7000000"), Classes: []Class{common8M(), juniorA, b}},
			classes: []want{{id: "common", total: "0"}, {id: "a", total: "2000000"},
				{id: "b", total: "5000000"}}},
		{name: "pari passu tier split pro rata by claim",
			in: Input{ExitValue: d("4000000"), Classes: []Class{common8M(), seriesA(), pariB}},
			classes: []want{{id: "common", total: "0"}, {id: "a", total: "2500000"},
				{id: "b", total: "1500000"}}},
		{name: "costs and debt take everything",
			in: Input{ExitValue: d("8000000"), TransactionCosts: d("1000000"), Debt: d("10000000"),
				Classes: []Class{common8M(), seriesA()}},
			costs: "1000000", debt: "7000000",
			classes: []want{{id: "common", total: "0"}, {id: "a", total: "0"}}},
		{name: "costs and debt paid, then part of the preference",
			in: Input{ExitValue: d("11500000"), TransactionCosts: d("1000000"), Debt: d("10000000"),
				Classes: []Class{common8M(), seriesA()}},
			costs: "1000000", debt: "10000000",
			classes: []want{{id: "common", total: "0"}, {id: "a", total: "500000"}}},
		{name: "options at strike 1 are not exercised below 1 per share",
			in:      Input{ExitValue: d("5000000"), Classes: []Class{common8M()}, Awards: options},
			classes: []want{{id: "common", total: "5000000"}}, awardNet: "0"},
		{name: "options at strike 1 are indifferent at exactly 1 per share and do not exercise",
			in:      Input{ExitValue: d("8000000"), Classes: []Class{common8M()}, Awards: options},
			classes: []want{{id: "common", total: "8000000"}}, awardNet: "0"},
		{name: "options at strike 1 are exercised above 1 per share",
			in:      Input{ExitValue: d("20000000"), Classes: []Class{common8M()}, Awards: options},
			classes: []want{{id: "common", total: "17600000"}}, awardNet: "2400000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Run(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			checkBalances(t, tc.in, r)
			if !r.TransactionCosts.Equal(d(or0(tc.costs))) || !r.Debt.Equal(d(or0(tc.debt))) {
				t.Errorf("costs %s debt %s, want %s %s", r.TransactionCosts, r.Debt, or0(tc.costs), or0(tc.debt))
			}
			for _, w := range tc.classes {
				c := classByID(t, r, w.id)
				if !c.Total.Equal(d(w.total)) || c.Converted != w.converted || c.CapReached != w.capped {
					t.Errorf("%s: total %s converted %v capped %v, want %s %v %v",
						w.id, c.Total, c.Converted, c.CapReached, w.total, w.converted, w.capped)
				}
			}
			if tc.awardNet != "" {
				a := r.Awards[0]
				if !a.Net.Equal(d(tc.awardNet)) || a.Exercised != (tc.awardNet != "0") {
					t.Errorf("award net %s exercised %v, want %s", a.Net, a.Exercised, tc.awardNet)
				}
			}
		})
	}
}

func or0(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

func classByID(t *testing.T, r Result, id string) ClassPayout {
	t.Helper()
	for _, c := range r.Classes {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no class %q", id)
	return ClassPayout{}
}

// checkBalances checks that the payouts add up to the exit, and the holders
// to the classes and awards they hold.
func checkBalances(t *testing.T, in Input, r Result) {
	t.Helper()
	sum := r.TransactionCosts.Add(r.Debt)
	eq := num.Zero
	for _, c := range r.Classes {
		sum, eq = sum.Add(c.Total), eq.Add(c.Total)
	}
	for _, a := range r.Awards {
		sum, eq = sum.Add(a.Net), eq.Add(a.Net)
		if !a.Gross.Sub(a.StrikePaid).Equal(a.Net) {
			t.Errorf("award %s: gross %s - strike %s != net %s", a.ID, a.Gross, a.StrikePaid, a.Net)
		}
	}
	if !sum.Equal(in.ExitValue) || !eq.Equal(r.Distributed) {
		t.Errorf("payouts sum to %s (distributed %s of %s), want the exit %s", sum, r.Distributed, eq, in.ExitValue)
	}
	held := num.Zero
	for _, c := range in.Classes {
		if len(c.Holders) > 0 {
			held = held.Add(classByID(t, r, c.ID).Total)
		}
	}
	for _, a := range r.Awards {
		held = held.Add(a.Net)
	}
	holders := num.Zero
	for k, h := range r.Holders {
		holders = holders.Add(h.Total)
		if k > 0 && r.Holders[k-1].HolderID >= h.HolderID {
			t.Errorf("holders not sorted: %q then %q", r.Holders[k-1].HolderID, h.HolderID)
		}
		by := num.Zero
		for _, v := range h.ByClass {
			by = by.Add(v)
		}
		if !by.Equal(h.Total) {
			t.Errorf("holder %s: ByClass sums to %s, total %s", h.HolderID, by, h.Total)
		}
	}
	if !holders.Equal(held) {
		t.Errorf("holders hold %s, want %s", holders, held)
	}
}

func TestHoldersSplitProRata(t *testing.T) {
	a := seriesA()
	a.Holders = []Holding{{HolderID: "fund-a", Shares: d("1500000")}, {HolderID: "angel", Shares: d("500000")}}
	c := common8M()
	c.Holders = []Holding{{HolderID: "founder", Shares: d("6000000")}, {HolderID: "angel", Shares: d("2000000")}}
	in := Input{ExitValue: d("50000000"), Classes: []Class{c, a},
		Awards: []Award{{ID: "opt", HolderID: "angel", Quantity: d("1000000"), Strike: d("0.5")}}}
	r, err := Run(in)
	if err != nil {
		t.Fatal(err)
	}
	checkBalances(t, in, r)
	// A converts: 11M shares share 50M + 0.5M strikes; 50.5M/11M per share.
	p := d("50500000").Div(d("11000000"))
	if !r.PerCommonShare.Equal(p) {
		t.Fatalf("per share %s, want %s", r.PerCommonShare, p)
	}
	want := map[string]num.Num{
		"angel":   p.Mul(d("3500000")).Sub(d("500000")),
		"founder": p.Mul(d("6000000")),
		"fund-a":  p.Mul(d("1500000")),
	}
	if len(r.Holders) != 3 {
		t.Fatalf("holders %+v", r.Holders)
	}
	for _, h := range r.Holders {
		if !h.Total.Equal(want[h.HolderID]) {
			t.Errorf("%s: %s, want %s", h.HolderID, h.Total, want[h.HolderID])
		}
	}
	if got := r.Holders[0].ByClass["opt"]; !got.Equal(p.Sub(d("0.5")).Mul(d("1000000"))) {
		t.Errorf("angel's option payout %s", got)
	}
}

func TestSearchLimitIsAnInternalError(t *testing.T) {
	in := Sample10(d("150000000"))
	m := newModel(in)
	e := qNum(in.ExitValue)
	s := newSolver(m, constant(e), e, false)
	s.maxPasses = 1 // a pass that switches anyone needs another to confirm
	_, _, err := s.solve(e)
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInternal {
		t.Fatalf("error %v, want an internal error", err)
	}
}

// TestHugeNumbersStayExact scales the 1x example far beyond int64.
func TestHugeNumbersStayExact(t *testing.T) {
	huge := d("1000000000000000000000")
	c, a := common8M(), seriesA()
	c.Shares, c.Holders = c.Shares.Mul(huge), nil
	a.Shares, a.Holders, a.IssuePrice = a.Shares.Mul(huge), nil, d("2.500000000000000000001")
	in := Input{Classes: []Class{c, a}}
	pref := a.Shares.Mul(a.IssuePrice)
	bps, err := Breakpoints(in, pref.Mul(num.Int(10)))
	if err != nil {
		t.Fatal(err)
	}
	if len(bps) != 2 || !bps[0].ExitValue.Equal(pref) || !bps[1].ExitValue.Equal(pref.Mul(num.Int(5))) {
		t.Fatalf("breakpoints %v, want %s and %s", bps, pref, pref.Mul(num.Int(5)))
	}
	for _, e := range []num.Num{pref.Mul(num.Int(5)), pref.Mul(num.Int(5)).Add(d("0.000001"))} {
		in.ExitValue = e
		r, err := Run(in)
		if err != nil {
			t.Fatal(err)
		}
		checkBalances(t, in, r)
		if tie := e.Equal(pref.Mul(num.Int(5))); r.Classes[1].Converted == tie {
			t.Errorf("at %s converted %v, want %v", e, r.Classes[1].Converted, !tie)
		}
	}
}

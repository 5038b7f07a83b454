package waterfall

import "github.com/strata-platform/strata/domain/captable/num"

// Sample10 returns a fixed 10-class cap table exiting at exit: two common
// classes and eight preferred classes in three seniority tiers, mixing
// non-participating, participating uncapped and capped classes, multiples
// from 1x to 2x and a conversion ratio of 1.1, with debt, transaction costs
// and options and RSUs at five strikes. Every call returns an equal input;
// the benchmarks use it.
func Sample10(exit num.Num) Input {
	d := num.MustParse
	pref := func(id, name, shares, price, multiple string, seniority int) Class {
		return Class{ID: id, Name: name, Preferred: true, Shares: d(shares), IssuePrice: d(price),
			PreferenceMultiple: d(multiple), Seniority: seniority,
			Holders: []Holding{{HolderID: "fund-" + id, Shares: d(shares)}}}
	}
	seed := pref("seed", "Seed", "2000000", "0.50", "1", 3)
	a := pref("a", "Series A", "3000000", "1.00", "1", 3)
	a.Participating, a.ParticipationCap = true, d("3")
	a2 := pref("a2", "Series A-2", "1000000", "1.20", "1", 3)
	b := pref("b", "Series B", "2500000", "2.00", "1", 2)
	b.Participating = true
	b2 := pref("b2", "Series B-2", "1000000", "2.40", "1.5", 2)
	c := pref("c", "Series C", "2000000", "5.00", "1", 1)
	c.Participating, c.ParticipationCap, c.ConversionRatio = true, d("2.5"), d("1.1")
	c1 := pref("c1", "Series C-1", "1000000", "5.50", "2", 1)
	dd := pref("d", "Series D", "1500000", "8.00", "1", 1)
	common := Class{ID: "common", Name: "Common", Shares: d("10000000"), IssuePrice: d("0.0001"),
		Holders: []Holding{{HolderID: "founder-1", Shares: d("6000000")}, {HolderID: "founder-2", Shares: d("4000000")}}}
	commonB := Class{ID: "common-b", Name: "Common B", Shares: d("1500000"),
		Holders: []Holding{{HolderID: "founder-1", Shares: d("500000")}, {HolderID: "employee-pool", Shares: d("1000000")}}}
	return Input{
		ExitValue: exit, Debt: d("5000000"), TransactionCosts: d("2000000"),
		Classes: []Class{common, seed, a, a2, b, b2, c, c1, dd, commonB},
		Awards: []Award{
			{ID: "opt-1", HolderID: "employee-1", Quantity: d("500000"), Strike: d("0.10")},
			{ID: "opt-2", HolderID: "employee-2", Quantity: d("800000"), Strike: d("0.50")},
			{ID: "opt-3", HolderID: "employee-3", Quantity: d("600000"), Strike: d("1.00")},
			{ID: "opt-4", HolderID: "employee-1", Quantity: d("400000"), Strike: d("2.50")},
			{ID: "rsu-1", HolderID: "employee-4", Quantity: d("300000"), Strike: d("0")},
		},
	}
}

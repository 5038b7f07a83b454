package reports

import (
	"testing"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

func TestTaxSummaryFigures(t *testing.T) {
	entries := acme(t).entries
	r := build(t, entries, TypeTaxSummary, "2025-12-31")
	if r.Title != "Tax Summary 2025" {
		t.Fatalf("title %q", r.Title)
	}
	ex, rs, out := sectionOf(t, r, "exercises"), sectionOf(t, r, "restrictedStock"), sectionOf(t, r, "outstandingAwards")
	mid := build(t, entries, TypeTaxSummary, "2025-07-15")
	midOut := sectionOf(t, mid, "outstandingAwards")
	cases := []struct {
		sec               Section
		row, column, want string
	}{
		{ex, "2025-08-01", "quantity", "10000"},
		{ex, "2025-08-01", "strikePaid", "1000.00"},
		{ex, "2025-08-01", "fmvPerShare", "0.50"},
		{ex, "2025-08-01", "valuation", "409A of 2025-06-30"},
		{ex, "2025-08-01", "spread", "4000.00"},
		{rs, "2025-02-01", "stakeholder", "Grace Hopper"},
		{rs, "2025-02-01", "amountPaid", "300.00"},
		{rs, "2025-02-01", "fmvPerShare", "0.10"},
		{rs, "2025-02-01", "spread", "299700.00"},
		{rs, "2025-02-01", "election83bDue", "2025-03-03"},
		{out, "Eve Employee", "outstanding", "38000"},
		{out, "Eve Employee", "vested", "13000"},
		{out, "Eve Employee", "intrinsicValue", "15200.00"},
		{out, "Eve Employee", "vestedIntrinsicValue", "5200.00"},
		{midOut, "Eve Employee", "vested", "18000"},
		{midOut, "Frank Leaver", "intrinsicPerShare", "0.00"}, // strike 0.50 at FMV 0.50: never negative
		{midOut, "Frank Leaver", "intrinsicValue", "0.00"},
	}
	for _, tc := range cases {
		if got := cell(t, tc.sec, tc.row, tc.column); got != tc.want {
			t.Errorf("%s/%s/%s = %q, want %q", tc.sec.ID, tc.row, tc.column, got, tc.want)
		}
	}
	if len(rs.Rows) != 1 {
		t.Errorf("restricted stock rows %v (Ada's 2024 grant and the preferred purchases are not listed)", rs.Rows)
	}
	if got := ex.Totals; got[6] != "1000.00" || got[10] != "4000.00" {
		t.Errorf("exercise totals %v", got)
	}
	if len(sectionOf(t, mid, "exercises").Rows) != 0 {
		t.Errorf("an exercise after the as-of date is listed")
	}
	if got := sectionOf(t, r, "scope").Notes[0]; got != disclaimer {
		t.Errorf("first note %q", got)
	}
}

// Without a valuation there is no fair market value; below the strike the
// spread is zero, never negative; an RSU settlement's spread is its FMV.
func TestTaxSummaryValuationCases(t *testing.T) {
	b := newLedgerBook(t, "2024-01-01")
	b.class("common", "Common", captable.ClassCommon, 1_000_000, "2024-01-01")
	b.class("pool", "Plan", captable.ClassPool, 100_000, "2024-01-01")
	b.person("e", "Eve", captable.StakeholderEmployee)
	b.grant("rsu", "e", "pool", captable.GrantRSU, 100, "0", "IMMEDIATE", "2025-01-10")
	b.grant("opt", "e", "pool", captable.GrantOption, 300, "2.00", "IMMEDIATE", "2025-01-10")
	b.must(b.c.Accept("rsu", on("2025-01-11"), b.today))
	b.must(b.c.Accept("opt", on("2025-01-11"), b.today))
	b.must(b.c.Exercise("rsu", num.Int(40), on("2025-02-01"), b.today))
	b.valuation("v", "2025-03-01", "1.50")
	b.must(b.c.Exercise("opt", num.Int(100), on("2025-04-01"), b.today))
	b.must(b.c.Exercise("rsu", num.Int(60), on("2025-04-02"), b.today))
	ex := sectionOf(t, build(t, b.entries, TypeTaxSummary, "2025-06-30"), "exercises")
	cases := []struct{ row, column, want string }{
		{"2025-02-01", "valuation", "no valuation"},
		{"2025-02-01", "spread", ""},
		{"2025-04-01", "spread", "0.00"},
		{"2025-04-01", "strikePaid", "200.00"},
		{"2025-04-02", "grantType", "RSU"},
		{"2025-04-02", "spread", "90.00"},
	}
	for _, tc := range cases {
		if got := cell(t, ex, tc.row, tc.column); got != tc.want {
			t.Errorf("%s/%s = %q, want %q", tc.row, tc.column, got, tc.want)
		}
	}
	if got := ex.Totals; got[4] != "200" || got[9] != "240.00" || got[10] != "90.00" {
		t.Errorf("totals %v", got)
	}
}

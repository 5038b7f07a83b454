package reports

import (
	"testing"
	"time"
)

func TestInvestorUpdateFigures(t *testing.T) {
	entries := acme(t).entries
	end := build(t, entries, TypeInvestorUpdate, "2025-12-31")
	q3 := build(t, entries, TypeInvestorUpdate, "2025-09-30")
	early := build(t, entries, TypeInvestorUpdate, "2024-01-05")
	cases := []struct {
		r                Report
		sec, row, column string
		want             string
	}{
		{end, "headline", "Fully diluted shares", "value", "11312500"},
		{end, "headline", "Unallocated option pool", "basis", "8.4155% of fully diluted"},
		{end, "headline", "Price per share (latest valuation)", "value", "0.50"},
		{end, "headline", "Implied post-money valuation", "value", "5656250.00"},
		{end, "headline", "Raised in priced rounds", "value", "1000000.00"},
		{end, "headline", "SAFEs outstanding", "value", "100000.00"},
		{end, "ownershipByClass", "Series A Preferred", "ownership", "11.6022"},
		{end, "ownershipByHolderType", "Founders", "fullyDiluted", "9000000"},
		{end, "ownershipByHolderType", "Founders", "ownership", "79.5580"},
		{end, "ownershipByHolderType", "Unallocated option pool", "fullyDiluted", "952000"},
		{end, "rounds", "2025-10-01", "postMoney", "10000000.00"},
		{end, "safes", "MFN Angel", "amount", "100000.00"},
		{end, "safes", "MFN Angel", "valuationCap", ""},
		{end, "quarterActivity", "Restricted stock issued", "units", "1312500"},
		{end, "quarterActivity", "SAFEs issued", "amount", "100000.00"},
		{end, "quarterActivity", "Priced rounds closed", "count", "1"},
		{end, "quarterActivity", "Awards granted (options, RSUs, warrants)", "count", "0"},
		{q3, "quarterActivity", "Awards granted (options, RSUs, warrants)", "units", "24000"},
		{q3, "quarterActivity", "Exercises and settlements", "units", "10000"},
		{q3, "quarterActivity", "Exercises and settlements", "amount", "1000.00"},
		{q3, "quarterActivity", "Terminations (units forfeited)", "units", "24000"},
		{q3, "quarterActivity", "Valuations recorded", "count", "0"}, // 2025-06-30 is the day before the quarter
		{q3, "safes", "Angel Investor", "valuationCap", "5000000.00"},
		{q3, "safes", "Angel Investor", "discount", "20.0000"},
		{q3, "headline", "Raised in priced rounds", "basis", "0 round(s)"},
		{early, "headline", "Price per share (latest valuation)", "basis", "no valuation recorded"},
	}
	for _, tc := range cases {
		if got := cell(t, sectionOf(t, tc.r, tc.sec), tc.row, tc.column); got != tc.want {
			t.Errorf("%s %s/%s/%s = %q, want %q", tc.r.AsOfDate, tc.sec, tc.row, tc.column, got, tc.want)
		}
	}
	if n := len(sectionOf(t, end, "safes").Rows); n != 1 {
		t.Errorf("a converted SAFE is still listed: %d rows", n)
	}
}

func TestQuarterStart(t *testing.T) {
	cases := []struct{ asOf, want string }{
		{"2025-12-31", "2025-10-01"},
		{"2025-09-30", "2025-07-01"},
		{"2025-05-31", "2025-03-01"},
		{"2024-05-31", "2024-03-01"},
		{"2025-03-15", "2024-12-16"},
	}
	for _, tc := range cases {
		if got := quarterStart(on(tc.asOf)).Format(time.DateOnly); got != tc.want {
			t.Errorf("quarter ending %s starts %s, want %s", tc.asOf, got, tc.want)
		}
	}
}

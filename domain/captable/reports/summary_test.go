package reports

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestCapTableSummaryFigures(t *testing.T) {
	r := build(t, acme(t).entries, TypeCapTableSummary, "2025-12-31")
	if r.Title != "Cap Table Summary" || r.CompanyName != "Acme, Inc." || r.AsOfDate.String() != "2025-12-31" || r.BasedOnVersion != 28 {
		t.Fatalf("header %q %q %s v%d", r.Title, r.CompanyName, r.AsOfDate, r.BasedOnVersion)
	}
	totals, classes, holders := sectionOf(t, r, "totals"), sectionOf(t, r, "classes"), sectionOf(t, r, "stakeholders")
	cases := []struct {
		sec         Section
		row, column string
		want        string
	}{
		{totals, "Authorized shares (common and preferred)", "value", "12000000"},
		{totals, "Issued shares (common and preferred)", "value", "10322500"},
		{totals, "Outstanding awards (options, RSUs, warrants)", "value", "38000"},
		{totals, "Unallocated option pool", "value", "952000"},
		{totals, "Fully diluted shares", "value", "11312500"},
		{classes, "Common", "issued", "9010000"},
		{classes, "Common", "available", "990000"},
		{classes, "Common", "ownership", "79.6464"},
		{classes, "2024 Plan", "outstanding", "38000"},
		{classes, "2024 Plan", "available", "952000"},
		{classes, "2024 Plan", "fullyDiluted", "990000"},
		{classes, "Series A Preferred", "issued", "1312500"},
		{holders, "Ada Lovelace", "fullyDiluted", "6000000"},
		{holders, "Ada Lovelace", "ownership", "53.0387"},
		{holders, "Eve Employee", "issued", "10000"},
		{holders, "Eve Employee", "awards", "38000"},
		{holders, "Angel Investor", "fullyDiluted", "312500"},
		{holders, "Unallocated option pool", "fullyDiluted", "952000"},
	}
	for _, tc := range cases {
		if got := cell(t, tc.sec, tc.row, tc.column); got != tc.want {
			t.Errorf("%s / %s / %s = %s, want %s", tc.sec.ID, tc.row, tc.column, got, tc.want)
		}
	}
	if got := holders.Totals; got[4] != "11312500" || got[5] != "100.0000" {
		t.Errorf("stakeholder totals %v", got)
	}
	if got := classes.Totals; got[3] != "10322500" || got[6] != "11312500" {
		t.Errorf("class totals %v", got)
	}
	for _, row := range holders.Rows {
		if row[0] == "Frank Leaver" {
			t.Errorf("a holder with nothing is listed: %v", row)
		}
	}
	if got := cell(t, sectionOf(t, r, "securities"), "Eve Employee", "status"); got != "PARTIALLY_EXERCISED" {
		t.Errorf("Eve's grant status %s", got)
	}
}

// An as-of date between two events shows exactly the first: Frank's grant
// (2025-07-01) but not Eve's exercise (2025-08-01).
func TestAsOfBetweenTwoEventsShowsTheFirst(t *testing.T) {
	entries := acme(t).entries
	cases := []struct {
		asOf                   string
		commonIssued, poolOut  string
		frank, ledgerLastEvent string
	}{
		{"2025-06-30", "9000000", "48000", "", "Valuation recorded"},
		{"2025-07-01", "9000000", "72000", "24000", "Option granted"},
		{"2025-07-31", "9000000", "72000", "24000", "Grant accepted"},
		{"2025-08-01", "9010000", "62000", "24000", "Exercised"},
	}
	for _, tc := range cases {
		r := build(t, entries, TypeCapTableSummary, tc.asOf)
		classes := sectionOf(t, r, "classes")
		if got := cell(t, classes, "Common", "issued"); got != tc.commonIssued {
			t.Errorf("%s: common issued %s, want %s", tc.asOf, got, tc.commonIssued)
		}
		if got := cell(t, classes, "2024 Plan", "outstanding"); got != tc.poolOut {
			t.Errorf("%s: pool outstanding %s, want %s", tc.asOf, got, tc.poolOut)
		}
		frank := ""
		for _, row := range sectionOf(t, r, "stakeholders").Rows {
			if row[0] == "Frank Leaver" {
				frank = row[4]
			}
		}
		if frank != tc.frank {
			t.Errorf("%s: Frank %q, want %q", tc.asOf, frank, tc.frank)
		}
		ledger := sectionOf(t, build(t, entries, TypeEquityLedger, tc.asOf), "ledger")
		last := ledger.Rows[len(ledger.Rows)-1]
		if last[1] != tc.ledgerLastEvent || last[0] > tc.asOf {
			t.Errorf("%s: last ledger line %v", tc.asOf, last)
		}
	}
}

func TestRequestValidation(t *testing.T) {
	entries := acme(t).entries
	cases := []struct {
		req         Request
		field, rule string
	}{
		{Request{Type: "BALANCE_SHEET", AsOf: on("2025-01-01")}, "type", "one_of"},
		{Request{AsOf: on("2025-01-01")}, "type", "required"},
		{Request{Type: TypeAuditReady}, "asOfDate", "required"},
	}
	for _, tc := range cases {
		_, err := Build(entries, tc.req)
		var ke *kernel.Error
		if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != tc.field || ke.Rule != tc.rule {
			t.Errorf("%+v: err %v, want %s/%s", tc.req, err, tc.field, tc.rule)
		}
	}
	if _, err := Build(nil, Request{Type: TypeAuditReady, AsOf: on("2025-01-01")}); kernel.KindOf(err) != kernel.KindNotFound {
		t.Errorf("no company: %v", err)
	}
	for _, typ := range Types {
		wellFormed(t, build(t, entries, typ, "2025-12-31"))
	}
}

// wellFormed checks a report's shape: a title, sections, and every row and
// totals row with one cell per column.
func wellFormed(t *testing.T, r Report) {
	t.Helper()
	if r.Title == "" || len(r.Sections) == 0 || !ValidType(r.Type) {
		t.Errorf("%s: %+v", r.Type, r)
	}
	for _, s := range r.Sections {
		for _, row := range s.Rows {
			if len(row) != len(s.Columns) {
				t.Errorf("%s/%s: row %v has %d cells for %d columns", r.Type, s.ID, row, len(row), len(s.Columns))
			}
		}
		if s.Totals != nil && len(s.Totals) != len(s.Columns) {
			t.Errorf("%s/%s: totals %v", r.Type, s.ID, s.Totals)
		}
	}
}

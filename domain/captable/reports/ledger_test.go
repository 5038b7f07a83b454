package reports

import (
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// ledgerRow finds a ledger line by its stream version.
func ledgerRow(t *testing.T, s Section, version string) map[string]string {
	t.Helper()
	for _, row := range s.Rows {
		if row[10] == version {
			out := map[string]string{}
			for i, c := range s.Columns {
				out[c.Key] = row[i]
			}
			return out
		}
	}
	t.Fatalf("no ledger line for version %s", version)
	return nil
}

func TestEquityLedgerListsEveryTransaction(t *testing.T) {
	s := sectionOf(t, build(t, acme(t).entries, TypeEquityLedger, "2025-12-31"), "ledger")
	if len(s.Rows) != 19 {
		t.Fatalf("%d lines, want 19 (3 classes and 16 dated transactions)", len(s.Rows))
	}
	for i := 1; i < len(s.Rows); i++ {
		if s.Rows[i-1][0] > s.Rows[i][0] {
			t.Fatalf("line %d out of date order: %v then %v", i, s.Rows[i-1], s.Rows[i])
		}
	}
	cases := []struct {
		version string
		want    map[string]string
	}{
		{"3", map[string]string{"date": "2024-01-01", "event": "Share class created", "security": "Common", "quantity": "10000000", "balance": "10000000"}},
		{"13", map[string]string{"event": "Restricted stock issued", "stakeholder": "Ada Lovelace", "security": "G-0001", "quantity": "6000000", "price": "0.0001", "amount": "600.00", "balance": "6000000"}},
		{"15", map[string]string{"date": "2024-01-15", "event": "Option granted", "stakeholder": "Eve Employee", "shareClass": "2024 Plan", "quantity": "48000", "price": "0.10", "amount": "", "balance": "48000"}},
		{"16", map[string]string{"event": "Grant accepted", "quantity": "", "balance": "48000"}},
		{"22", map[string]string{"date": "2025-08-01", "event": "Exercised", "quantity": "-10000", "amount": "1000.00", "balance": "38000", "details": "10000 shares of Common issued", "eventId": "01JEVENT000000000000000022"}},
		{"23", map[string]string{"event": "Service terminated", "stakeholder": "Frank Leaver", "quantity": "-24000", "balance": "0", "details": "vested 0 kept, exercisable until 2025-12-14"}},
		{"17", map[string]string{"event": "SAFE issued", "stakeholder": "Angel Investor", "security": "SAFE POST_MONEY", "amount": "250000.00", "details": "cap 5000000.00, discount 20.0000%"}},
		{"26", map[string]string{"event": "Round closed", "security": "Series A", "price": "1.00", "amount": "1000000.00"}},
		{"27", map[string]string{"event": "SAFE converted", "stakeholder": "Angel Investor", "quantity": "312500", "price": "0.80", "amount": "250000.00"}},
		{"19", map[string]string{"date": "2025-06-30", "event": "Valuation recorded", "price": "0.50", "details": "409A"}},
	}
	for _, tc := range cases {
		got := ledgerRow(t, s, tc.version)
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("v%s %s = %q, want %q", tc.version, k, got[k], v)
			}
		}
	}
}

func TestEquityLedgerUpdatesAndLateClassChanges(t *testing.T) {
	b := newLedgerBook(t, "2024-01-01")
	b.class("common", "Common", captable.ClassCommon, 1_000_000, "2024-01-01")
	b.class("pool", "Plan", captable.ClassPool, 100_000, "2024-01-01")
	b.person("e", "Eve", captable.StakeholderEmployee)
	b.grant("g", "e", "pool", captable.GrantOption, 1000, "1", "IMMEDIATE", "2025-03-01")
	b.must(b.c.UpdateGrant("g", captable.GrantInput{Quantity: num.Int(1500)}, b.today))
	b.must(b.c.Cancel("g", "offer withdrawn", on("2025-04-01"), b.today))
	b.must(b.c.UpdateClass("pool", captable.ClassInput{TotalShares: ptr(num.Int(150_000))}, on("2025-05-01")))
	b.must(b.c.UpdateClass("common", captable.ClassInput{TotalShares: ptr(num.Int(2_000_000))}, on("2026-01-10")))
	s := sectionOf(t, build(t, b.entries, TypeEquityLedger, "2025-12-31"), "ledger")
	var got []string
	for _, row := range s.Rows {
		got = append(got, row[0]+" "+row[1]+" "+row[5]+" -> "+row[8])
	}
	want := []string{
		"2024-01-01 Share class created 1000000 -> 1000000",
		"2024-01-01 Share class created 100000 -> 100000",
		"2025-03-01 Option granted 1000 -> 1000",
		"2025-03-01 Grant terms updated 500 -> 1500",
		"2025-04-01 Cancelled -1500 -> 0",
		"2025-05-01 Share class updated 50000 -> 150000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ledger:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := s.Notes[len(s.Notes)-1]; n != "1 share class change(s) recorded after the as-of date are not listed." {
		t.Fatalf("last note %q", n)
	}
}

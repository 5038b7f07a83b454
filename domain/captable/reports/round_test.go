package reports

import (
	"fmt"
	"testing"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// A round committed by CloseRound (dated authorizations, new series and
// pool, SAFE conversions, anti-dilution) reconciles before, on and after
// its closing, and the ledger lists its authorizations.
func TestCommittedRoundReconciles(t *testing.T) {
	b := acme(t)
	name, typ := "Seed", captable.ClassPreferred
	full := captable.AntiDilutionFullRatchet
	b.must(b.c.CreateClass("seed", captable.ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(500_000)),
		PricePerShare: ptr(num.Int(5)), AntiDilution: &full}, on("2025-12-01")))
	b.grant("g7", "vc", "seed", captable.GrantRestrictedStock, 500_000, "5", "IMMEDIATE", "2025-12-01")
	n := 0
	evs, _, err := b.c.CloseRound(captable.CommitInput{DilutionInput: captable.DilutionInput{RoundSize: num.Int(2_000_000),
		PreMoneyValuation: num.Int(10_000_000), NewShareClassName: "Series B", OptionPoolIncrease: ptr(num.Int(100_000))},
		ClosingDate: captable.DayOf(on("2026-01-10")), Investors: []captable.RoundInvestor{{StakeholderID: "vc", Amount: num.Int(2_000_000)}}},
		func() string { n++; return fmt.Sprintf("b-%d", n) }, b.today)
	b.must(evs, err)
	for _, day := range []string{"2026-01-09", "2026-01-10", "2026-01-15"} {
		reconciled(t, build(t, b.entries, TypeAuditReady, day))
	}
	ledger := sectionOf(t, build(t, b.entries, TypeEquityLedger, "2026-01-15"), "ledger")
	authorized := 0
	for _, row := range ledger.Rows {
		if row[1] == "Shares authorized" {
			authorized++
		}
	}
	if authorized != 2 {
		t.Fatalf("%d authorization lines, want the series and the pool", authorized)
	}
}

package reports

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// randomBook builds a random but valid cap table through the domain's
// decisions (refused decisions are skipped), with conversion-ratio changes,
// pending-grant updates and recorded expiries. It returns the book and the
// last business date used.
func randomBook(t *testing.T, rng *rand.Rand) (*ledgerBook, time.Time) {
	b := newLedgerBook(t, "2020-01-01")
	b.today = on("2035-12-31")
	b.class("common", "Common", captable.ClassCommon, 20_000_000, "2020-01-01")
	b.class("pool", "Plan", captable.ClassPool, 2_000_000, "2020-01-01")
	b.class("warrants", "Warrants", captable.ClassWarrant, 300_000, "2020-01-01")
	name, typ := "Series Seed", captable.ClassPreferred
	b.must(b.c.CreateClass("pref", captable.ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(5_000_000)),
		PricePerShare: ptr(num.MustParse("0.75")), ConversionRatio: ptr(num.Ratio(3, 2))}, on("2020-01-01")))
	people := []string{"p1", "p2", "p3", "p4", "p5", "p6"}
	for i, id := range people {
		b.person(id, "Person "+id, []string{captable.StakeholderFounder, captable.StakeholderEmployee, captable.StakeholderInvestor}[i%3])
	}
	cursor := on("2020-01-01")
	try := func(evs []kernel.Event, err error) {
		if err == nil {
			b.append(evs...)
		}
	}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for step := 0; step < 90; step++ {
		cursor = cursor.AddDate(0, 0, rng.IntN(45))
		switch rng.IntN(12) {
		case 0, 1, 2:
			try(b.c.IssueGrant("g"+strconv.Itoa(step), randomGrant(rng, pick(people), cursor), b.today))
		case 3:
			if id := randomGrantID(b, rng); id != "" {
				try(b.c.Accept(id, cursor, b.today))
			}
		case 4:
			if id := randomGrantID(b, rng); id != "" {
				g := b.c.Grants[id]
				if vested, _ := g.Schedule().VestedAt(cursor).Sub(g.Exercised).Int64(); vested > 0 {
					try(b.c.Exercise(id, num.Int(1+rng.Int64N(vested)), cursor, b.today))
				}
			}
		case 5:
			if id := randomGrantID(b, rng); id != "" {
				try(b.c.Terminate(id, cursor, ptr(rng.IntN(200)), b.today))
			}
		case 6:
			if id := randomGrantID(b, rng); id != "" {
				try(b.c.Cancel(id, "board decision", cursor, b.today))
			}
		case 7:
			if id := randomGrantID(b, rng); id != "" {
				try(b.c.UpdateGrant(id, captable.GrantInput{StakeholderID: pick(people), Quantity: num.Int(1 + rng.Int64N(50_000))}, b.today))
			}
		case 8:
			cl := b.c.Classes[pick([]string{"common", "pool", "warrants", "pref"})]
			in := captable.ClassInput{TotalShares: ptr(cl.TotalShares.Add(num.Int(rng.Int64N(500_000))))}
			if cl.Type == captable.ClassPreferred && rng.IntN(2) == 0 {
				in.ConversionRatio = ptr(num.Ratio(int64(4+rng.IntN(8)), 4))
			}
			try(b.c.UpdateClass(cl.ID, in, cursor))
		case 9:
			b.append(&captable.ConversionAdjusted{ShareClassID: "pref", RoundID: "r", NewConversionRatio: num.Ratio(int64(5+rng.IntN(10)), 5), On: cursor})
		case 10:
			b.append(b.c.ExpireLapsed(cursor)...)
		case 11:
			try(b.c.RecordValuation("v"+strconv.Itoa(step), captable.ValuationInput{ValuationDate: captable.DayOf(cursor), Methodology: "409A",
				PricePerShare: num.Ratio(int64(1+rng.IntN(200)), 100)}, b.today))
		}
	}
	return b, cursor
}

// randomGrant is a grant of a random type on the class that fits it.
func randomGrant(rng *rand.Rand, holder string, on time.Time) captable.GrantInput {
	types := []string{captable.GrantOption, captable.GrantRSU, captable.GrantWarrant, captable.GrantRestrictedStock}
	in := captable.GrantInput{StakeholderID: holder, GrantType: types[rng.IntN(len(types))],
		Quantity: num.Int(1 + rng.Int64N(200_000)), StrikePrice: num.Ratio(int64(1+rng.IntN(100)), 100),
		VestingSchedule: []string{"4_YEAR_1_YEAR_CLIFF", "3_YEAR_MONTHLY", "IMMEDIATE"}[rng.IntN(3)],
		GrantDate:       captable.DayOf(on), ExerciseWindowDays: ptr(rng.IntN(120))}
	switch in.GrantType {
	case captable.GrantOption, captable.GrantRSU:
		in.ShareClassID = "pool"
	case captable.GrantWarrant:
		in.ShareClassID = "warrants"
	default:
		in.ShareClassID = []string{"common", "pref"}[rng.IntN(2)]
	}
	if in.GrantType != captable.GrantRestrictedStock && rng.IntN(3) == 0 {
		in.ExpirationDate = captable.DayOf(on.AddDate(0, rng.IntN(24), rng.IntN(28)))
	}
	return in
}

// randomGrantID picks one of the company's grants, or "" when none.
func randomGrantID(b *ledgerBook, rng *rand.Rand) string {
	if len(b.c.GrantOrder) == 0 {
		return ""
	}
	return b.c.GrantOrder[rng.IntN(len(b.c.GrantOrder))]
}

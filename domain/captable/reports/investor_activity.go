package reports

import (
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// tally counts one kind of activity: how many, how many units, how much
// money.
type tally struct {
	label         string
	count         int
	units, amount num.Num
	hasUnits      bool
	hasAmount     bool
}

func (t *tally) add(units, amount num.Num) {
	t.count++
	t.units, t.amount = t.units.Add(units), t.amount.Add(amount)
}

// quarterStart is the first day of the three months ending on asOf:
// the day after the same day three months earlier (2025-12-31 gives
// 2025-10-01, 2025-05-31 gives 2025-03-01).
func quarterStart(asOf time.Time) time.Time {
	return vesting.AddMonths(asOf, -3).AddDate(0, 0, 1)
}

// activitySection counts the grants, exercises, terminations and other
// transactions dated within the quarter ending on the as-of day.
func activitySection(b *book) Section {
	from := quarterStart(b.asOf)
	awards := &tally{label: "Awards granted (options, RSUs, warrants)", hasUnits: true}
	stock := &tally{label: "Restricted stock issued", hasUnits: true, hasAmount: true}
	exercises := &tally{label: "Exercises and settlements", hasUnits: true, hasAmount: true}
	terminations := &tally{label: "Terminations (units forfeited)", hasUnits: true}
	cancels := &tally{label: "Cancellations", hasUnits: true}
	expiries := &tally{label: "Expirations", hasUnits: true}
	safes := &tally{label: "SAFEs issued", hasAmount: true}
	rounds := &tally{label: "Priced rounds closed", hasAmount: true}
	valuations := &tally{label: "Valuations recorded"}
	for _, id := range b.company.GrantOrder {
		g := b.company.Grants[id]
		if !inPeriod(g.GrantDate, from, b.asOf) {
			continue
		}
		if captable.IsStock(g.GrantType) {
			stock.add(g.Quantity, g.Quantity.Mul(g.StrikePrice))
		} else {
			awards.add(g.Quantity, num.Zero)
		}
	}
	for _, e := range b.applied {
		d, dated := captable.Dated(e.Event)
		if !dated || !inPeriod(d, from, b.asOf) {
			continue
		}
		switch ev := e.Event.(type) {
		case *captable.GrantExercised:
			exercises.add(ev.Quantity, ev.StrikePaid)
		case *captable.GrantTerminated:
			terminations.add(ev.Forfeited, num.Zero)
		case *captable.GrantCancelled:
			cancels.add(ev.Quantity, num.Zero)
		case *captable.GrantExpired:
			expiries.add(ev.Quantity, num.Zero)
		case *captable.SAFEIssued:
			safes.add(num.Zero, ev.InvestmentAmount)
		case *captable.RoundClosed:
			rounds.add(num.Zero, ev.RoundSize)
		case *captable.ValuationRecorded:
			valuations.add(num.Zero, num.Zero)
		}
	}
	sec := section("quarterActivity", "Activity this quarter", text("activity", "Activity"), number("count", "Count"),
		number("units", "Units"), money("amount", "Amount"))
	for _, t := range []*tally{awards, stock, exercises, terminations, cancels, expiries, safes, rounds, valuations} {
		row := []string{t.label, strconv.Itoa(t.count), "", ""}
		if t.hasUnits {
			row[2] = qty(t.units)
		}
		if t.hasAmount {
			row[3] = cash(t.amount)
		}
		sec.add(row...)
	}
	sec.note("The quarter runs from " + day(from) + " through " + day(b.asOf) + " (the three months ending on the as-of date), by business date.")
	sec.note("Grants are counted with their current terms; an exercise's amount is the strike paid.")
	return sec
}

package reports

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// outstandingSection lists the options, RSUs and warrants outstanding on
// the as-of day with their intrinsic value at the latest valuation.
func outstandingSection(b *book) Section {
	sec := section("outstandingAwards", "Outstanding awards and intrinsic value", text("stakeholder", "Stakeholder"),
		text("grantNumber", "Grant"), text("grantType", "Grant type"), date("grantDate", "Grant date"),
		number("outstanding", "Outstanding"), number("vested", "Vested"), money("strikePrice", "Strike price"),
		money("fmvPerShare", "FMV per share"), money("intrinsicPerShare", "Intrinsic per share"),
		money("intrinsicValue", "Intrinsic value"), money("vestedIntrinsicValue", "Vested intrinsic value"),
		date("exercisableUntil", "Exercisable until"))
	price, label, valued := b.fmv(b.asOf)
	var sumOut, sumVested, sumValue, sumVestedValue num.Num
	for _, id := range b.company.GrantOrder {
		g := b.company.Grants[id]
		if captable.IsStock(g.GrantType) {
			continue
		}
		out := g.Outstanding().Sub(g.LapsedAt(b.asOf))
		if out.Sign() <= 0 {
			continue
		}
		vested := exercisable(g, out, b.asOf)
		row := []string{b.holderName(g.StakeholderID), g.GrantNumber, g.GrantType, day(g.GrantDate), qty(out), qty(vested),
			cash(g.StrikePrice), "", "", "", "", day(exercisableUntil(g))}
		if valued {
			per := num.Max(num.Zero, price.Sub(g.StrikePrice))
			row[7], row[8], row[9], row[10] = cash(price), cash(per), cash(per.Mul(out)), cash(per.Mul(vested))
			sumValue, sumVestedValue = sumValue.Add(per.Mul(out)), sumVestedValue.Add(per.Mul(vested))
		}
		sec.add(row...)
		sumOut, sumVested = sumOut.Add(out), sumVested.Add(vested)
	}
	sec.Totals = []string{"Total", "", "", "", qty(sumOut), qty(sumVested), "", "", "", cash(sumValue), cash(sumVestedValue), ""}
	sec.note("Intrinsic value = max(0, FMV per share - strike price) x units, at " + label + ".")
	sec.note("Vested is what may be exercised on the as-of date: vested units not yet exercised, or after a termination the units kept.")
	return sec
}

// exercisable is what of an award's outstanding units is vested and may be
// exercised on day.
func exercisable(g *captable.GrantState, outstanding num.Num, day time.Time) num.Num {
	if g.Termination != nil {
		return outstanding
	}
	v := g.Schedule().VestedAt(day).Sub(g.Exercised)
	return num.Min(outstanding, num.Max(num.Zero, v))
}

// exercisableUntil is the last day an award may be exercised: the end of
// the post-termination window or the expiration date, whichever is first
// (the zero time when neither is set).
func exercisableUntil(g *captable.GrantState) time.Time {
	var end time.Time
	if g.ExpirationDate != nil {
		end = *g.ExpirationDate
	}
	if g.Termination != nil && (end.IsZero() || g.Termination.WindowEnds.Before(end)) {
		end = g.Termination.WindowEnds
	}
	return end
}

// valuationsSection lists the valuations recorded on or before the as-of
// date, the source of every fair market value in the report.
func valuationsSection(b *book) Section {
	sec := section("valuations", "Valuations", date("valuationDate", "Valuation date"),
		text("methodology", "Methodology"), money("pricePerShare", "Price per share"), text("notes", "Notes"))
	vals := append([]captable.Valuation(nil), b.company.Valuations...)
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].ValuationDate.Before(vals[j].ValuationDate) })
	for _, v := range vals {
		sec.add(day(v.ValuationDate), v.Methodology, cash(v.PricePerShare), v.Notes)
	}
	if len(b.company.Valuations) == 0 {
		sec.note("No valuation was recorded on or before the as-of date: fair market values are not available.")
	}
	return sec
}

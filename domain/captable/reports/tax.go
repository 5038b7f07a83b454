package reports

import (
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// disclaimer opens every tax summary.
const disclaimer = "Informational only, not tax advice: the cap table does not know each holder's elections, " +
	"the ISO or NSO status of an option, or other income; confirm every figure with a tax adviser."

// taxReport is the TAX_SUMMARY for the tax year of the as-of day (January 1
// through the as-of day): exercises and settlements with their spread,
// restricted stock issued (83(b)-relevant), and the intrinsic value of the
// awards outstanding on the as-of day.
func taxReport(b *book) []Section {
	from := vesting.Date(b.asOf.Year(), time.January, 1)
	return []Section{taxScope(b, from), exercisesSection(b, from), restrictedSection(b, from), outstandingSection(b),
		valuationsSection(b)}
}

// fmv describes the valuation in force on a day: its price per share, a
// label for people, and whether there is one.
func (b *book) fmv(on time.Time) (num.Num, string, bool) {
	v := b.valuationOn(on)
	if v == nil {
		return num.Zero, "no valuation", false
	}
	return v.PricePerShare, v.Methodology + " of " + day(v.ValuationDate), true
}

// taxScope names the tax year and the valuation in force at its end.
func taxScope(b *book, from time.Time) Section {
	sec := section("scope", "Scope", text("item", "Item"), text("value", "Value"))
	sec.add("Tax year", b.asOf.Format("2006"))
	sec.add("Period", day(from)+" to "+day(b.asOf))
	price, label, ok := b.fmv(b.asOf)
	if ok {
		label = cash(price) + " per share (" + label + ")"
	}
	sec.add("Fair market value on the as-of date", label)
	sec.note(disclaimer)
	sec.note("Fair market value on a day is the price per share of the latest valuation dated on or before it.")
	return sec
}

// exercisesSection lists the exercises and RSU settlements of the period.
func exercisesSection(b *book, from time.Time) Section {
	sec := section("exercises", "Exercises and settlements", date("date", "Date"), text("stakeholder", "Stakeholder"),
		text("grantNumber", "Grant"), text("grantType", "Grant type"), number("quantity", "Quantity"),
		money("strikePrice", "Strike price"), money("strikePaid", "Strike paid"), money("fmvPerShare", "FMV per share"),
		text("valuation", "Valuation"), money("fmvTotal", "FMV of shares"), money("spread", "Spread"))
	var sumQty, sumPaid, sumFMV, sumSpread num.Num
	for _, e := range b.applied {
		ex, ok := e.Event.(*captable.GrantExercised)
		if !ok || !inPeriod(ex.On, from, b.asOf) {
			continue
		}
		g := b.company.Grants[ex.GrantID]
		if g == nil {
			continue
		}
		price, label, valued := b.fmv(ex.On)
		row := []string{day(ex.On), b.holderName(g.StakeholderID), g.GrantNumber, g.GrantType, qty(ex.Quantity),
			cash(g.StrikePrice), cash(ex.StrikePaid), "", label, "", ""}
		if valued {
			total := price.Mul(ex.Quantity)
			spread := num.Max(num.Zero, total.Sub(ex.StrikePaid))
			row[7], row[9], row[10] = cash(price), cash(total), cash(spread)
			sumFMV, sumSpread = sumFMV.Add(total), sumSpread.Add(spread)
		}
		sec.add(row...)
		sumQty, sumPaid = sumQty.Add(ex.Quantity), sumPaid.Add(ex.StrikePaid)
	}
	sec.Totals = []string{"Total", "", "", "", qty(sumQty), "", cash(sumPaid), "", "", cash(sumFMV), cash(sumSpread)}
	sec.note("Spread = (FMV per share - strike price) x quantity, never below 0; rows without a valuation have none and are not in the totals.")
	sec.note("For a non-qualified option or an RSU the spread is ordinarily income at exercise or settlement; for an ISO it is an AMT adjustment.")
	return sec
}

// restrictedSection lists the restricted common stock issued in the period,
// where an 83(b) election may matter.
func restrictedSection(b *book, from time.Time) Section {
	sec := section("restrictedStock", "Restricted stock issued (83(b))", date("grantDate", "Grant date"),
		text("stakeholder", "Stakeholder"), text("grantNumber", "Grant"), text("shareClass", "Share class"),
		number("quantity", "Quantity"), money("pricePaid", "Price paid per share"), money("amountPaid", "Amount paid"),
		money("fmvPerShare", "FMV per share"), text("valuation", "Valuation"), money("spread", "Spread at grant"),
		text("vesting", "Vesting"), date("election83bDue", "83(b) due"))
	for _, id := range b.company.GrantOrder {
		g := b.company.Grants[id]
		cl := b.company.Classes[g.ShareClassID]
		if !captable.IsStock(g.GrantType) || cl == nil || cl.Type != captable.ClassCommon || !inPeriod(g.GrantDate, from, b.asOf) {
			continue
		}
		price, label, valued := b.fmv(g.GrantDate)
		row := []string{day(g.GrantDate), b.holderName(g.StakeholderID), g.GrantNumber, cl.Name, qty(g.Quantity),
			cash(g.StrikePrice), cash(g.StrikePrice.Mul(g.Quantity)), "", label, "", string(g.VestingSchedule),
			day(g.GrantDate.AddDate(0, 0, 30))}
		if valued {
			row[7], row[9] = cash(price), cash(num.Max(num.Zero, price.Sub(g.StrikePrice)).Mul(g.Quantity))
		}
		sec.add(row...)
	}
	sec.note("An 83(b) election is due within 30 days of the grant; it matters only for stock subject to vesting (a repurchase right).")
	sec.note("Spread at grant = (FMV per share - price paid) x quantity, never below 0. Preferred stock purchases are not listed.")
	return sec
}

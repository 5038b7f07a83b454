package reports

import (
	"sort"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// line is one transaction of the equity ledger.
type line struct {
	on                               time.Time
	version                          int64
	eventID                          string
	event, holder, security, class   string
	quantity, price, amount, balance string
	details                          string
}

// balances are the running figures the ledger shows after each
// transaction, kept in stream order: each grant's outstanding units and
// each class's authorized shares.
type balances struct {
	grant map[string]num.Num
	terms map[string]captable.Grant
	class map[string]num.Num
}

// ledgerReport is the EQUITY_LEDGER: every transaction folded into the
// as-of cap table, in business-date order, ties by stream version.
func ledgerReport(b *book) []Section {
	sec := section("ledger", "Equity ledger", date("date", "Date"), text("event", "Event"),
		text("stakeholder", "Stakeholder"), text("security", "Security"), text("shareClass", "Share class"),
		number("quantity", "Quantity change"), money("price", "Price"), money("amount", "Amount"),
		number("balance", "Balance after"), text("details", "Details"), number("version", "Version"),
		ref("eventId", "Event id"))
	bal := balances{grant: map[string]num.Num{}, terms: map[string]captable.Grant{}, class: map[string]num.Num{}}
	var lines []line
	later := 0
	for _, e := range b.applied {
		l, ok := b.ledgerLine(e, &bal)
		if !ok {
			continue
		}
		if vesting.DateOf(l.on).After(b.asOf) {
			later++ // undated reference data recorded after the as-of day
			continue
		}
		l.version, l.eventID = e.Version, e.EventID
		lines = append(lines, l)
	}
	sort.SliceStable(lines, func(i, j int) bool {
		di, dj := vesting.DateOf(lines[i].on), vesting.DateOf(lines[j].on)
		if !di.Equal(dj) {
			return di.Before(dj)
		}
		return lines[i].version < lines[j].version
	})
	for _, l := range lines {
		sec.add(day(l.on), l.event, l.holder, l.security, l.class, l.quantity, l.price, l.amount, l.balance,
			l.details, strconv.FormatInt(l.version, 10), l.eventID)
	}
	sec.note("Quantity change is the change in the grant's units (awards or shares), in the SAFE's converted shares, or in the class's authorized shares.")
	sec.note("Balance after is the grant's outstanding units, or the class's authorized shares, once the transaction is applied (in recording order).")
	sec.note("Share class changes are reference data dated by when they were recorded; the as-of figures use each class's latest terms.")
	if later > 0 {
		sec.note(strconv.Itoa(later) + " share class change(s) recorded after the as-of date are not listed.")
	}
	return []Section{sec}
}

// ledgerLine describes one entry as a ledger line; ok is false for events
// that are not transactions (company, members, stakeholders).
func (b *book) ledgerLine(e Entry, bal *balances) (line, bool) {
	switch ev := e.Event.(type) {
	case *captable.ShareClassCreated:
		return b.classLine(e, ev.ShareClass, "Share class created", bal), true
	case *captable.ShareClassUpdated:
		return b.classLine(e, ev.ShareClass, "Share class updated", bal), true
	case *captable.GrantIssued, *captable.GrantUpdated, *captable.GrantAccepted, *captable.GrantExercised,
		*captable.GrantTerminated, *captable.GrantExpired, *captable.GrantCancelled:
		return b.grantLine(e.Event, bal), true
	case *captable.SAFEIssued, *captable.SAFEUpdated, *captable.MFNElected, *captable.SAFEConverted:
		return b.safeLine(e.Event), true
	case *captable.SharesAuthorized:
		name := b.className(ev.ShareClassID)
		bal.class[ev.ShareClassID] = bal.class[ev.ShareClassID].Add(ev.Increase)
		return line{on: ev.On, event: "Shares authorized", security: name, class: name, quantity: qty(ev.Increase),
			balance: qty(bal.class[ev.ShareClassID]), details: "authorized " + qty(bal.class[ev.ShareClassID])}, true
	case *captable.RoundClosed:
		return line{on: ev.On, event: "Round closed", security: ev.Name, class: b.className(ev.ShareClassID),
			price: cash(ev.Price), amount: cash(ev.RoundSize),
			details: "pre-money " + cash(ev.PreMoneyValuation) + ", pool increase " + qty(ev.PoolIncrease) + ", " + ev.PricingConvention()}, true
	case *captable.ConversionAdjusted:
		return line{on: ev.On, event: "Conversion price adjusted", class: b.className(ev.ShareClassID),
			security: b.className(ev.ShareClassID), price: cash(ev.NewConversionPrice),
			details: "conversion price " + cash(ev.OldConversionPrice) + " -> " + cash(ev.NewConversionPrice) +
				", conversion ratio " + qty(ev.NewConversionRatio)}, true
	case *captable.ValuationRecorded:
		return line{on: ev.ValuationDate, event: "Valuation recorded", price: cash(ev.PricePerShare),
			details: ev.Methodology}, true
	}
	return line{}, false
}

// classLine is a share class creation or change of terms.
func (b *book) classLine(e Entry, cl captable.ShareClass, what string, bal *balances) line {
	on := cl.At
	if on.IsZero() {
		on = e.RecordedAt
	}
	change := cl.TotalShares.Sub(bal.class[cl.ID])
	bal.class[cl.ID] = cl.TotalShares
	l := line{on: on, event: what, security: cl.Name, class: cl.Name, quantity: qty(change),
		balance: qty(cl.TotalShares), details: cl.Type + ", authorized " + qty(cl.TotalShares)}
	if !cl.PricePerShare.IsZero() {
		l.price = cash(cl.PricePerShare)
	}
	return l
}

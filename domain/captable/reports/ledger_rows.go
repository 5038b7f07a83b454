package reports

import (
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// grantWords names a grant's issuance in plain words by its type.
var grantWords = map[string]string{
	captable.GrantOption:          "Option granted",
	captable.GrantRSU:             "RSU granted",
	captable.GrantWarrant:         "Warrant issued",
	captable.GrantRestrictedStock: "Restricted stock issued",
}

// grantLine is a grant's issuance or a step of its lifecycle. The line
// names the grant as its terms stood when the event was recorded.
func (b *book) grantLine(ev kernel.Event, bal *balances) line {
	var l line
	var id string
	var change num.Num
	switch e := ev.(type) {
	case *captable.GrantIssued:
		id, change = e.ID, e.Quantity
		bal.terms[id] = e.Grant
		l = line{on: e.GrantDate, event: grantWords[e.GrantType], details: vestingWords(e.Grant)}
	case *captable.GrantUpdated:
		id, change = e.ID, e.Quantity.Sub(bal.terms[e.ID].Quantity)
		bal.terms[id] = e.Grant
		l = line{on: e.GrantDate, event: "Grant terms updated", details: vestingWords(e.Grant)}
	case *captable.GrantAccepted:
		id = e.GrantID
		l = line{on: e.On, event: "Grant accepted"}
	case *captable.GrantExercised:
		id, change = e.GrantID, e.Quantity.Neg()
		l = line{on: e.On, event: "Exercised", amount: cash(e.StrikePaid),
			details: qty(e.Quantity) + " shares of " + b.className(e.ShareClassID) + " issued"}
		if bal.terms[id].GrantType == captable.GrantRSU {
			l.event = "RSU settled"
		}
	case *captable.GrantTerminated:
		id, change = e.GrantID, e.Forfeited.Neg()
		l = line{on: e.On, event: "Service terminated", details: "vested " + qty(e.Vested) + " kept, exercisable until " + day(e.WindowEnds)}
		if captable.IsStock(bal.terms[id].GrantType) {
			l.details = "unvested " + qty(e.Forfeited) + " shares repurchased"
		}
	case *captable.GrantExpired:
		id, change = e.GrantID, e.Quantity.Neg()
		l = line{on: e.On, event: "Expired"}
	case *captable.GrantCancelled:
		id, change = e.GrantID, e.Quantity.Neg()
		l = line{on: e.On, event: "Cancelled", details: e.Reason}
	}
	g, known := bal.terms[id]
	if !known {
		l.security = id
		return l
	}
	if _, issued := ev.(*captable.GrantIssued); issued {
		bal.grant[id] = change
	} else if _, updated := ev.(*captable.GrantUpdated); updated {
		bal.grant[id] = g.Quantity
	} else {
		bal.grant[id] = bal.grant[id].Add(change)
	}
	l.holder, l.security, l.class = b.holderName(g.StakeholderID), g.GrantNumber, b.className(g.ShareClassID)
	if !change.IsZero() {
		l.quantity = qty(change)
	}
	l.balance = qty(bal.grant[id])
	if !g.StrikePrice.IsZero() {
		l.price = cash(g.StrikePrice)
	}
	if _, issued := ev.(*captable.GrantIssued); issued && captable.IsStock(g.GrantType) && !g.StrikePrice.IsZero() {
		l.amount = cash(g.Quantity.Mul(g.StrikePrice))
	}
	return l
}

// vestingWords describes a grant's vesting and expiration.
func vestingWords(g captable.Grant) string {
	s := "vesting " + string(g.VestingSchedule) + " from " + day(g.VestingStartDate)
	if g.ExpirationDate != nil {
		s += ", expires " + day(*g.ExpirationDate)
	}
	return s
}

// safeLine is a SAFE's issuance, change, MFN election or conversion.
func (b *book) safeLine(ev kernel.Event) line {
	switch e := ev.(type) {
	case *captable.SAFEIssued:
		return line{on: e.IssueDate, event: "SAFE issued", holder: b.holderName(e.InvestorID), security: "SAFE " + e.SafeType,
			amount: cash(e.InvestmentAmount), details: safeTerms(e.SAFETerms)}
	case *captable.SAFEUpdated:
		return line{on: e.IssueDate, event: "SAFE terms updated", holder: b.holderName(e.InvestorID),
			security: "SAFE " + e.SafeType, amount: cash(e.InvestmentAmount), details: safeTerms(e.SAFETerms)}
	case *captable.MFNElected:
		l := line{on: e.On, event: "MFN terms elected", security: "SAFE " + captable.SAFEMFN,
			details: "terms of SAFE " + e.ElectedSAFEID + ": " + safeTerms(e.Terms)}
		if s := b.company.SAFEs[e.SAFEID]; s != nil {
			l.holder = b.holderName(s.InvestorID)
		}
		return l
	case *captable.SAFEConverted:
		l := line{on: e.On, event: "SAFE converted", class: b.className(e.ShareClassID), quantity: qty(e.Shares),
			price: cash(e.Price), details: "round " + b.roundName(e.RoundID) + ", " + e.Basis}
		if s := b.company.SAFEs[e.SAFEID]; s != nil {
			l.holder, l.security, l.amount = b.holderName(s.InvestorID), "SAFE "+s.SafeType, cash(s.InvestmentAmount)
		}
		return l
	}
	return line{}
}

// safeTerms describes a SAFE's cap and discount.
func safeTerms(t captable.SAFETerms) string {
	s := "no cap"
	if !t.ValuationCap.IsZero() {
		s = "cap " + cash(t.ValuationCap)
	}
	if !t.DiscountRate.IsZero() {
		s += ", discount " + fractionPct(t.DiscountRate) + "%"
	}
	return s
}

// roundName is a closed round's name, or its id.
func (b *book) roundName(id string) string {
	for _, r := range b.company.Rounds {
		if r.RoundID == id {
			return r.Name
		}
	}
	return id
}

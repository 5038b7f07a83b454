package reports

import (
	"strconv"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// investorReport is the INVESTOR_UPDATE: the headline figures, ownership
// by class and by kind of holder, the priced rounds, the SAFEs outstanding
// and the activity of the quarter ending on the as-of day.
func investorReport(b *book) []Section {
	return []Section{headlineSection(b), ownershipByClass(b.summary), ownershipByHolderType(b.summary),
		roundsSection(b), safesSection(b), activitySection(b)}
}

// headlineSection lists the figures an investor reads first.
func headlineSection(b *book) Section {
	s := b.summary
	sec := section("headline", "Headline figures", text("figure", "Figure"), number("value", "Value"), text("basis", "Basis"))
	sec.add("Fully diluted shares", qty(s.FullyDiluted), "")
	sec.add("Issued shares (common and preferred)", qty(s.TotalIssued), "")
	sec.add("Outstanding awards (options, RSUs, warrants)", qty(s.OutstandingAwards), "")
	sec.add("Unallocated option pool", qty(s.UnallocatedPool), pct(s.UnallocatedPool, s.FullyDiluted)+"% of fully diluted")
	if v := b.valuationOn(b.asOf); v != nil {
		sec.add("Price per share (latest valuation)", cash(v.PricePerShare), v.Methodology+" of "+day(v.ValuationDate))
		sec.add("Implied post-money valuation", cash(s.FullyDiluted.Mul(v.PricePerShare)),
			qty(s.FullyDiluted)+" fully diluted shares x "+cash(v.PricePerShare))
	} else {
		sec.add("Price per share (latest valuation)", "", "no valuation recorded")
	}
	raised, count := num.Zero, 0
	for _, r := range b.company.Rounds {
		raised, count = raised.Add(r.RoundSize), count+1
	}
	sec.add("Raised in priced rounds", cash(raised), strconv.Itoa(count)+" round(s)")
	amount, open := num.Zero, 0
	for _, id := range b.company.SAFEOrder {
		if sf := b.company.SAFEs[id]; sf.Converted == nil {
			amount, open = amount.Add(sf.InvestmentAmount), open+1
		}
	}
	sec.add("SAFEs outstanding", cash(amount), strconv.Itoa(open)+" SAFE(s) not yet converted")
	return sec
}

// ownershipByClass lists each class's fully diluted shares and ownership.
func ownershipByClass(s captable.Summary) Section {
	sec := section("ownershipByClass", "Ownership by share class", text("name", "Share class"), text("type", "Type"),
		number("fullyDiluted", "Fully diluted"), percent("ownership", "Ownership %"))
	for _, c := range s.Classes {
		sec.add(c.Name, c.Type, qty(c.Shares), pct(c.Shares, s.FullyDiluted))
	}
	sec.Totals = []string{"Total", "", qty(s.FullyDiluted), pct(s.FullyDiluted, s.FullyDiluted)}
	return sec
}

// group is a kind of holder and its label.
type group struct{ typ, label string }

// holderGroups names the kinds of holder in the order they are shown.
var holderGroups = []group{
	{captable.StakeholderFounder, "Founders"},
	{captable.StakeholderInvestor, "Investors"},
	{captable.StakeholderEmployee, "Employees"},
	{captable.StakeholderAdvisor, "Advisors"},
	{captable.StakeholderBoardMember, "Board members"},
}

// ownershipByHolderType groups the fully diluted shares by kind of holder,
// with the unallocated pool last.
func ownershipByHolderType(s captable.Summary) Section {
	sec := section("ownershipByHolderType", "Ownership by holder type", text("group", "Holders"),
		number("holders", "Count"), number("fullyDiluted", "Fully diluted"), percent("ownership", "Ownership %"))
	total := num.Zero
	known := map[string]bool{}
	for _, g := range holderGroups {
		known[g.typ] = true
	}
	for _, g := range append(append([]group(nil), holderGroups...), group{"", "Other"}) {
		shares, n := num.Zero, 0
		for _, h := range s.Holders {
			if h.Type == g.typ || (g.typ == "" && !known[h.Type]) {
				shares, n = shares.Add(h.Shares), n+1
			}
		}
		if n > 0 {
			sec.add(g.label, strconv.Itoa(n), qty(shares), pct(shares, s.FullyDiluted))
			total = total.Add(shares)
		}
	}
	if s.UnallocatedPool.Sign() != 0 {
		sec.add("Unallocated option pool", "", qty(s.UnallocatedPool), pct(s.UnallocatedPool, s.FullyDiluted))
		total = total.Add(s.UnallocatedPool)
	}
	sec.Totals = []string{"Total", strconv.Itoa(len(s.Holders)), qty(total), pct(total, s.FullyDiluted)}
	return sec
}

// roundsSection lists the priced rounds closed on or before the as-of day.
func roundsSection(b *book) Section {
	sec := section("rounds", "Priced rounds", date("date", "Closed"), text("name", "Round"), text("shareClass", "Share class"),
		money("price", "Price per share"), money("roundSize", "Round size"), money("preMoney", "Pre-money"),
		money("postMoney", "Post-money"), number("poolIncrease", "Pool increase"))
	total := num.Zero
	for _, r := range b.company.Rounds {
		sec.add(day(r.On), r.Name, b.className(r.ShareClassID), cash(r.Price), cash(r.RoundSize),
			cash(r.PreMoneyValuation), cash(postMoney(r)), qty(r.PoolIncrease))
		total = total.Add(r.RoundSize)
	}
	sec.Totals = []string{"Total", "", "", "", cash(total), "", "", ""}
	return sec
}

// safesSection lists the SAFEs not converted by the as-of day, with the
// terms they convert with (an MFN's elected terms once elected).
func safesSection(b *book) Section {
	sec := section("safes", "SAFEs outstanding", text("investor", "Investor"), date("issueDate", "Issued"),
		text("safeType", "Type"), money("amount", "Amount"), money("valuationCap", "Valuation cap"),
		percent("discount", "Discount %"), text("terms", "Terms"))
	total := num.Zero
	for _, id := range b.company.SAFEOrder {
		sf := b.company.SAFEs[id]
		if sf.Converted != nil {
			continue
		}
		t := sf.Effective()
		capText, terms := "", "own terms"
		if !t.ValuationCap.IsZero() {
			capText = cash(t.ValuationCap)
		}
		if sf.Elected != nil {
			terms = "elected the terms of SAFE " + sf.Elected.ElectedSAFEID + " (" + t.SafeType + ")"
		}
		sec.add(b.holderName(sf.InvestorID), day(sf.IssueDate), sf.SafeType, cash(sf.InvestmentAmount), capText,
			fractionPct(t.DiscountRate), terms)
		total = total.Add(sf.InvestmentAmount)
	}
	sec.Totals = []string{"Total", "", "", cash(total), "", "", ""}
	sec.note("An empty valuation cap means the SAFE has none.")
	return sec
}

// postMoney is a round's recorded post-money, or pre-money plus the round
// for rounds recorded without it.
func postMoney(r captable.RoundClosed) num.Num {
	if r.PostMoneyValuation.Sign() > 0 {
		return r.PostMoneyValuation
	}
	return r.PreMoneyValuation.Add(r.RoundSize)
}

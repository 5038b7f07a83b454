package reports

import (
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// summaryReport is the CAP_TABLE_SUMMARY: the totals, the share classes,
// the stakeholders and each stakeholder's securities on the as-of day.
func summaryReport(b *book) []Section {
	return []Section{totalsSection(b.summary), classesSection(b.summary), holdersSection(b.summary), securitiesSection(b)}
}

// totalsSection lists the cap table's totals.
func totalsSection(s captable.Summary) Section {
	sec := section("totals", "Totals", text("figure", "Figure"), number("value", "Shares"))
	sec.add("Authorized shares (common and preferred)", qty(s.TotalAuthorized))
	sec.add("Issued shares (common and preferred)", qty(s.TotalIssued))
	sec.add("Outstanding awards (options, RSUs, warrants)", qty(s.OutstandingAwards))
	sec.add("Unallocated option pool", qty(s.UnallocatedPool))
	sec.add("Fully diluted shares", qty(s.FullyDiluted))
	sec.note("Fully diluted = issued shares (preferred as converted) + outstanding options, RSUs and warrants + the unallocated pool.")
	sec.note("Awards whose exercise window or term lapsed by the as-of date count as expired.")
	return sec
}

// classesSection lists each share class's figures; the totals row sums
// the columns that add up (issued, outstanding awards, fully diluted).
func classesSection(s captable.Summary) Section {
	sec := section("classes", "Share classes", text("name", "Share class"), text("type", "Type"),
		number("authorized", "Authorized"), number("issued", "Issued"), number("outstanding", "Outstanding awards"),
		number("available", "Available"), number("fullyDiluted", "Fully diluted"), percent("ownership", "Ownership %"))
	for _, c := range s.Classes {
		sec.add(c.Name, c.Type, qty(c.Authorized), qty(c.Issued), qty(c.Outstanding), qty(c.Available),
			qty(c.Shares), pct(c.Shares, s.FullyDiluted))
	}
	sec.Totals = []string{"Total", "", "", qty(s.TotalIssued), qty(s.OutstandingAwards), "", qty(s.FullyDiluted),
		pct(s.FullyDiluted, s.FullyDiluted)}
	sec.note("Available is unissued authorized stock for common and preferred, and what is left to grant for a pool or warrant reserve.")
	sec.note("Fully diluted counts preferred as converted, a pool's outstanding awards plus its unallocated shares, and a warrant reserve's outstanding warrants.")
	return sec
}

// holdersSection lists each stakeholder with a holding, then the
// unallocated pool, so that the columns add up to the fully diluted total.
func holdersSection(s captable.Summary) Section {
	sec := section("stakeholders", "Stakeholders", text("name", "Stakeholder"), text("type", "Type"),
		number("issued", "Issued shares"), number("awards", "Outstanding awards"), number("fullyDiluted", "Fully diluted"),
		percent("ownership", "Ownership %"))
	issued, awards := num.Zero, num.Zero
	for _, h := range s.Holders {
		sec.add(h.Name, h.Type, qty(h.Issued), qty(h.Awards), qty(h.Shares), pct(h.Shares, s.FullyDiluted))
		issued, awards = issued.Add(h.Issued), awards.Add(h.Awards)
	}
	if s.UnallocatedPool.Sign() != 0 {
		sec.add("Unallocated option pool", "POOL", "0", "0", qty(s.UnallocatedPool), pct(s.UnallocatedPool, s.FullyDiluted))
	}
	total := issued.Add(awards).Add(s.UnallocatedPool)
	sec.Totals = []string{"Total", "", qty(issued), qty(awards), qty(total), pct(total, s.FullyDiluted)}
	sec.note("Issued shares count preferred as converted and shares already issued by exercise.")
	return sec
}

// securitiesSection lists every grant behind a stakeholder's holding.
func securitiesSection(b *book) Section {
	sec := section("securities", "Securities by stakeholder", text("stakeholder", "Stakeholder"),
		text("grantNumber", "Grant"), text("grantType", "Grant type"), text("shareClass", "Share class"),
		text("status", "Status"), number("outstanding", "Outstanding"), number("exercised", "Exercised"),
		number("fullyDiluted", "Fully diluted"))
	secs := b.company.Securities(b.asOf)
	for _, h := range b.summary.Holders {
		for _, s := range secs[h.ID] {
			sec.add(h.Name, s.GrantNumber, s.GrantType, s.ShareClassName, s.Status, qty(s.Outstanding),
				qty(s.Exercised), qty(s.Shares))
		}
	}
	return sec
}

package reports

import (
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// book is a company folded as of a day, with the entries behind it and its
// cap table on that day.
type book struct {
	company *captable.Company
	asOf    time.Time // 00:00 UTC of the as-of day
	entries []Entry   // every entry read, in stream order
	applied []Entry   // the entries folded into company, in stream order
	summary captable.Summary
}

// fold applies entries with captable.Replay's rule: an event whose business
// date falls after asOf is skipped, an undated one always applies. Events
// before the company's creation are ignored.
func fold(entries []Entry, asOf time.Time) *book {
	b := &book{company: &captable.Company{}, asOf: asOf, entries: entries}
	for _, e := range entries {
		if d, ok := captable.Dated(e.Event); ok && vesting.DateOf(d).After(asOf) {
			continue
		}
		if _, created := e.Event.(*captable.CompanyCreated); !created && !b.company.Exists() {
			continue
		}
		b.company.Apply(e.Event)
		b.company.Version = e.Version
		b.applied = append(b.applied, e)
	}
	if b.company.Exists() {
		b.summary = b.company.Summary(asOf)
	}
	return b
}

// holderName is a stakeholder's name, or its id when unknown.
func (b *book) holderName(id string) string {
	if s := b.company.Stakeholders[id]; s != nil {
		return s.Name
	}
	return id
}

// className is a share class's name, or its id when unknown.
func (b *book) className(id string) string {
	if cl := b.company.Classes[id]; cl != nil {
		return cl.Name
	}
	return id
}

// grantNumber is a grant's number, or its id when unknown.
func (b *book) grantNumber(id string) string {
	if g := b.company.Grants[id]; g != nil {
		return g.GrantNumber
	}
	return id
}

// valuationOn is the latest valuation dated on or before day (of two on
// the same date, the one recorded later), or nil.
func (b *book) valuationOn(day time.Time) *captable.Valuation {
	var best *captable.Valuation
	for i := range b.company.Valuations {
		v := &b.company.Valuations[i]
		if vesting.DateOf(v.ValuationDate).After(vesting.DateOf(day)) {
			continue
		}
		if best == nil || !vesting.DateOf(v.ValuationDate).Before(vesting.DateOf(best.ValuationDate)) {
			best = v
		}
	}
	return best
}

// inPeriod reports whether t's date is within [from, to].
func inPeriod(t, from, to time.Time) bool {
	d := vesting.DateOf(t)
	return !d.Before(from) && !d.After(to)
}

// datedOf is an entry's business date, if its event has one.
func datedOf(e Entry) (time.Time, bool) { return captable.Dated(e.Event) }

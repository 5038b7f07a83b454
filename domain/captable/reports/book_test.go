package reports

import (
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// ledgerBook builds a company's stream with the domain's decisions, as the
// command handlers would, and records it as entries.
type ledgerBook struct {
	t       *testing.T
	c       *captable.Company
	entries []Entry
	today   time.Time
}

func on(s string) time.Time {
	d, ok := captable.ParseDay(s)
	if !ok {
		panic(s)
	}
	return d.Time
}

func newLedgerBook(t *testing.T, created string) *ledgerBook {
	b := &ledgerBook{t: t, c: &captable.Company{}, today: on("2026-01-15")}
	evs, err := captable.NewCompany("co", "Acme, Inc.", "owner", on(created))
	b.must(evs, err)
	return b
}

// must appends the events of an accepted decision.
func (b *ledgerBook) must(evs []kernel.Event, err error) {
	b.t.Helper()
	if err != nil {
		b.t.Fatalf("decision refused: %v", err)
	}
	b.append(evs...)
}

// append records events as entries, versions counting from 1.
func (b *ledgerBook) append(evs ...kernel.Event) {
	for _, e := range evs {
		b.c.Apply(e)
		v := int64(len(b.entries) + 1)
		b.entries = append(b.entries, Entry{Version: v, EventID: fmt.Sprintf("01JEVENT%018d", v), Type: e.EventType(),
			RecordedAt: time.Date(2026, 1, 15, 9, 0, int(v%60), 0, time.UTC), Event: e})
	}
}

func ptr[T any](v T) *T { return &v }

func (b *ledgerBook) class(id, name, typ string, total int64, at string) {
	b.t.Helper()
	b.must(b.c.CreateClass(id, captable.ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(total))}, on(at)))
}

func (b *ledgerBook) person(id, name, typ string) {
	b.t.Helper()
	b.must(b.c.AddStakeholder(id, captable.StakeholderInput{Name: name, Type: typ}, on("2024-01-01")))
}

// grant issues a grant; price is the strike or the price paid.
func (b *ledgerBook) grant(id, holder, class, typ string, quantity int64, price, schedule, granted string) {
	b.t.Helper()
	b.must(b.c.IssueGrant(id, captable.GrantInput{StakeholderID: holder, ShareClassID: class, GrantType: typ,
		Quantity: num.Int(quantity), StrikePrice: num.MustParse(price), VestingSchedule: schedule,
		GrantDate: captable.DayOf(on(granted))}, b.today))
}

func (b *ledgerBook) valuation(id, date, price string) {
	b.t.Helper()
	b.must(b.c.RecordValuation(id, captable.ValuationInput{ValuationDate: captable.DayOf(on(date)), Methodology: "409A",
		PricePerShare: num.MustParse(price)}, b.today))
}

// acme is the company most tests read: two founders, an employee who
// exercised, a leaver, a converted SAFE and a Series A, and an MFN SAFE.
func acme(t *testing.T) *ledgerBook {
	b := newLedgerBook(t, "2024-01-01")
	b.class("common", "Common", captable.ClassCommon, 10_000_000, "2024-01-01")
	b.class("pool", "2024 Plan", captable.ClassPool, 1_000_000, "2024-01-01")
	b.class("seriesA", "Series A Preferred", captable.ClassPreferred, 2_000_000, "2024-01-01")
	b.person("ada", "Ada Lovelace", captable.StakeholderFounder)
	b.person("grace", "Grace Hopper", captable.StakeholderFounder)
	b.person("eve", "Eve Employee", captable.StakeholderEmployee)
	b.person("frank", "Frank Leaver", captable.StakeholderEmployee)
	b.person("vc", "Venture Capital LP", captable.StakeholderInvestor)
	b.person("angel", "Angel Investor", captable.StakeholderInvestor)
	b.person("mfn", "MFN Angel", captable.StakeholderInvestor)
	b.grant("g1", "ada", "common", captable.GrantRestrictedStock, 6_000_000, "0.0001", "IMMEDIATE", "2024-01-01")
	b.valuation("v1", "2024-01-10", "0.10")
	b.grant("g3", "eve", "pool", captable.GrantOption, 48_000, "0.10", "4_YEAR_1_YEAR_CLIFF", "2024-01-15")
	b.must(b.c.Accept("g3", on("2024-01-20"), b.today))
	b.must(b.c.IssueSAFE("s1", captable.SAFEInput{InvestorID: "angel", InvestmentAmount: num.Int(250_000),
		ValuationCap: ptr(num.Int(5_000_000)), DiscountRate: ptr(num.MustParse("0.2")), SafeType: captable.SAFEPostMoney,
		IssueDate: captable.DayOf(on("2024-06-01"))}, b.today))
	b.grant("g2", "grace", "common", captable.GrantRestrictedStock, 3_000_000, "0.0001", "4_YEAR_1_YEAR_CLIFF", "2025-02-01")
	b.valuation("v2", "2025-06-30", "0.50")
	b.grant("g4", "frank", "pool", captable.GrantOption, 24_000, "0.50", "4_YEAR_1_YEAR_CLIFF", "2025-07-01")
	b.must(b.c.Accept("g4", on("2025-07-02"), b.today))
	b.must(b.c.Exercise("g3", num.Int(10_000), on("2025-08-01"), b.today))
	b.must(b.c.Terminate("g4", on("2025-09-15"), nil, b.today))
	b.grant("g5", "vc", "seriesA", captable.GrantRestrictedStock, 1_000_000, "1.00", "IMMEDIATE", "2025-10-01")
	b.grant("g6", "angel", "seriesA", captable.GrantRestrictedStock, 312_500, "0.80", "IMMEDIATE", "2025-10-01")
	b.append(&captable.RoundClosed{RoundID: "r1", Name: "Series A", ShareClassID: "seriesA", Price: num.Int(1),
		RoundSize: num.Int(1_000_000), PreMoneyValuation: num.Int(9_000_000), Convention: "PRE_MONEY", On: on("2025-10-01")},
		&captable.SAFEConverted{SAFEID: "s1", RoundID: "r1", ShareClassID: "seriesA", GrantID: "g6",
			Shares: num.Int(312_500), Price: num.MustParse("0.80"), Basis: "DISCOUNT", On: on("2025-10-01")})
	b.must(b.c.IssueSAFE("s2", captable.SAFEInput{InvestorID: "mfn", InvestmentAmount: num.Int(100_000),
		SafeType: captable.SAFEMFN, IssueDate: captable.DayOf(on("2025-11-01"))}, b.today))
	return b
}

// build builds a report of acme's kind or fails the test.
func build(t *testing.T, entries []Entry, typ, asOf string) Report {
	t.Helper()
	r, err := Build(entries, Request{Type: typ, AsOf: on(asOf), GeneratedAt: time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatalf("Build %s: %v", typ, err)
	}
	return r
}

// sectionOf returns a report's section by id.
func sectionOf(t *testing.T, r Report, id string) Section {
	t.Helper()
	for _, s := range r.Sections {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("%s has no section %s", r.Type, id)
	return Section{}
}

// cell returns the value of column key in the first row whose first
// column is first.
func cell(t *testing.T, s Section, first, key string) string {
	t.Helper()
	col := -1
	for i, c := range s.Columns {
		if c.Key == key {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("section %s has no column %s", s.ID, key)
	}
	for _, row := range s.Rows {
		if row[0] == first {
			return row[col]
		}
	}
	t.Fatalf("section %s has no row %q", s.ID, first)
	return ""
}

package captable

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

func day(s string) time.Time {
	d, ok := ParseDay(s)
	if !ok {
		panic(s)
	}
	return d.Time
}

// book is a company plus the events that built it, for tests.
type book struct {
	t      *testing.T
	c      *Company
	events []kernel.Event
	today  time.Time
}

func newBook(t *testing.T) *book {
	b := &book{t: t, c: &Company{}, today: day("2026-11-01")}
	evs, err := NewCompany("co", "Acme", "owner", b.today)
	b.must(evs, err)
	return b
}

func (b *book) must(evs []kernel.Event, err error) {
	b.t.Helper()
	if err != nil {
		b.t.Fatalf("decision refused: %v", err)
	}
	for _, e := range evs {
		b.c.Apply(e)
		b.events = append(b.events, e)
	}
}

func ptr[T any](v T) *T { return &v }

func refused(t *testing.T, err error, field, rule string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Field != field || ke.Rule != rule {
		t.Fatalf("err = %v, want field %s rule %s", err, field, rule)
	}
}

func (b *book) class(id, name, typ string, total int64) {
	b.must(b.c.CreateClass(id, ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(total))}, b.today))
}

func (b *book) person(id, name, email, typ string) {
	b.must(b.c.AddStakeholder(id, StakeholderInput{Name: name, Email: email, Type: typ}, b.today))
}

func TestVestingExampleThroughTheLifecycle(t *testing.T) {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 20_000_000)
	b.class("pool", "2024 Plan", ClassPool, 1_000_000)
	b.person("f", "Founder", "f@acme.test", StakeholderFounder)
	b.person("e", "Employee", "e@acme.test", StakeholderEmployee)
	b.must(b.c.IssueGrant("g-f", GrantInput{StakeholderID: "f", ShareClassID: "common", GrantType: GrantRestrictedStock,
		Quantity: num.Int(9_000_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}, b.today))
	b.must(b.c.IssueGrant("g-e", GrantInput{StakeholderID: "e", ShareClassID: "pool", GrantType: GrantOption,
		Quantity: num.Int(4800), StrikePrice: num.MustParse("0.10"), VestingSchedule: "4_YEAR_1_YEAR_CLIFF",
		GrantDate: DayOf(day("2024-01-15"))}, b.today))
	if got := b.c.Grants["g-e"].GrantNumber; got != "G-0002" {
		t.Fatalf("grant number %s", got)
	}
	b.must(b.c.Accept("g-e", day("2024-01-20"), b.today))
	b.must(b.c.Terminate("g-e", day("2025-07-20"), nil, b.today))
	term := b.c.Grants["g-e"].Termination
	if !term.Vested.Equal(num.Int(1800)) || !term.Forfeited.Equal(num.Int(3000)) || term.WindowEnds.Format(time.DateOnly) != "2025-10-18" {
		t.Fatalf("termination %+v", term)
	}
	pool := b.c.Classes["pool"]
	if !pool.Available().Equal(num.Int(1_000_000 - 1800)) {
		t.Fatalf("pool available %s", pool.Available())
	}
	// Exercise 800 inside the window, then the rest lapses after 2025-10-18.
	b.must(b.c.Exercise("g-e", num.Int(800), day("2025-09-01"), b.today))
	_, err := b.c.Exercise("g-e", num.Int(1001), day("2025-09-02"), b.today)
	refused(t, err, "quantity", "exceeds_vested")
	_, err = b.c.Exercise("g-e", num.Int(1), day("2025-10-19"), b.today)
	refused(t, err, "exerciseDate", "window_closed")

	in := Replay(b.events, day("2025-10-18")).Summary(day("2025-10-18"))
	after := Replay(b.events, day("2025-10-19")).Summary(day("2025-10-19"))
	if !in.OutstandingAwards.Equal(num.Int(1000)) || !after.OutstandingAwards.IsZero() {
		t.Fatalf("outstanding on the last window day %s, the day after %s", in.OutstandingAwards, after.OutstandingAwards)
	}
	if !after.UnallocatedPool.Equal(num.Int(1_000_000 - 800)) {
		t.Fatalf("pool after expiry %s", after.UnallocatedPool)
	}
	// The scheduler's event agrees with the computed expiry.
	exp := b.c.ExpireLapsed(day("2025-10-19"))
	if len(exp) != 1 || !exp[0].(*GrantExpired).Quantity.Equal(num.Int(1000)) || exp[0].(*GrantExpired).On.Format(time.DateOnly) != "2025-10-19" {
		t.Fatalf("expiry events %+v", exp)
	}
	b.must(exp, nil)
	if st := b.c.Grants["g-e"].Status(); st != StatusExpired {
		t.Fatalf("status %s", st)
	}
	if got := b.c.Summary(b.today); !got.FullyDiluted.Equal(after.FullyDiluted) {
		t.Fatalf("FD with the recorded expiry %s, computed %s", got.FullyDiluted, after.FullyDiluted)
	}
}

func TestAsOfBetweenTwoEventsShowsTheFirst(t *testing.T) {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 20_000_000)
	b.person("a", "Ada", "", StakeholderFounder)
	b.person("g", "Grace", "", StakeholderFounder)
	b.must(b.c.IssueGrant("1", GrantInput{StakeholderID: "a", ShareClassID: "common", GrantType: GrantRestrictedStock,
		Quantity: num.Int(6_000_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-03-01"))}, b.today))
	b.must(b.c.IssueGrant("2", GrantInput{StakeholderID: "g", ShareClassID: "common", GrantType: GrantRestrictedStock,
		Quantity: num.Int(4_000_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-06-01"))}, b.today))
	mid := Replay(b.events, day("2024-04-15")).Summary(day("2024-04-15"))
	if !mid.TotalIssued.Equal(num.Int(6_000_000)) || len(mid.Holders) != 1 || mid.Holders[0].Name != "Ada" ||
		!mid.Holders[0].Ownership.Equal(num.Int(1)) {
		t.Fatalf("as of 2024-04-15: %+v", mid)
	}
	before := Replay(b.events, day("2024-02-28")).Summary(day("2024-02-28"))
	if !before.FullyDiluted.IsZero() || len(before.Holders) != 0 {
		t.Fatalf("before any grant: %+v", before)
	}
	end := b.c.Summary(b.today)
	if !end.FullyDiluted.Equal(num.Int(10_000_000)) || !end.Holders[1].Ownership.Equal(num.MustParse("0.4")) {
		t.Fatalf("today: %+v", end)
	}
}

func TestGrantRefusals(t *testing.T) {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 1_000_000)
	b.class("pool", "Plan", ClassPool, 1000)
	b.person("e", "Eve", "eve@acme.test", StakeholderEmployee)
	base := GrantInput{StakeholderID: "e", ShareClassID: "pool", GrantType: GrantOption, Quantity: num.Int(100),
		StrikePrice: num.Int(1), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2025-01-01"))}
	cases := []struct {
		name        string
		edit        func(*GrantInput)
		field, rule string
	}{
		{"over the pool", func(g *GrantInput) { g.Quantity = num.Int(1001) }, "quantity", "exceeds_available"},
		{"negative quantity", func(g *GrantInput) { g.Quantity = num.Int(-5) }, "quantity", "non_negative"},
		{"fractional quantity", func(g *GrantInput) { g.Quantity = num.MustParse("1.5") }, "quantity", "whole_shares"},
		{"vesting before grant", func(g *GrantInput) { g.VestingStartDate = DayOf(day("2024-12-31")) }, "vestingStartDate", "not_before_grant_date"},
		{"future grant", func(g *GrantInput) { g.GrantDate = DayOf(day("2027-01-01")) }, "grantDate", "not_future"},
		{"unknown stakeholder", func(g *GrantInput) { g.StakeholderID = "nobody" }, "stakeholderId", "exists"},
		{"option on common", func(g *GrantInput) { g.ShareClassID = "common" }, "shareClassId", "class_type"},
		{"option without strike", func(g *GrantInput) { g.StrikePrice = num.Zero }, "strikePrice", "required"},
		{"unknown schedule", func(g *GrantInput) { g.VestingSchedule = "5_YEAR" }, "vestingSchedule", "one_of"},
		{"unknown type", func(g *GrantInput) { g.GrantType = "PHANTOM" }, "grantType", "one_of"},
	}
	for _, tc := range cases {
		in := base
		tc.edit(&in)
		_, err := b.c.IssueGrant("x", in, b.today)
		refused(t, err, tc.field, tc.rule)
	}
	_, err := b.c.AddStakeholder("dup", StakeholderInput{Name: "Eve 2", Email: "EVE@acme.test", Type: StakeholderEmployee}, b.today)
	if kernel.KindOf(err) != kernel.KindConflict {
		t.Fatalf("duplicate email: %v", err)
	}
}

// Emails and grant numbers stay unique through updates and removals (the
// fold's indexes follow every change).
func TestUniquenessIndexes(t *testing.T) {
	b := newBook(t)
	b.person("a", "A", "a@x.test", StakeholderFounder)
	_, err := b.c.AddStakeholder("b", StakeholderInput{Name: "B", Email: "A@x.test", Type: StakeholderFounder}, b.today)
	refused(t, err, "email", "unique")
	b.must(b.c.UpdateStakeholder("a", StakeholderInput{Name: "A", Email: "a2@x.test", Type: StakeholderFounder}, b.today))
	b.person("b", "B", "a@x.test", StakeholderFounder) // the old address is free again
	_, err = b.c.AddStakeholder("c", StakeholderInput{Name: "C", Email: "a2@x.test", Type: StakeholderFounder}, b.today)
	refused(t, err, "email", "unique")
	b.must(b.c.RemoveStakeholder("a", b.today))
	b.person("c", "C", "a2@x.test", StakeholderFounder) // a removed stakeholder's address is free
	_, err = b.c.AddStakeholder("d", StakeholderInput{Name: "D", Type: StakeholderFounder, Title: strings.Repeat("t", 300)}, b.today)
	refused(t, err, "title", "max_length")

	b.class("common", "Common", ClassCommon, 1000)
	grant := func(id, number string) GrantInput {
		return GrantInput{GrantNumber: number, StakeholderID: "b", ShareClassID: "common", GrantType: GrantRestrictedStock,
			Quantity: num.Int(10), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}
	}
	b.must(b.c.IssueGrant("g1", grant("g1", "CS-1"), b.today))
	_, err = b.c.IssueGrant("g2", grant("g2", "CS-1"), b.today)
	refused(t, err, "grantNumber", "unique")
	b.must(b.c.UpdateGrant("g1", grant("g1", "CS-9"), b.today))
	b.must(b.c.IssueGrant("g2", grant("g2", "CS-1"), b.today))
	_, err = b.c.IssueGrant("g3", grant("g3", "CS-9"), b.today)
	refused(t, err, "grantNumber", "unique")
}

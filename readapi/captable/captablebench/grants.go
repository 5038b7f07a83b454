package captablebench

import (
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Vesting schedules of the plan's grants.
const (
	cliff     = "4_YEAR_1_YEAR_CLIFF"
	immediate = "IMMEDIATE"
)

// classes returns the decisions that create the plan's share classes:
// common, three preferred series (a 1x seed, a participating Series A
// capped at 3x, a senior 1.5x Series B), the option pool and a warrant
// reserve. Authorized shares leave room for every planned grant.
func (p *plan) classes(grants int) []func(c *captable.Company, now time.Time) ([]kernel.Event, error) {
	type spec struct {
		id, name, typ                      string
		total, price, pref, participationx num.Num
		participating                      bool
		seniority                          int
	}
	n := int64(grants)
	specs := []spec{
		{id: p.class.common, name: "Common", typ: captable.ClassCommon, total: num.Int(20*founderShares + 4*optionsPerGrant*n)},
		{id: p.class.seed, name: "Series Seed Preferred", typ: captable.ClassPreferred, total: num.Int(seriesShares),
			price: num.Ratio(50, 100), pref: num.Int(1), seniority: 3},
		{id: p.class.seriesA, name: "Series A Preferred", typ: captable.ClassPreferred, total: num.Int(seriesShares),
			price: num.Ratio(150, 100), pref: num.Int(1), participating: true, participationx: num.Int(3), seniority: 2},
		{id: p.class.seriesB, name: "Series B Preferred", typ: captable.ClassPreferred, total: num.Int(seriesShares),
			price: num.Ratio(420, 100), pref: num.Ratio(3, 2), seniority: 1},
		{id: p.class.pool, name: "2016 Equity Incentive Plan", typ: captable.ClassPool, total: num.Int(2 * optionsPerGrant * n)},
		{id: p.class.warrants, name: "Warrants", typ: captable.ClassWarrant, total: num.Int(5_000_000)},
	}
	out := make([]func(c *captable.Company, now time.Time) ([]kernel.Event, error), 0, len(specs))
	for _, s := range specs {
		in := captable.ClassInput{Name: &s.name, Type: &s.typ, TotalShares: &s.total}
		if s.typ == captable.ClassPreferred {
			in.PricePerShare, in.LiquidationPreference, in.Participating, in.Seniority = &s.price, &s.pref, &s.participating, &s.seniority
			if s.participating {
				in.ParticipationCap = &s.participationx
			}
		}
		out = append(out, func(c *captable.Company, now time.Time) ([]kernel.Event, error) { return c.CreateClass(s.id, in, now) })
	}
	return out
}

// founderAndInvestorStock plans the founders' restricted common stock, the
// investors' preferred stock (a third of them in each series, bought at
// the series' closing) and warrants to some investors.
func (p *plan) founderAndInvestorStock() {
	for _, f := range p.founders {
		p.grant(founded, captable.GrantInput{StakeholderID: f, ShareClassID: p.class.common, GrantType: captable.GrantRestrictedStock,
			Quantity: num.Int(founderShares), VestingSchedule: cliff}, 0)
	}
	series := []struct {
		class string
		day   time.Time
	}{{p.class.seed, time.Date(2016, 9, 12, 0, 0, 0, 0, time.UTC)}, {p.class.seriesA, time.Date(2018, 5, 3, 0, 0, 0, 0, time.UTC)},
		{p.class.seriesB, time.Date(2021, 3, 22, 0, 0, 0, 0, time.UTC)}}
	per := int64(seriesShares*9/10) / int64((len(p.investors)+2)/3)
	for i, inv := range p.investors {
		s := series[i%3]
		if s.day.After(p.cutoff) {
			continue
		}
		p.grant(s.day, captable.GrantInput{StakeholderID: inv, ShareClassID: s.class, GrantType: captable.GrantRestrictedStock,
			Quantity: num.Int(per), VestingSchedule: immediate}, 0)
	}
	for i := range min(20, len(p.investors)) {
		day := p.between(founded.AddDate(2, 0, 0), p.cutoff)
		p.grant(day, captable.GrantInput{StakeholderID: p.investors[i], ShareClassID: p.class.warrants, GrantType: captable.GrantWarrant,
			Quantity: num.Int(100_000), StrikePrice: price(day.Year()), VestingSchedule: immediate}, 3)
	}
}

// staffGrant plans one grant to a staff member: an option (85%), an RSU
// (5%) or restricted common stock (10%), dated a year or more after the
// founding, and its lifecycle: accepted (81%), of which some are later
// exercised (6% of all grants) or terminated (5%); cancelled while pending
// (2%); still pending (17%). Options expire ten years after their grant.
func (p *plan) staffGrant(holder string) {
	day := p.between(founded.AddDate(1, 0, 0), p.cutoff)
	qty := int64(optionsPerGrant/16 + p.rng.IntN(optionsPerGrant))
	in := captable.GrantInput{StakeholderID: holder, Quantity: num.Int(qty), VestingSchedule: cliff}
	switch r := p.rng.IntN(100); {
	case r < 85:
		in.GrantType, in.ShareClassID, in.StrikePrice = captable.GrantOption, p.class.pool, price(day.Year())
		in.ExpirationDate = captable.DayOf(day.AddDate(10, 0, 0))
	case r < 90:
		in.GrantType, in.ShareClassID = captable.GrantRSU, p.class.pool
	default:
		in.GrantType, in.ShareClassID = captable.GrantRestrictedStock, p.class.common
	}
	fate := p.rng.IntN(100)
	if fate >= 81 {
		id := p.grant(day, in, -1)
		if fate < 83 {
			p.at(day.AddDate(0, 0, 5+p.rng.IntN(200)), func(c *captable.Company, on, today time.Time) ([]kernel.Event, error) {
				return c.Cancel(id, "declined", on, today)
			})
		}
		return
	}
	id := p.grant(day, in, 1+p.rng.IntN(30))
	switch {
	case fate < 70:
	case fate < 76 && in.GrantType != captable.GrantRestrictedStock:
		p.at(day.AddDate(0, 13+p.rng.IntN(48), 0), func(c *captable.Company, on, today time.Time) ([]kernel.Event, error) {
			return c.Exercise(id, num.Int(max(1, qty/8)), on, today)
		})
	case fate >= 76:
		p.at(day.AddDate(0, 2+p.rng.IntN(38), 0), func(c *captable.Company, on, today time.Time) ([]kernel.Event, error) {
			return c.Terminate(id, on, nil, today)
		})
	}
}

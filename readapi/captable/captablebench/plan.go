package captablebench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// decision is a dated command of the company's history, decided on the
// company's fold when its turn comes.
type decision func(c *captable.Company, today time.Time) ([]kernel.Event, error)

// step is one dated command. The seeder runs the steps in business-date
// order (ties in the order they were planned), so that every grant's
// lifecycle is recorded in the order it happened.
type step struct {
	day    time.Time
	decide decision
}

// classIDs are the share classes of the plan.
type classIDs struct{ common, seed, seriesA, seriesB, pool, warrants string }

// plan is the company's history before it is decided: the reference data
// (classes and stakeholders, undated) and the dated steps.
type plan struct {
	rng                        *rand.Rand
	newID                      func() string
	today, cutoff              time.Time // grants are dated up to cutoff
	class                      classIDs
	people                     []captable.StakeholderInput
	ids                        []string // the stakeholders' ids, in people's order
	founders, investors, staff []string
	grants                     int // grants planned
	steps                      []step
}

// founded is the company's first day; staff grants start a year later.
var founded = time.Date(2015, 3, 2, 0, 0, 0, 0, time.UTC)

// Shares of the plan.
const (
	founderShares   = 4_000_000
	optionsPerGrant = 8_000 // the largest staff grant is about this; the smallest a sixteenth of it
	seriesShares    = 100_000_000
)

// newPlan lays out a company of o.Stakeholders stakeholders and o.Grants
// grants: four founders with restricted common stock, investors holding
// three preferred series (restricted stock of those classes), warrants and
// SAFEs, yearly 409A valuations, and staff holding options (most), RSUs and
// restricted common stock with the lifecycle of a real company: most
// accepted, some exercised, terminated or cancelled, some still pending.
func newPlan(o Options, newID func() string, today time.Time) *plan {
	p := &plan{rng: rand.New(rand.NewPCG(2026, uint64(o.Grants))), newID: newID, today: today, cutoff: today.AddDate(0, -6, 0)}
	p.class = classIDs{newID(), newID(), newID(), newID(), newID(), newID()}
	investors := max(10, o.Stakeholders/50)
	for i := range o.Stakeholders {
		in := captable.StakeholderInput{Name: fmt.Sprintf("Person %05d", i), Email: fmt.Sprintf("person%05d@bench.example", i),
			Type: captable.StakeholderEmployee, Title: "Engineer"}
		id := newID()
		switch {
		case i < 4:
			in.Type, in.Title = captable.StakeholderFounder, "Founder"
			p.founders = append(p.founders, id)
		case i < 4+investors:
			in.Type, in.Title, in.Name = captable.StakeholderInvestor, "", fmt.Sprintf("Fund %05d LP", i)
			p.investors = append(p.investors, id)
		case i%100 == 7:
			in.Type, in.Title = captable.StakeholderAdvisor, "Advisor"
			p.staff = append(p.staff, id)
		case i%200 == 9:
			in.Type, in.Title = captable.StakeholderBoardMember, "Director"
			p.staff = append(p.staff, id)
		default:
			p.staff = append(p.staff, id)
		}
		p.people, p.ids = append(p.people, in), append(p.ids, id)
	}
	p.valuations()
	p.safes()
	p.founderAndInvestorStock()
	for i := 0; p.grants < o.Grants; i++ {
		p.staffGrant(p.staff[i%len(p.staff)])
	}
	slices.SortStableFunc(p.steps, func(a, b step) int { return a.day.Compare(b.day) })
	return p
}

func (p *plan) add(day time.Time, d decision) { p.steps = append(p.steps, step{day: day, decide: d}) }

// between returns a day uniformly between from and to (inclusive).
func (p *plan) between(from, to time.Time) time.Time {
	n := int(to.Sub(from).Hours() / 24)
	if n <= 0 {
		return from
	}
	return from.AddDate(0, 0, p.rng.IntN(n+1))
}

// price is the 409A price per common share in year y: ten cents in 2015,
// growing 35% a year, in whole cents.
func price(y int) num.Num {
	cents := int64(10)
	for range y - founded.Year() {
		cents = cents * 135 / 100
	}
	return num.Ratio(cents, 100)
}

// valuations plans a 409A valuation every year after the founding.
func (p *plan) valuations() {
	for y := founded.Year() + 1; ; y++ {
		day := time.Date(y, 1, 15, 0, 0, 0, 0, time.UTC)
		if day.After(p.cutoff) {
			return
		}
		id, in := p.newID(), captable.ValuationInput{ValuationDate: captable.DayOf(day), Methodology: "409A", PricePerShare: price(y)}
		p.add(day, func(c *captable.Company, today time.Time) ([]kernel.Event, error) {
			return c.RecordValuation(id, in, today)
		})
	}
}

// safes plans twenty SAFEs from investors: post-money with a cap, some with
// a discount, a few pre-money and MFN.
func (p *plan) safes() {
	for i := range 20 {
		day := p.between(founded.AddDate(0, 2, 0), p.cutoff)
		capv, disc := num.Int(int64(8+2*i)*1_000_000), num.Ratio(int64(i%3)*10, 100)
		in := captable.SAFEInput{InvestorID: p.investors[i%len(p.investors)], InvestmentAmount: num.Int(int64(250_000 + 50_000*i)),
			ValuationCap: &capv, DiscountRate: &disc, SafeType: captable.SAFEPostMoney, IssueDate: captable.DayOf(day)}
		switch i % 5 {
		case 3:
			in.SafeType = captable.SAFEPreMoney
		case 4:
			in.SafeType = captable.SAFEMFN
		}
		id := p.newID()
		p.add(day, func(c *captable.Company, today time.Time) ([]kernel.Event, error) { return c.IssueSAFE(id, in, today) })
	}
}

// grant plans a grant on day and its acceptance acceptAfter days later
// (none when negative); it returns the grant's id.
func (p *plan) grant(day time.Time, in captable.GrantInput, acceptAfter int) string {
	id := p.newID()
	in.GrantDate = captable.DayOf(day)
	p.grants++
	p.add(day, func(c *captable.Company, today time.Time) ([]kernel.Event, error) { return c.IssueGrant(id, in, today) })
	if acceptAfter >= 0 {
		p.at(day.AddDate(0, 0, acceptAfter), func(c *captable.Company, on, today time.Time) ([]kernel.Event, error) {
			return c.Accept(id, on, today)
		})
	}
	return id
}

// at plans a lifecycle step on day, unless day is after the bench's day;
// it reports whether it did.
func (p *plan) at(day time.Time, d func(c *captable.Company, on, today time.Time) ([]kernel.Event, error)) bool {
	if day.After(p.today) {
		return false
	}
	p.add(day, func(c *captable.Company, today time.Time) ([]kernel.Event, error) { return d(c, day, today) })
	return true
}

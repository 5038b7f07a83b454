package captable

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/domain/kernel"
)

// RoundInvestor is one new-money investor of a committed round.
type RoundInvestor struct {
	StakeholderID string  `json:"stakeholderId"`
	Amount        num.Num `json:"amount"`
}

// CommitInput is the body of POST /cap-table/dilution/commit: the modeled
// round's terms, who puts the money in, and the new series' terms. Absent
// series terms take a plain preferred's defaults (1x non-participating,
// seniority 1, broad-based weighted average anti-dilution).
type CommitInput struct {
	DilutionInput
	RoundName   string          `json:"roundName"`
	ClosingDate Day             `json:"closingDate"`
	Investors   []RoundInvestor `json:"investors"`
	// PricePerShare, when given, must equal the modeled price rounded to
	// six decimals: a guard against committing a round whose price moved
	// because the cap table changed since it was modeled.
	PricePerShare         *num.Num `json:"pricePerShare"`
	PoolShareClassID      string   `json:"poolShareClassId"`
	LiquidationPreference *num.Num `json:"liquidationPreference"`
	Participating         *bool    `json:"participating"`
	ParticipationCap      *num.Num `json:"participationCap"`
	Seniority             *int     `json:"seniority"`
	AntiDilution          *string  `json:"antiDilution"`
	AntiDilutionBase      *string  `json:"antiDilutionBase"`
}

// Committed is what CloseRound decided, for the response.
type Committed struct {
	RoundID          string            `json:"roundId"`
	ShareClassID     string            `json:"shareClassId"`
	PoolShareClassID string            `json:"poolShareClassId,omitempty"`
	ClosingDate      Day               `json:"closingDate"`
	Price            num.Num           `json:"price"`
	Model            rounds.Result     `json:"model"`
	Grants           []string          `json:"grants"`
	Adjustments      []AdjustedClass   `json:"adjustments"`
	Conversions      []SAFEConvertedTo `json:"conversions"`
}

// SAFEConvertedTo is one SAFE's conversion in a committed round.
type SAFEConvertedTo struct {
	SAFEID  string  `json:"safeId"`
	GrantID string  `json:"grantId"`
	Shares  num.Num `json:"shares"`
	Price   num.Num `json:"price"`
}

// ratioPlaces is how many decimals a committed price or conversion ratio
// keeps: prices and ratios are recorded as terminating decimals, rounded
// half away from zero at the 12th place; share counts are computed from the
// exact price and rounded down.
const ratioPlaces = num.MaxPlaces

// CloseRound turns a modeled round into the events of its closing, all on
// the closing date: the new series (ShareClassCreated, then SharesAuthorized
// for exactly what the round issues), the pool increase (SharesAuthorized,
// on a new pool if the company has none), one RESTRICTED_STOCK issuance per investor (floor(amount / price)
// shares) and per converting SAFE (SAFEConverted naming it), anti-dilution
// adjustments of earlier preferred classes priced above the round
// (ConversionAdjusted), and RoundClosed. newID mints the new ids.
func (c *Company) CloseRound(in CommitInput, newID func() string, today time.Time) ([]kernel.Event, Committed, error) {
	var out Committed
	day, err := c.closingDay(in.ClosingDate, today)
	if err != nil {
		return nil, out, err
	}
	res, err := c.ModelRound(day, in.DilutionInput)
	if err != nil {
		return nil, out, err
	}
	if err := c.checkInvestors(in, res.Price); err != nil {
		return nil, out, err
	}
	if in.PricePerShare != nil && !in.PricePerShare.Equal(res.PriceRounded) {
		return nil, out, conflict("pricePerShare", "price_changed", fmt.Sprintf(
			"the round now prices at %s, not %s: the cap table changed since the round was modeled", res.PriceRounded, *in.PricePerShare))
	}
	b := roundBuilder{c: c, in: in, res: res, day: day, newID: newID, seq: c.grantSeq}
	b.out = Committed{RoundID: newID(), ShareClassID: newID(), ClosingDate: DayOf(day), Price: res.Price.Round(ratioPlaces), Model: res,
		Grants: []string{}, Adjustments: []AdjustedClass{}, Conversions: []SAFEConvertedTo{}}
	if err := b.series(); err != nil {
		return nil, out, err
	}
	if err := b.pool(); err != nil {
		return nil, out, err
	}
	b.issue()
	if err := b.antiDilution(); err != nil {
		return nil, out, err
	}
	b.evs = append(b.evs, &RoundClosed{RoundID: b.out.RoundID, Name: b.name(), ShareClassID: b.out.ShareClassID, Price: b.out.Price,
		RoundSize: in.RoundSize, PreMoneyValuation: in.PreMoneyValuation, PostMoneyValuation: res.PostMoneyValuation.Round(2),
		PoolIncrease: res.PoolIncrease, Convention: conventionOr(in.PricingConvention), ConventionNaming: ConventionNamingCooley, On: day})
	return b.evs, b.out, nil
}

// closingDay validates the closing date: not in the future, and not before
// a transaction already recorded (the round is modeled on the cap table as
// it stands after every recorded transaction).
func (c *Company) closingDay(d Day, today time.Time) (time.Time, error) {
	if d.IsZero() {
		return today, nil
	}
	if d.After(today) {
		return time.Time{}, kernel.Invalid("closingDate", "not_future", "closingDate must not be in the future")
	}
	if last := c.lastTransaction(); d.Before(last) {
		return time.Time{}, kernel.Invalid("closingDate", "after_last_transaction", fmt.Sprintf(
			"closingDate (%s) must not be before the last recorded transaction (%s)", d, last.Format(time.DateOnly)))
	}
	return d.Time, nil
}

// lastTransaction is the latest business date among grants, SAFEs and rounds.
func (c *Company) lastTransaction() time.Time {
	var last time.Time
	later := func(t time.Time) {
		if t.After(last) {
			last = t
		}
	}
	for _, g := range c.Grants {
		later(g.LastDate)
	}
	for _, s := range c.SAFEs {
		later(s.IssueDate)
		if s.Elected != nil {
			later(s.Elected.On)
		}
	}
	for _, r := range c.Rounds {
		later(r.On)
	}
	return DayOf(last).Time
}

// checkInvestors: at least one, each a stakeholder of the company with an
// amount that buys at least one share at the round's price, the amounts
// adding up to the round size exactly.
func (c *Company) checkInvestors(in CommitInput, price num.Num) error {
	if len(in.Investors) == 0 {
		return kernel.Invalid("investors", "required", "investors is required: who puts the round's money in ({stakeholderId, amount})")
	}
	total := num.Zero
	for i, inv := range in.Investors {
		field := fmt.Sprintf("investors[%d]", i)
		if _, err := c.Stakeholder(inv.StakeholderID); err != nil || c.Stakeholders[inv.StakeholderID].Removed {
			return kernel.Invalid(field+".stakeholderId", "exists", field+".stakeholderId names no stakeholder of this company")
		}
		if err := positive(field+".amount", inv.Amount); err != nil {
			return err
		}
		if inv.Amount.Div(price).Floor().IsZero() {
			return kernel.Invalid(field+".amount", "at_least_one_share",
				fmt.Sprintf("%s.amount buys no whole share at the round's price of %s", field, price.Round(ratioPlaces)))
		}
		total = total.Add(inv.Amount)
	}
	if !total.Equal(in.RoundSize) {
		return kernel.Invalid("investors", "sum_equals_round_size",
			fmt.Sprintf("the investors' amounts add up to %s, not the roundSize %s", total, in.RoundSize))
	}
	return nil
}

func conventionOr(c string) string {
	if c == "" {
		return rounds.DefaultConvention
	}
	return c
}

// roundBuilder accumulates a closing's events.
type roundBuilder struct {
	c     *Company
	in    CommitInput
	res   rounds.Result
	day   time.Time
	newID func() string
	seq   int
	evs   []kernel.Event
	out   Committed
}

func (b *roundBuilder) name() string {
	if n := strings.TrimSpace(b.in.RoundName); n != "" {
		return n
	}
	return strings.TrimSpace(b.in.NewShareClassName)
}

// series creates the new preferred class (reference data, authorized for
// nothing) and authorizes, on the closing date, exactly the shares the
// round issues (new money and conversions).
func (b *roundBuilder) series() error {
	issued := num.Zero
	for _, inv := range b.in.Investors {
		issued = issued.Add(inv.Amount.Div(b.res.Price).Floor())
	}
	for _, cv := range b.res.Conversions {
		issued = issued.Add(cv.Shares)
	}
	cl := ShareClass{ID: b.out.ShareClassID, Name: strings.TrimSpace(b.in.NewShareClassName), Type: ClassPreferred,
		TotalShares: issued, PricePerShare: b.out.Price, LiquidationPreference: num.Int(1), ConversionRatio: num.Int(1),
		Seniority: 1, AntiDilution: AntiDilutionBroadBased, At: b.day}
	in := ClassInput{LiquidationPreference: b.in.LiquidationPreference, Participating: b.in.Participating,
		ParticipationCap: b.in.ParticipationCap, Seniority: b.in.Seniority, AntiDilution: b.in.AntiDilution,
		AntiDilutionBase: b.in.AntiDilutionBase}
	return renamed(b.create(in.merge(cl)), "name", "newShareClassName")
}

// create records a new class authorized on the closing date.
func (b *roundBuilder) create(cl ShareClass) error {
	if err := b.c.checkClass(cl); err != nil {
		return err
	}
	total := cl.TotalShares
	cl.TotalShares = num.Zero
	b.evs = append(b.evs, &ShareClassCreated{cl}, &SharesAuthorized{ShareClassID: cl.ID, RoundID: b.out.RoundID, Increase: total, On: b.day})
	return nil
}

// pool adds the round's pool increase to the named pool, the company's
// first pool, or a new one, on the closing date.
func (b *roundBuilder) pool() error {
	inc := b.res.PoolIncrease
	if inc.Sign() <= 0 {
		if b.in.PoolShareClassID != "" {
			return kernel.Invalid("poolShareClassId", "no_increase", "poolShareClassId applies only to a round that increases the pool")
		}
		return nil
	}
	var pool *ClassState
	if id := b.in.PoolShareClassID; id != "" {
		if pool = b.c.Classes[id]; pool == nil || pool.Type != ClassPool {
			return kernel.Invalid("poolShareClassId", "pool_class", "poolShareClassId must name an OPTIONS_POOL class of this company")
		}
	} else {
		for _, id := range b.c.ClassOrder {
			if cl := b.c.Classes[id]; cl.Type == ClassPool {
				pool = cl
				break
			}
		}
	}
	if pool == nil {
		b.out.PoolShareClassID = b.newID()
		return renamed(b.create(ShareClass{ID: b.out.PoolShareClassID, Name: b.name() + " option pool", Type: ClassPool, TotalShares: inc,
			ConversionRatio: num.Int(1), Seniority: 1, AntiDilution: AntiDilutionNone, At: b.day}), "name", "roundName")
	}
	b.out.PoolShareClassID = pool.ID
	b.evs = append(b.evs, &SharesAuthorized{ShareClassID: pool.ID, RoundID: b.out.RoundID, Increase: inc, On: b.day})
	return nil
}

// issue records the new series' stock: one issuance per investor, one per
// converting SAFE (with its SAFEConverted).
func (b *roundBuilder) issue() {
	for _, inv := range b.in.Investors {
		b.stock(inv.StakeholderID, inv.Amount.Div(b.res.Price).Floor(), b.out.Price, "Purchased in "+b.name())
	}
	for _, cv := range b.res.Conversions {
		price := cv.Price.Round(ratioPlaces)
		gid := b.stock(cv.InvestorID, cv.Shares, price, "Converted from SAFE in "+b.name())
		b.evs = append(b.evs, &SAFEConverted{SAFEID: cv.SAFEID, RoundID: b.out.RoundID, ShareClassID: b.out.ShareClassID,
			GrantID: gid, Shares: cv.Shares, Price: price, Basis: cv.Basis, On: b.day})
		b.out.Conversions = append(b.out.Conversions, SAFEConvertedTo{SAFEID: cv.SAFEID, GrantID: gid, Shares: cv.Shares, Price: price})
	}
}

// stock appends a fully vested RESTRICTED_STOCK issuance of the new series.
func (b *roundBuilder) stock(holder string, shares, price num.Num, notes string) string {
	id := b.newID()
	b.evs = append(b.evs, &GrantIssued{Grant{ID: id, GrantNumber: b.nextNumber(), StakeholderID: holder,
		ShareClassID: b.out.ShareClassID, GrantType: GrantRestrictedStock, Quantity: shares, StrikePrice: price,
		VestingSchedule: vesting.Immediate, VestingStartDate: b.day, VestingRounding: vesting.CumulativeRoundDown, GrantDate: b.day, Notes: notes}})
	b.out.Grants = append(b.out.Grants, id)
	return id
}

// nextNumber is the next free sequential grant number.
func (b *roundBuilder) nextNumber() string {
	for {
		b.seq++
		n := fmt.Sprintf("G-%04d", b.seq)
		if !b.c.grantNumberUsed(n) {
			return n
		}
	}
}

func (c *Company) grantNumberUsed(n string) bool {
	_, ok := c.byNumber[n]
	return ok
}

// renamed reports a refusal of field from under another field name (the
// request's name for what the decision checked).
func renamed(err error, from, to string) error {
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Field == from {
		e := *ke
		e.Field = to
		return &e
	}
	return err
}

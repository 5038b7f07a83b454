package captable

import (
	"errors"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/waterfall"
	"github.com/strata-platform/strata/domain/kernel"
)

// Which awards take part in an exit waterfall.
const (
	AwardsAllOutstanding = "ALL_OUTSTANDING" // every outstanding award, as if fully accelerated
	AwardsVested         = "VESTED"          // vested units only
	AwardsNone           = "NONE"
)

// WaterfallInput is the body of POST /cap-table/waterfall.
type WaterfallInput struct {
	ExitValue          num.Num  `json:"exitValue"`
	Debt               num.Num  `json:"debt"`
	TransactionCosts   num.Num  `json:"transactionCosts"`
	Awards             string   `json:"awards"`
	IncludeBreakpoints *bool    `json:"includeBreakpoints"`
	MaxExitValue       *num.Num `json:"maxExitValue"`
	// Round, when given, is a priced round closed (on a private copy)
	// before the exit: its new series, conversions and pool increase take
	// part in the waterfall.
	Round *CommitInput `json:"round"`
}

// ExitInput builds the waterfall's input from the company as of day:
// every common and preferred class with its holders, and the outstanding
// awards (options, RSUs at strike 0, warrants) as the caller asks.
func (c *Company) ExitInput(day time.Time, in WaterfallInput) (waterfall.Input, error) {
	mode := in.Awards
	if mode == "" {
		mode = AwardsAllOutstanding
	}
	if err := oneOf("awards", mode, []string{AwardsAllOutstanding, AwardsVested, AwardsNone}); err != nil {
		return waterfall.Input{}, err
	}
	out := waterfall.Input{ExitValue: in.ExitValue, Debt: in.Debt, TransactionCosts: in.TransactionCosts}
	holdings := map[string]map[string]num.Num{} // class -> holder -> shares
	add := func(class, holder string, n num.Num) {
		if holdings[class] == nil {
			holdings[class] = map[string]num.Num{}
		}
		holdings[class][holder] = holdings[class][holder].Add(n)
	}
	for _, id := range c.GrantOrder {
		g := c.Grants[id]
		if IsStock(g.GrantType) {
			add(g.ShareClassID, g.StakeholderID, g.Outstanding())
		} else {
			c.addAward(&out, g, day, mode)
		}
		if !g.Exercised.IsZero() {
			add(g.UnderlyingShareClassID, g.StakeholderID, g.Exercised)
		}
	}
	for _, id := range c.ClassOrder {
		cl := c.Classes[id]
		if cl.Type != ClassCommon && cl.Type != ClassPreferred {
			continue
		}
		wc := waterfall.Class{ID: cl.ID, Name: cl.Name, Preferred: cl.Type == ClassPreferred}
		for _, sid := range c.StakeholderOrder {
			if n := holdings[cl.ID][sid]; n.Sign() > 0 {
				wc.Holders = append(wc.Holders, waterfall.Holding{HolderID: sid, Shares: n})
				wc.Shares = wc.Shares.Add(n)
			}
		}
		if wc.Preferred {
			wc.IssuePrice, wc.PreferenceMultiple, wc.ConversionRatio = cl.PricePerShare, cl.LiquidationPreference, cl.ratio()
			wc.Participating, wc.ParticipationCap, wc.Seniority = cl.Participating, cl.ParticipationCap, cl.Seniority
		}
		out.Classes = append(out.Classes, wc)
	}
	if len(out.Awards) > waterfall.MaxAwards {
		return out, kernel.Invalid("awards", "too_many", "the company has more award groups than the waterfall takes; use awards NONE or VESTED")
	}
	return out, nil
}

// addAward adds a grant's outstanding (or vested) units as an award.
func (c *Company) addAward(out *waterfall.Input, g *GrantState, day time.Time, mode string) {
	if mode == AwardsNone {
		return
	}
	qty := g.Outstanding().Sub(g.LapsedAt(day))
	if mode == AwardsVested && g.Termination == nil {
		qty = num.Min(qty, g.Schedule().VestedAt(day).Sub(g.Exercised))
	}
	if qty.Sign() > 0 {
		out.Awards = append(out.Awards, waterfall.Award{ID: g.ID, HolderID: g.StakeholderID, Quantity: qty, Strike: g.StrikePrice})
	}
}

// ApplyRound closes a modeled round on c, which must be a private fold (a
// replay, never the command side's company): the cap table of "an exit after
// this round". Without investors the new money is one holder, "New
// investors". Refusals name their field under "round.".
func (c *Company) ApplyRound(in CommitInput, today time.Time) (Committed, error) {
	n := 0
	newID := func() string { n++; return fmt.Sprintf("modeled-%d", n) }
	if len(in.Investors) == 0 {
		id := newID()
		c.Apply(&StakeholderAdded{Stakeholder{ID: id, Name: "New investors", Type: StakeholderInvestor}})
		in.Investors = []RoundInvestor{{StakeholderID: id, Amount: in.RoundSize}}
	}
	evs, out, err := c.CloseRound(in, newID, today)
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Field != "" {
		e := *ke
		e.Field = "round." + e.Field
		return out, &e
	}
	if err != nil {
		return out, err
	}
	for _, e := range evs {
		c.Apply(e)
	}
	return out, nil
}

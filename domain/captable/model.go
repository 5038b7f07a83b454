package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
)

// DilutionInput is the body of POST /cap-table/dilution: a priced round to
// model on the current cap table. Every unconverted SAFE converts in it.
type DilutionInput struct {
	RoundSize               num.Num  `json:"roundSize"`
	PreMoneyValuation       num.Num  `json:"preMoneyValuation"`
	NewShareClassName       string   `json:"newShareClassName"`
	OptionPoolTargetPercent *num.Num `json:"optionPoolTargetPercent"`
	OptionPoolIncrease      *num.Num `json:"optionPoolIncrease"`
	PricingConvention       string   `json:"pricingConvention"`
}

// RoundInput builds the round model's input from the company as of day:
// every stakeholder's fully diluted holding and the unallocated pool (row
// "pool") before the round, and every SAFE not yet converted with the
// terms it converts with (an MFN's elected terms).
func (c *Company) RoundInput(day time.Time, in DilutionInput) rounds.Round {
	s := c.Summary(day)
	r := rounds.Round{RoundSize: in.RoundSize, PreMoneyValuation: in.PreMoneyValuation, NewShareClassName: in.NewShareClassName,
		PoolTargetPercent: in.OptionPoolTargetPercent, PoolIncrease: in.OptionPoolIncrease, Convention: in.PricingConvention,
		AvailablePool: s.UnallocatedPool}
	for _, h := range s.Holders {
		r.PreFD = append(r.PreFD, rounds.Holder{ID: h.ID, Name: h.Name, Shares: h.Shares})
	}
	if s.UnallocatedPool.Sign() > 0 {
		r.PreFD = append(r.PreFD, rounds.Holder{ID: rounds.PoolID, Name: "Unallocated pool", Shares: s.UnallocatedPool})
	}
	for _, id := range c.SAFEOrder {
		sf := c.SAFEs[id]
		if sf.Converted != nil || sf.IssueDate.After(day) {
			continue
		}
		t := sf.Effective()
		rs := rounds.SAFE{ID: sf.ID, InvestorID: sf.InvestorID, Type: sf.SafeType, Amount: sf.InvestmentAmount,
			Cap: t.ValuationCap, Discount: t.DiscountRate}
		if st := c.Stakeholders[sf.InvestorID]; st != nil {
			rs.InvestorName = st.Name
		}
		if sf.SafeType == SAFEMFN && sf.Elected != nil {
			rs.ElectedType = t.SafeType
			if rs.ElectedType == SAFEMFN {
				rs.ElectedType = SAFEPostMoney
			}
		}
		r.SAFEs = append(r.SAFEs, rs)
	}
	return r
}

// ModelRound solves the round in on the company as of day.
func (c *Company) ModelRound(day time.Time, in DilutionInput) (rounds.Result, error) {
	return SolveRound(c.RoundInput(day, in))
}

// SolveRound solves a round built by RoundInput. A company with no shares
// yet has nothing to price a round on (409).
func SolveRound(r rounds.Round) (rounds.Result, error) {
	if len(r.PreFD) == 0 {
		return rounds.Result{}, conflict("", "no_holders", "the company has no issued shares, awards or pool yet: there is nothing to price a round on")
	}
	return rounds.Model(r)
}

package rounds

import (
	"fmt"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// SAFE types.
const (
	TypePreMoney  = "PRE_MONEY"  // pre-money valuation cap: cap price = Cap / (F + P)
	TypePostMoney = "POST_MONEY" // post-money valuation cap: cap price = Cap / (F + S)
	TypeMFN       = "MFN"        // most favoured nation: converts with elected terms, else at p
)

// Conventions: where converting SAFEs sit when the round is priced.
const (
	ConventionPreMoney         = "PRE_MONEY"         // p = PreMoney / (F + P): SAFE shares on top
	ConventionPercentOwnership = "PERCENT_OWNERSHIP" // p = PreMoney / (F + P + S), the default
	ConventionDollarsInvested  = "DOLLARS_INVESTED"  // p = (PreMoney + sum of SAFE amounts) / (F + P + S)

	// DefaultConvention is the convention of a round that names none: the
	// percentage-ownership method, where the new money owns exactly
	// RoundSize / (PreMoney + RoundSize), as in YC's post-money SAFE guide.
	DefaultConvention = ConventionPercentOwnership
)

// Reserved holder IDs in Result.Holders (and, for PoolID, in Round.PreFD).
const (
	// PoolID identifies the unallocated option pool: the Round.PreFD row with
	// this ID is the existing pool, and its shares must equal AvailablePool.
	PoolID = "pool"
	// NewMoneyID identifies the new-money investors in Result.Holders.
	NewMoneyID = "new-money"
)

// Holder is one row of the pre-round fully diluted cap table: a
// stakeholder's holdings, or the unallocated pool (ID PoolID).
type Holder struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Shares num.Num `json:"shares"`
}

// SAFE is one SAFE that converts in the round.
type SAFE struct {
	ID         string `json:"id"`
	InvestorID string `json:"investorId"`
	// InvestorName names the investor in Result.Holders; empty falls back
	// to InvestorID.
	InvestorName string  `json:"investorName,omitempty"`
	Type         string  `json:"safeType"`         // TypePreMoney, TypePostMoney or TypeMFN
	Amount       num.Num `json:"investmentAmount"` // money invested, > 0
	Cap          num.Num `json:"valuationCap"`     // valuation cap; zero means none
	Discount     num.Num `json:"discountRate"`     // fraction in [0, 1); zero means none
	// ElectedType is, for an MFN whose holder elected a later SAFE's terms
	// (already applied in Cap and Discount), that SAFE's type: TypePreMoney
	// or TypePostMoney. It is empty for an MFN without election (which then
	// must carry no cap and no discount) and for every other type.
	ElectedType string `json:"electedType,omitempty"`
}

// Round is the input of Model: the round's terms and the pre-round table.
type Round struct {
	RoundSize         num.Num `json:"roundSize"`
	PreMoneyValuation num.Num `json:"preMoneyValuation"`
	NewShareClassName string  `json:"newShareClassName"`
	// PreFD is the pre-round fully diluted table including the unallocated
	// pool row (ID PoolID); every row's shares are positive.
	PreFD []Holder `json:"preFullyDiluted"`
	// AvailablePool is the unallocated pool, also counted in PreFD.
	AvailablePool num.Num `json:"availablePool"`
	// PoolTargetPercent, if set, is the unallocated pool's target share of
	// the post-money fully diluted shares, in percent (10 = 10%).
	PoolTargetPercent *num.Num `json:"optionPoolTargetPercent,omitempty"`
	// PoolIncrease, if set, is an absolute number of new pool shares. It is
	// mutually exclusive with PoolTargetPercent.
	PoolIncrease *num.Num `json:"optionPoolIncrease,omitempty"`
	// Convention is ConventionPercentOwnership (the default when empty),
	// ConventionPreMoney or ConventionDollarsInvested.
	Convention string `json:"pricingConvention,omitempty"`
	SAFEs      []SAFE `json:"safes,omitempty"`
}

// convention returns r's convention with the default applied.
func (r Round) convention() string {
	if r.Convention == "" {
		return DefaultConvention
	}
	return r.Convention
}

// Validate reports the first field that breaks a rule, as a *kernel.Error of
// kind invalid naming the API field (camelCase) and the rule. It checks each
// field on its own terms (and that post-money SAFEs own less than 100%); terms
// that are valid field by field but have no solution together are refused by
// Model (rule "feasible").
func (r Round) Validate() error {
	if r.RoundSize.Sign() <= 0 {
		return kernel.Invalid("roundSize", "positive", "roundSize must be positive")
	}
	if r.PreMoneyValuation.Sign() <= 0 {
		return kernel.Invalid("preMoneyValuation", "positive", "preMoneyValuation must be positive")
	}
	if err := r.validateHolders(); err != nil {
		return err
	}
	if err := r.validatePool(); err != nil {
		return err
	}
	switch r.convention() {
	case ConventionPreMoney, ConventionPercentOwnership, ConventionDollarsInvested:
	default:
		return kernel.Invalid("pricingConvention", "one_of",
			fmt.Sprintf("pricingConvention must be one of PRE_MONEY, PERCENT_OWNERSHIP, DOLLARS_INVESTED, not %q", r.Convention))
	}
	postMoneyOwnership := num.Zero
	for i, s := range r.SAFEs {
		if err := validateSAFE(i, s); err != nil {
			return err
		}
		if t := s.capType(); t == TypePostMoney && s.Cap.Sign() > 0 {
			postMoneyOwnership = postMoneyOwnership.Add(s.Amount.Div(s.Cap))
			if postMoneyOwnership.Cmp(num.Int(1)) >= 0 {
				f := fmt.Sprintf("safes[%d].valuationCap", i)
				return kernel.Invalid(f, "range", f+" is too low: the post-money SAFEs' amounts divided by their valuation caps add up to 100% or more")
			}
		}
	}
	return nil
}

func (r Round) validateHolders() error {
	if len(r.PreFD) == 0 {
		return kernel.Invalid("preFullyDiluted", "required", "preFullyDiluted must list at least one holder")
	}
	seen := make(map[string]bool, len(r.PreFD))
	for i, h := range r.PreFD {
		f := fmt.Sprintf("preFullyDiluted[%d]", i)
		switch {
		case h.ID == "":
			return kernel.Invalid(f+".id", "required", f+".id is required")
		case h.ID == NewMoneyID:
			return kernel.Invalid(f+".id", "reserved", f+".id must not be the reserved id "+NewMoneyID)
		case seen[h.ID]:
			return kernel.Invalid(f+".id", "unique", f+".id repeats holder id "+h.ID)
		case h.Shares.Sign() <= 0:
			return kernel.Invalid(f+".shares", "positive", f+".shares must be positive")
		}
		seen[h.ID] = true
	}
	return nil
}

func (r Round) validatePool() error {
	if r.AvailablePool.Sign() < 0 {
		return kernel.Invalid("availablePool", "non_negative", "availablePool must not be negative")
	}
	row := num.Zero
	for _, h := range r.PreFD {
		if h.ID == PoolID {
			row = h.Shares
		}
	}
	if !row.Equal(r.AvailablePool) {
		return kernel.Invalid("availablePool", "matches_pool_row",
			"availablePool must equal the shares of the preFullyDiluted row with id "+PoolID+" (zero when there is none)")
	}
	if r.PoolTargetPercent != nil && r.PoolIncrease != nil {
		return kernel.Invalid("optionPoolIncrease", "mutually_exclusive",
			"optionPoolIncrease and optionPoolTargetPercent are mutually exclusive: give one")
	}
	if t := r.PoolTargetPercent; t != nil && (t.Sign() <= 0 || t.Cmp(num.Int(100)) >= 0) {
		return kernel.Invalid("optionPoolTargetPercent", "range", "optionPoolTargetPercent must be above 0 and below 100")
	}
	if p := r.PoolIncrease; p != nil && p.Sign() < 0 {
		return kernel.Invalid("optionPoolIncrease", "non_negative", "optionPoolIncrease must not be negative")
	}
	return nil
}

func validateSAFE(i int, s SAFE) error {
	f := fmt.Sprintf("safes[%d]", i)
	switch s.Type {
	case TypePreMoney, TypePostMoney, TypeMFN:
	default:
		return kernel.Invalid(f+".safeType", "one_of",
			fmt.Sprintf("%s.safeType must be one of PRE_MONEY, POST_MONEY, MFN, not %q", f, s.Type))
	}
	switch {
	case s.InvestorID == "":
		return kernel.Invalid(f+".investorId", "required", f+".investorId is required")
	case s.InvestorID == PoolID || s.InvestorID == NewMoneyID:
		return kernel.Invalid(f+".investorId", "reserved", f+".investorId must not be a reserved id ("+PoolID+", "+NewMoneyID+")")
	case s.Amount.Sign() <= 0:
		return kernel.Invalid(f+".investmentAmount", "positive", f+".investmentAmount must be positive")
	case s.Cap.Sign() < 0:
		return kernel.Invalid(f+".valuationCap", "non_negative", f+".valuationCap must not be negative (zero means no cap)")
	case s.Discount.Sign() < 0 || s.Discount.Cmp(num.Int(1)) >= 0:
		return kernel.Invalid(f+".discountRate", "range", f+".discountRate must be at least 0 and below 1 (0.2 = 20%)")
	}
	if s.Type != TypeMFN {
		if s.ElectedType != "" {
			return kernel.Invalid(f+".electedType", "not_allowed", f+".electedType is only for MFN SAFEs")
		}
		return nil
	}
	switch s.ElectedType {
	case TypePreMoney, TypePostMoney:
	case "":
		if s.Cap.Sign() != 0 || s.Discount.Sign() != 0 {
			return kernel.Invalid(f+".electedType", "required",
				f+".electedType (PRE_MONEY or POST_MONEY) is required for an MFN SAFE with elected valuationCap or discountRate")
		}
	default:
		return kernel.Invalid(f+".electedType", "one_of",
			fmt.Sprintf("%s.electedType must be PRE_MONEY or POST_MONEY, not %q", f, s.ElectedType))
	}
	return nil
}

// capType is the type deciding s's cap formula: its own type, or for an MFN
// the elected type ("" without election).
func (s SAFE) capType() string {
	if s.Type == TypeMFN {
		return s.ElectedType
	}
	return s.Type
}

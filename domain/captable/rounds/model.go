package rounds

import "github.com/strata-platform/strata/domain/captable/num"

// PriceDecimals is the number of decimals of Result.PriceRounded.
const PriceDecimals = 6

// Conversion is how one SAFE converted. Price is its exact conversion price
// (the lowest its terms offer, on Basis), SharesExact = Amount / Price, and
// Shares is SharesExact rounded down.
type Conversion struct {
	SAFEID      string  `json:"safeId"`
	InvestorID  string  `json:"investorId"`
	Type        string  `json:"safeType"`
	Basis       string  `json:"basis"` // BasisCap, BasisDiscount or BasisRoundPrice
	Amount      num.Num `json:"investmentAmount"`
	Price       num.Num `json:"price"`
	SharesExact num.Num `json:"sharesExact"`
	Shares      num.Num `json:"shares"`
}

// Ownership is one holder before and after the round. SharesBefore and
// SharesAfter are whole shares as held and issued (each issued piece rounded
// down); OwnershipBefore is SharesBefore over the pre-round fully diluted
// total, and OwnershipAfter is the holder's exact (unrounded) post-round
// shares over Result.PostMoneySharesExact, so the OwnershipAfter of all
// holders add up to exactly 1. StakeholderID repeats ID for a stakeholder's
// row (a pre-round holder or a SAFE investor) and is empty for the pool and
// the new money.
type Ownership struct {
	ID              string  `json:"id"`
	Name            string  `json:"name"`
	StakeholderID   string  `json:"stakeholderId,omitempty"`
	SharesBefore    num.Num `json:"sharesBefore"`
	SharesAfter     num.Num `json:"sharesAfter"`
	OwnershipBefore num.Num `json:"ownershipBefore"`
	OwnershipAfter  num.Num `json:"ownershipAfter"`
}

// Result is the solved round. Every "Exact" figure is the exact solution of
// the model (see the package documentation); the figure without the suffix
// is it rounded down to whole shares.
type Result struct {
	Price             num.Num      `json:"price"`             // exact round price p
	PriceRounded      num.Num      `json:"priceRounded"`      // p to 6 decimals, halves away from zero
	NewSharesExact    num.Num      `json:"newSharesExact"`    // N = RoundSize / p
	NewShares         num.Num      `json:"newShares"`         // floor(N)
	PoolIncreaseExact num.Num      `json:"poolIncreaseExact"` // P
	PoolIncrease      num.Num      `json:"poolIncrease"`      // floor(P)
	Conversions       []Conversion `json:"conversions"`       // one per SAFE, in input order
	// PreMoneyShares is F, the pre-round fully diluted total.
	PreMoneyShares num.Num `json:"preMoneyShares"`
	// PostMoneySharesExact is F + P + S + N.
	PostMoneySharesExact num.Num `json:"postMoneySharesExact"`
	// PostMoneyShares is F plus the rounded-down pieces (N, P, each S_i), so
	// PostMoneySharesExact - pieces < PostMoneyShares <= PostMoneySharesExact.
	PostMoneyShares num.Num `json:"postMoneyShares"`
	// PostMoneyValuation is p * PostMoneySharesExact.
	PostMoneyValuation num.Num `json:"postMoneyValuation"`
	// CompanyCapitalization is F + S, the post-money SAFE capitalization.
	CompanyCapitalization num.Num `json:"companyCapitalization"`
	// NewClassOwnership is NewSharesExact / PostMoneySharesExact.
	NewClassOwnership num.Num `json:"newClassOwnership"`
	// Holders lists every PreFD holder in input order (the pool row with
	// this round's increase added), then SAFE investors not already in
	// PreFD (several SAFEs of one investor summed; an investor already in
	// PreFD gets the conversion added to that row), then the new-money
	// investors (ID NewMoneyID), then the pool (ID PoolID) if PreFD had no
	// pool row and the round adds one.
	Holders []Ownership `json:"holders"`
}

// Model validates r and solves its round exactly. Invalid input returns the
// *kernel.Error of Validate. Terms with no solution (the SAFEs, the pool
// target and the new money would take the whole company, so no positive
// price exists) return an invalid-kind *kernel.Error with field
// "preMoneyValuation" and rule "feasible". An internal-kind *kernel.Error is
// returned only if the search cannot decide (more SAFEs with a cap and a
// choice of price than it can search exhaustively, after the fixed-point
// iteration failed).
func Model(r Round) (Result, error) {
	if err := r.Validate(); err != nil {
		return Result{}, err
	}
	m := newModel(r)
	sol, g, err := m.solve()
	if err != nil {
		return Result{}, err
	}
	p, total := sol.price(), sol.safeTotal()
	res := Result{
		Price:                 p,
		PriceRounded:          p.Round(PriceDecimals),
		NewSharesExact:        sol.newShares,
		NewShares:             sol.newShares.Floor(),
		PoolIncreaseExact:     sol.pool,
		PoolIncrease:          sol.pool.Floor(),
		Conversions:           make([]Conversion, len(r.SAFEs)),
		PreMoneyShares:        m.f,
		PostMoneySharesExact:  num.Sum(m.f, sol.pool, total, sol.newShares),
		CompanyCapitalization: m.f.Add(total),
	}
	rounded := num.Sum(m.f, res.NewShares, res.PoolIncrease)
	for i, s := range r.SAFEs {
		c := Conversion{
			SAFEID:      s.ID,
			InvestorID:  s.InvestorID,
			Type:        s.Type,
			Basis:       g.basis[i],
			Amount:      s.Amount,
			Price:       m.conversionPrice(s, g.basis[i], p, sol.pool, total),
			SharesExact: sol.safes[i],
			Shares:      sol.safes[i].Floor(),
		}
		res.Conversions[i] = c
		rounded = rounded.Add(c.Shares)
	}
	res.PostMoneyShares = rounded
	res.PostMoneyValuation = p.Mul(res.PostMoneySharesExact)
	res.NewClassOwnership = sol.newShares.Div(res.PostMoneySharesExact)
	res.Holders = holders(r, res)
	return res, nil
}

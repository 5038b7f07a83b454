package rounds

import "github.com/strata-platform/strata/domain/captable/num"

// Conversion bases: the price a SAFE converted at.
const (
	BasisCap        = "CAP"         // the valuation cap's price
	BasisDiscount   = "DISCOUNT"    // (1 - discount) * round price
	BasisRoundPrice = "ROUND_PRICE" // the round price itself
)

// candidates lists the bases s may convert at, in tie-break order: the cap
// when it has one; the discount when it has one, else the round price (a
// discount price is always below the round price, so the round price can
// win only without a discount).
func candidates(s SAFE) []string {
	var c []string
	if s.Cap.Sign() > 0 {
		c = append(c, BasisCap)
	}
	if s.Discount.Sign() > 0 {
		return append(c, BasisDiscount)
	}
	return append(c, BasisRoundPrice)
}

// conversionPrice is s's price on basis, given the round price p, the pool
// increase and the total SAFE shares.
func (m model) conversionPrice(s SAFE, basis string, p, pool, safeTotal num.Num) num.Num {
	switch basis {
	case BasisDiscount:
		return num.Int(1).Sub(s.Discount).Mul(p)
	case BasisCap:
		if s.capType() == TypePostMoney {
			return s.Cap.Div(m.f.Add(safeTotal)) // Company Capitalization, without this round's pool
		}
		return s.Cap.Div(m.f.Add(pool)) // pre-money capitalization, with the new pool
	default:
		return p
	}
}

// bestBasis returns the basis giving s its lowest price (most shares) in
// sol; current wins ties, then the candidates' order.
func (m model) bestBasis(s SAFE, current string, sol solution) string {
	p, total := sol.price(), sol.safeTotal()
	best := current
	bestPrice := m.conversionPrice(s, current, p, sol.pool, total)
	for _, b := range candidates(s) {
		if price := m.conversionPrice(s, b, p, sol.pool, total); price.Less(bestPrice) {
			best, bestPrice = b, price
		}
	}
	return best
}

// safeRow fills row (length size()+1) with SAFE i's equation on basis:
//
//	ROUND_PRICE: S_i - a*x = 0
//	DISCOUNT:    S_i - a/(1-d)*x = 0
//	CAP (post):  S_i - a/c*(S_1+...+S_n) = a/c*F
//	CAP (pre):   S_i - a/c*P = a/c*F
func (m model) safeRow(i int, s SAFE, basis string, row []num.Num) []num.Num {
	n := m.size()
	row[iS0+i] = num.Int(1)
	switch basis {
	case BasisRoundPrice:
		row[ix] = s.Amount.Neg()
	case BasisDiscount:
		row[ix] = s.Amount.Div(num.Int(1).Sub(s.Discount)).Neg()
	case BasisCap:
		k := s.Amount.Div(s.Cap)
		row[n] = k.Mul(m.f)
		if s.capType() == TypePostMoney {
			for j := range m.safes {
				row[iS0+j] = row[iS0+j].Sub(k)
			}
		} else {
			row[iP] = k.Neg()
		}
	}
	return row
}

package rounds

import "github.com/strata-platform/strata/domain/captable/num"

// newMoneyName names the new-money row when the round gives no class name.
const newMoneyName = "New money"

// poolName names the pool row when PreFD has none.
const poolName = "Unallocated pool"

// holding accumulates one holder's shares before and after the round.
type holding struct {
	id, name   string
	before     num.Num // shares before the round
	afterExact num.Num // shares issued in the round, exact
	added      num.Num // shares issued in the round, each piece rounded down
}

// holders builds Result.Holders from the round and its solved figures: every
// PreFD row, SAFE investors (named by InvestorName, else their id), new
// money, and the pool, in that order.
func holders(r Round, res Result) []Ownership {
	var rows []*holding
	byID := make(map[string]*holding)
	add := func(id, name string) *holding {
		if h, ok := byID[id]; ok {
			return h
		}
		h := &holding{id: id, name: name}
		rows = append(rows, h)
		byID[id] = h
		return h
	}
	for _, fd := range r.PreFD {
		h := add(fd.ID, fd.Name)
		h.before = fd.Shares
	}
	for i, c := range res.Conversions {
		name := r.SAFEs[i].InvestorName
		if name == "" {
			name = c.InvestorID
		}
		h := add(c.InvestorID, name)
		h.afterExact = h.afterExact.Add(c.SharesExact)
		h.added = h.added.Add(c.Shares)
	}
	name := r.NewShareClassName
	if name == "" {
		name = newMoneyName
	}
	nm := add(NewMoneyID, name)
	nm.afterExact, nm.added = res.NewSharesExact, res.NewShares
	if _, ok := byID[PoolID]; ok || res.PoolIncreaseExact.Sign() > 0 {
		pool := add(PoolID, poolName)
		pool.afterExact = pool.afterExact.Add(res.PoolIncreaseExact)
		pool.added = pool.added.Add(res.PoolIncrease)
	}
	out := make([]Ownership, len(rows))
	for i, h := range rows {
		exact := h.before.Add(h.afterExact)
		out[i] = Ownership{
			ID:              h.id,
			Name:            h.name,
			StakeholderID:   stakeholderID(h.id),
			SharesBefore:    h.before,
			SharesAfter:     h.before.Add(h.added),
			OwnershipBefore: h.before.Div(res.PreMoneyShares),
			OwnershipAfter:  exact.Div(res.PostMoneySharesExact),
		}
	}
	return out
}

// stakeholderID is id unless it is a reserved row (the pool, the new money).
func stakeholderID(id string) string {
	if id == PoolID || id == NewMoneyID {
		return ""
	}
	return id
}

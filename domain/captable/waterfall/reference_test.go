package waterfall

import (
	"sort"

	"github.com/strata-platform/strata/domain/captable/num"
)

// refOut is the reference waterfall's payouts under fixed choices.
type refOut struct {
	costs, debt, leftover num.Num
	class, award          []num.Num
}

// refDistribute is an independent, plain implementation of the distribution
// with the choices fixed (conv per class, ex per award): caps are solved
// one at a time in order of the value per share at which each binds.
func refDistribute(in Input, conv, ex []bool) refOut {
	out := refOut{class: make([]num.Num, len(in.Classes)), award: make([]num.Num, len(in.Awards))}
	rem := in.ExitValue
	out.costs = num.Min(in.TransactionCosts, rem)
	rem = rem.Sub(out.costs)
	out.debt = num.Min(in.Debt, rem)
	rem = rem.Sub(out.debt)
	keeps := func(i int) bool { return in.Classes[i].Preferred && !conv[i] }
	claim := func(c Class) num.Num { return c.Shares.Mul(c.IssuePrice).Mul(c.PreferenceMultiple) }
	var levels []int
	for i, c := range in.Classes {
		if keeps(i) {
			levels = append(levels, c.Seniority)
		}
	}
	sort.Ints(levels)
	pref := make([]num.Num, len(in.Classes))
	for k, s := range levels {
		if k > 0 && levels[k-1] == s {
			continue
		}
		total := num.Zero
		for i, c := range in.Classes {
			if keeps(i) && c.Seniority == s {
				total = total.Add(claim(c))
			}
		}
		if total.IsZero() {
			continue
		}
		pay := num.Min(rem, total)
		for i, c := range in.Classes {
			if keeps(i) && c.Seniority == s {
				pref[i] = pay.Mul(claim(c)).Div(total)
			}
		}
		rem = rem.Sub(pay)
	}
	type entry struct {
		class, award int
		w, limit     num.Num
		capped       bool
	}
	var entries []entry
	pot := rem
	for i, c := range in.Classes {
		cr := c.ConversionRatio
		if cr.IsZero() {
			cr = num.Int(1)
		}
		if keeps(i) && !c.Participating || c.Shares.IsZero() {
			continue
		}
		e := entry{class: i, award: -1, w: c.Shares.Mul(cr)}
		if keeps(i) && c.ParticipationCap.Sign() > 0 {
			e.capped = true
			e.limit = c.ParticipationCap.Mul(c.Shares).Mul(c.IssuePrice).Sub(pref[i])
		}
		entries = append(entries, e)
	}
	for j, a := range in.Awards {
		if ex[j] && a.Quantity.Sign() > 0 {
			entries = append(entries, entry{class: -1, award: j, w: a.Quantity})
			pot = pot.Add(a.Quantity.Mul(a.Strike))
		}
	}
	sort.SliceStable(entries, func(x, y int) bool {
		ex, ey := entries[x], entries[y]
		if ex.capped != ey.capped {
			return ex.capped
		}
		return ex.capped && ex.limit.Div(ex.w).Less(ey.limit.Div(ey.w))
	})
	w := num.Zero
	for _, e := range entries {
		w = w.Add(e.w)
	}
	share := make([]num.Num, len(entries))
	k := 0
	for ; k < len(entries) && entries[k].capped; k++ {
		e := entries[k]
		if pot.Div(w).Less(e.limit.Div(e.w)) {
			break
		}
		share[k] = e.limit
		pot, w = pot.Sub(e.limit), w.Sub(e.w)
	}
	out.leftover = pot
	if w.Sign() > 0 {
		for ; k < len(entries); k++ {
			share[k] = pot.Mul(entries[k].w).Div(w)
		}
		out.leftover = num.Zero
	}
	for k, e := range entries {
		if e.class >= 0 {
			out.class[e.class] = share[k]
		} else {
			a := in.Awards[e.award]
			out.award[e.award] = share[k].Sub(a.Quantity.Mul(a.Strike))
		}
	}
	for i := range out.class {
		out.class[i] = out.class[i].Add(pref[i])
	}
	return out
}

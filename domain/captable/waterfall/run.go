package waterfall

import (
	"sort"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Result is an exit's distribution. For a valid input, TransactionCosts +
// Debt + Distributed == ExitValue exactly, and Distributed is the sum of the
// classes' totals and the awards' net payouts.
type Result struct {
	ExitValue, TransactionCosts, Debt, Distributed num.Num
	// Classes holds one payout per input class, in input order.
	Classes []ClassPayout
	// Awards holds one payout per input award, in input order.
	Awards []AwardPayout
	// Holders holds one payout per holder named by a class's holdings or an
	// award, sorted by HolderID.
	Holders []HolderPayout
	// PerCommonShare is the value of one as-converted common share in the
	// residual (0 when nothing is shared).
	PerCommonShare num.Num
}

// ClassPayout is what a class receives: Total = Preference + Participation,
// PerShare = Total / Shares (0 for no shares). A converted class has no
// Preference; its Participation is its as-converted share of the residual.
// CapReached reports that a participating class stopped at its cap.
type ClassPayout struct {
	ID, Name                                   string
	Converted                                  bool
	Preference, Participation, Total, PerShare num.Num
	CapReached                                 bool
}

// AwardPayout is what an award's holder receives: Net = Gross - StrikePaid
// when Exercised, all zero otherwise.
type AwardPayout struct {
	ID, HolderID           string
	Exercised              bool
	Gross, StrikePaid, Net num.Num
}

// HolderPayout is a holder's total: its classes' payouts pro rata by its
// shares plus its awards' net payouts. ByClass maps each class ID (and each
// award ID) the holder has a stake in to its part of Total.
type HolderPayout struct {
	HolderID string
	Total    num.Num
	ByClass  map[string]num.Num
}

// Run validates in, finds the equilibrium of the conversion and exercise
// choices (see solve), and distributes ExitValue. Bad input is a
// *kernel.Error of kind invalid; a search that does not settle is of kind
// internal. The payouts are exact and balance (see Result).
func Run(in Input) (Result, error) {
	if err := in.Validate(); err != nil {
		return Result{}, err
	}
	m := newModel(in)
	e := qNum(in.ExitValue)
	s := newSolver(m, constant(e), e, false)
	prof, d, err := s.solve(e)
	if err != nil {
		return Result{}, err
	}
	r := m.result(e, prof, d)
	if !r.TransactionCosts.Add(r.Debt).Add(r.Distributed).Equal(in.ExitValue) {
		return Result{}, kernel.E(kernel.KindInternal, "waterfall: the payouts do not add up to the exit value")
	}
	return r, nil
}

// result evaluates d at exit e. It computes in q and converts each figure
// to a Num once.
func (m *model) result(e q, prof []byte, d *dist) Result {
	in := m.in
	p := d.p.at(e)
	r := Result{ExitValue: in.ExitValue, TransactionCosts: d.costs.at(e).num(), Debt: d.debt.at(e).num(), PerCommonShare: p.num()}
	var distributed q
	totals := make([]q, len(in.Classes))
	r.Classes = make([]ClassPayout, len(in.Classes))
	for i, c := range in.Classes {
		pref, part := d.cls[i].pref.at(e), m.part(d, i).at(e)
		totals[i] = pref.add(part)
		cp := ClassPayout{ID: c.ID, Name: c.Name, Converted: m.converted(prof, i), Preference: pref.num(),
			Participation: part.num(), Total: totals[i].num(), CapReached: d.cls[i].capped}
		if shares := qNum(c.Shares); !shares.isZero() {
			cp.PerShare = totals[i].quo(shares).num()
		}
		distributed = distributed.add(totals[i])
		r.Classes[i] = cp
	}
	nets := make([]q, len(in.Awards))
	r.Awards = make([]AwardPayout, len(in.Awards))
	for j, a := range in.Awards {
		ap := AwardPayout{ID: a.ID, HolderID: a.HolderID}
		if g := m.groupOf[j]; g >= 0 && m.exercised(prof, g) {
			qty := qNum(a.Quantity)
			gross, strike := p.mul(qty), qty.mul(qNum(a.Strike))
			nets[j] = gross.sub(strike)
			ap.Exercised, ap.Gross, ap.StrikePaid, ap.Net = true, gross.num(), strike.num(), nets[j].num()
		}
		distributed = distributed.add(nets[j])
		r.Awards[j] = ap
	}
	r.Distributed = distributed.num()
	r.Holders = holders(in, totals, nets)
	return r
}

// holders sums the class totals (pro rata by shares held) and the award
// nets per holder.
func holders(in Input, totals, nets []q) []HolderPayout {
	type sums struct {
		total q
		by    map[string]q
	}
	by := map[string]*sums{}
	add := func(holder, id string, amount q) {
		h := by[holder]
		if h == nil {
			h = &sums{by: map[string]q{}}
			by[holder] = h
		}
		h.total = h.total.add(amount)
		h.by[id] = h.by[id].add(amount)
	}
	for i, c := range in.Classes {
		shares := qNum(c.Shares)
		for _, h := range c.Holders {
			var share q
			if !shares.isZero() {
				share = totals[i].mul(qNum(h.Shares)).quo(shares)
			}
			add(h.HolderID, c.ID, share)
		}
	}
	for j, a := range in.Awards {
		add(a.HolderID, a.ID, nets[j])
	}
	out := make([]HolderPayout, 0, len(by))
	for id, h := range by {
		hp := HolderPayout{HolderID: id, Total: h.total.num(), ByClass: make(map[string]num.Num, len(h.by))}
		for k, v := range h.by {
			hp.ByClass[k] = v.num()
		}
		out = append(out, hp)
	}
	sort.Slice(out, func(x, y int) bool { return out[x].HolderID < out[y].HolderID })
	return out
}

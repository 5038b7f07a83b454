package waterfall

// Preference payment states of a class that keeps its preference.
const (
	paidNothing uint8 = iota
	paidPartly
	paidInFull
)

// plan holds what a profile of choices fixes whatever the exit value, so
// that the distributions under it are quick to compute.
type plan struct {
	prof      []byte
	tierClaim []q           // per tier: claims of the classes keeping a preference
	share     []q           // per class: its part of its tier's claim
	parts     []participant // who shares the residual
	wu        q             // their as-converted shares
	strikes   q             // strikes paid by the exercising award groups
	d         *dist         // the latest distribution under prof
}

// participant shares the residual: a class (class >= 0) or an award group.
type participant struct {
	class, group int
	w            q
	hasCap       bool
	capTotal     q // most a capped class may receive in total
	lim          q // its participation at the cap when its preference is paid in full
	t            q // value per share at which it then reaches its cap
}

// classState is one class in a distribution.
type classState struct {
	pref   aff   // preference received
	limit  aff   // participation, when capped
	paid   uint8 // for a class keeping a preference
	capped bool  // participation stopped at the cap
}

// dist is the waterfall under one profile of choices, every amount an affine
// form of the exit value. The forms are exact on the regime of exit values on
// which the evaluator that built them placed every comparison the same way:
// from the evaluation point up to (not including) next.
type dist struct {
	plan                *plan
	costs, debt         aff
	costsFull, debtFull bool
	cls                 []classState
	p                   aff // value of one as-converted common share
	leftover            aff // residual nobody may take (never in an equilibrium)
	payoffs             []aff
	known               []bool
	next                bound
}

// newPlan prepares profile prof.
func (m *model) newPlan(prof []byte) *plan {
	pl := &plan{prof: append([]byte(nil), prof...), tierClaim: make([]q, len(m.tiers)),
		share: make([]q, len(m.classes))}
	for t, tier := range m.tiers {
		for _, i := range tier {
			if !m.converted(prof, i) {
				pl.tierClaim[t] = pl.tierClaim[t].add(m.classes[i].claim)
			}
		}
		for _, i := range tier {
			if c := m.classes[i].claim; !c.isZero() && !m.converted(prof, i) {
				pl.share[i] = c.quo(pl.tierClaim[t])
			}
		}
	}
	for i, c := range m.classes {
		keeps := c.preferred && !m.converted(prof, i)
		if c.w.isZero() || (keeps && !c.participating) {
			continue
		}
		pt := participant{class: i, group: -1, w: c.w}
		if keeps && c.hasCap {
			pt.hasCap, pt.capTotal = true, c.capTotal
			pt.lim = c.capTotal.sub(c.claim)
			pt.t = pt.lim.quo(c.w)
		}
		pl.parts = append(pl.parts, pt)
		pl.wu = pl.wu.add(c.w)
	}
	for g, gm := range m.groups {
		if m.exercised(prof, g) {
			pl.parts = append(pl.parts, participant{class: -1, group: g, w: gm.q})
			pl.wu = pl.wu.add(gm.q)
			pl.strikes = pl.strikes.add(gm.qs)
		}
	}
	return pl
}

// take pays amount out of rem, capped by rem.
func take(ev *evaluator, rem aff, amount q) (paid, left aff, full bool) {
	if amount.isZero() {
		return aff{}, rem, true
	}
	if rem.isZero() {
		return aff{}, rem, false
	}
	if ev.signMinus(rem, amount) >= 0 {
		return constant(amount), rem.sub(constant(amount)), true
	}
	return rem, aff{}, false
}

// distribute runs the waterfall for exit e (a form) under pl's profile. It
// resets ev.next and leaves there (and in the result) the regime's end.
func (m *model) distribute(ev *evaluator, e aff, pl *plan) *dist {
	ev.next = bound{}
	d := &dist{plan: pl, cls: make([]classState, len(m.classes)),
		payoffs: make([]aff, len(m.players)), known: make([]bool, len(m.players))}
	rem := e
	d.costs, rem, d.costsFull = take(ev, rem, m.tc)
	d.debt, rem, d.debtFull = take(ev, rem, m.debt)
	rem = m.payPreferences(ev, d, rem)
	m.shareResidual(ev, d, rem)
	d.next = ev.next
	return d
}

// payPreferences pays the classes keeping a preference, tier by tier, pro
// rata by claim within a tier that cannot be paid in full. It returns what
// is left.
func (m *model) payPreferences(ev *evaluator, d *dist, rem aff) aff {
	pl := d.plan
	for t, tier := range m.tiers {
		claim := pl.tierClaim[t]
		if claim.isZero() {
			for _, i := range tier {
				d.cls[i].paid = paidInFull
			}
			continue
		}
		if rem.isZero() {
			continue
		}
		full := ev.signMinus(rem, claim) >= 0
		for _, i := range tier {
			cs := &d.cls[i]
			switch {
			case m.converted(pl.prof, i):
			case full:
				cs.pref, cs.paid = constant(m.classes[i].claim), paidInFull
			case pl.share[i].isZero():
				cs.paid = paidInFull
			default:
				cs.pref, cs.paid = rem.mul(pl.share[i]), paidPartly
			}
		}
		if full {
			rem = rem.sub(constant(claim))
		} else {
			rem = aff{}
		}
	}
	return rem
}

// shareResidual shares rem plus the strikes of exercising awards per
// as-converted share, stopping each capped class at its cap (water filling:
// every class whose share reaches its cap at the current value per share
// takes its cap and leaves; the value per share only rises, so it is exact).
func (m *model) shareResidual(ev *evaluator, d *dist, rem aff) {
	pl := d.plan
	pot := rem.add(constant(pl.strikes))
	wu := pl.wu
	var p, sumL aff
	for wu.sign() > 0 {
		p = pot.sub(sumL).div(wu)
		more := false
		for _, pt := range pl.parts {
			if !pt.hasCap || d.cls[pt.class].capped {
				continue
			}
			cs := &d.cls[pt.class]
			var reached bool
			if cs.paid == paidInFull {
				reached = ev.signMinus(p, pt.t) >= 0
			} else {
				cs.limit = constant(pt.capTotal).sub(cs.pref)
				reached = ev.sign(p.mul(pt.w).sub(cs.limit)) >= 0
			}
			if reached {
				if cs.paid == paidInFull {
					cs.limit = constant(pt.lim)
				}
				cs.capped, more = true, true
				sumL = sumL.add(cs.limit)
				wu = wu.sub(pt.w)
			}
		}
		if !more {
			break
		}
	}
	d.p = p
	if wu.sign() == 0 {
		d.leftover = pot.sub(sumL)
	}
}

// part returns class i's participation.
func (m *model) part(d *dist, i int) aff {
	c, cs := m.classes[i], d.cls[i]
	switch {
	case cs.capped:
		return cs.limit
	case c.w.isZero() || (c.preferred && !m.converted(d.plan.prof, i) && !c.participating):
		return aff{}
	}
	return d.p.mul(c.w)
}

// total returns class i's payout.
func (m *model) total(d *dist, i int) aff { return d.cls[i].pref.add(m.part(d, i)) }

// payoff returns player k's payout: its class's total or its award group's
// net (gross share less strikes paid; 0 when not exercising).
func (m *model) payoff(d *dist, k int) aff {
	if d.known[k] {
		return d.payoffs[k]
	}
	var f aff
	if pl := m.players[k]; pl.class >= 0 {
		f = m.total(d, pl.class)
	} else if m.exercised(d.plan.prof, pl.group) {
		g := m.groups[pl.group]
		f = d.p.mul(g.q).sub(constant(g.qs))
	}
	d.payoffs[k], d.known[k] = f, true
	return f
}

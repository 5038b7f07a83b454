package waterfall

import (
	"sort"

	"github.com/strata-platform/strata/domain/captable/num"
)

// classModel is a class reduced to the constants the distribution uses.
type classModel struct {
	preferred, participating bool
	hasCap                   bool
	w                        q   // as-converted common shares
	claim                    q   // preference claim
	capTotal                 q   // cap on preference + participation
	tier                     int // index into model.tiers; -1 for common
	player                   int // index into model.players; -1 if it never chooses
}

// groupModel is the awards sharing one strike: they gain or lose together by
// exercising (an award gains exactly when the value per share without it
// exceeds its strike), so they choose together as one player.
type groupModel struct {
	strike, q, qs q // strike, total quantity, total strike paid
	awards        []int
	player        int
}

// player is a class (class >= 0) or an award group (group >= 0).
type player struct{ class, group int }

// model is an Input prepared for repeated distributions.
type model struct {
	in       Input
	classes  []classModel
	tiers    [][]int // class indices by seniority, most senior first
	groups   []groupModel
	groupOf  []int // award index -> group, -1 for a zero quantity
	players  []player
	tc, debt q
}

// newModel prepares a validated input.
func newModel(in Input) *model {
	m := &model{in: in, tc: qNum(in.TransactionCosts), debt: qNum(in.Debt)}
	m.classes = make([]classModel, len(in.Classes))
	var order []int
	seniorities := map[int]int{}
	for i, c := range in.Classes {
		cm := classModel{preferred: c.Preferred, tier: -1, player: -1}
		cr := c.ConversionRatio
		if cr.IsZero() {
			cr = num.Int(1)
		}
		cm.w = qNum(c.Shares.Mul(cr))
		if c.Preferred {
			invested := c.Shares.Mul(c.IssuePrice)
			cm.claim = qNum(invested.Mul(c.PreferenceMultiple))
			cm.participating = c.Participating
			if c.Participating && c.ParticipationCap.Sign() > 0 {
				cm.hasCap = true
				cm.capTotal = qNum(invested.Mul(c.ParticipationCap))
			}
			seniorities[c.Seniority] = 0
			if !cm.w.isZero() {
				order = append(order, i)
			}
		}
		m.classes[i] = cm
	}
	levels := make([]int, 0, len(seniorities))
	for s := range seniorities {
		levels = append(levels, s)
	}
	sort.Ints(levels)
	m.tiers = make([][]int, len(levels))
	for t, s := range levels {
		seniorities[s] = t
	}
	for i, c := range in.Classes {
		if c.Preferred {
			t := seniorities[c.Seniority]
			m.classes[i].tier = t
			m.tiers[t] = append(m.tiers[t], i)
		}
	}
	sort.SliceStable(order, func(x, y int) bool {
		return in.Classes[order[x]].Seniority < in.Classes[order[y]].Seniority
	})
	for _, i := range order {
		m.classes[i].player = len(m.players)
		m.players = append(m.players, player{class: i, group: -1})
	}
	m.groupAwards()
	return m
}

// groupAwards groups the awards with a positive quantity by strike, lowest
// strike first, and makes each group a player.
func (m *model) groupAwards() {
	m.groupOf = make([]int, len(m.in.Awards))
	byStrike := map[string]int{}
	for j, a := range m.in.Awards {
		m.groupOf[j] = -1
		if a.Quantity.Sign() <= 0 {
			continue
		}
		key := a.Strike.Rat().RatString()
		g, ok := byStrike[key]
		if !ok {
			g = len(m.groups)
			byStrike[key] = g
			m.groups = append(m.groups, groupModel{strike: qNum(a.Strike)})
		}
		m.groups[g].awards = append(m.groups[g].awards, j)
	}
	sort.SliceStable(m.groups, func(x, y int) bool {
		return m.in.Awards[m.groups[x].awards[0]].Strike.Less(m.in.Awards[m.groups[y].awards[0]].Strike)
	})
	for g := range m.groups {
		gm := &m.groups[g]
		q := num.Zero
		for _, j := range gm.awards {
			q = q.Add(m.in.Awards[j].Quantity)
			m.groupOf[j] = g
		}
		gm.q = qNum(q)
		gm.qs = gm.q.mul(gm.strike)
		gm.player = len(m.players)
		m.players = append(m.players, player{class: -1, group: g})
	}
}

// converted reports whether class i converts under profile prof.
func (m *model) converted(prof []byte, i int) bool {
	p := m.classes[i].player
	return p >= 0 && prof[p] != 0
}

// exercised reports whether award group g exercises under profile prof.
func (m *model) exercised(prof []byte, g int) bool { return prof[m.groups[g].player] != 0 }

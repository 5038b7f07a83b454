package waterfall

import (
	"github.com/strata-platform/strata/domain/captable/num"
)

// describe lists what changes between regime a (below at) and b (above it).
func (m *model) describe(at num.Num, a, b regime) []Breakpoint {
	var out []Breakpoint
	add := func(event, classID string) {
		out = append(out, Breakpoint{ExitValue: at, Event: event, ClassID: classID})
	}
	if !a.d.costsFull && b.d.costsFull {
		add("transaction costs paid in full", "")
	}
	if !a.d.debtFull && b.d.debtFull {
		add("debt repaid in full", "")
	}
	keeps := func(r regime, i int) bool { return !m.converted(r.prof, i) }
	for _, tier := range m.tiers {
		for _, i := range tier {
			if keeps(a, i) && keeps(b, i) && a.d.cls[i].paid != paidInFull && b.d.cls[i].paid == paidInFull {
				add(m.name(i)+" preference paid in full", m.in.Classes[i].ID)
			}
		}
	}
	for _, pl := range m.players {
		if i := pl.class; i >= 0 && keeps(a, i) != keeps(b, i) {
			if keeps(a, i) {
				add(m.name(i)+" converts to common", m.in.Classes[i].ID)
			} else {
				add(m.name(i)+" stops converting and keeps its preference", m.in.Classes[i].ID)
			}
		}
	}
	for i, c := range m.in.Classes {
		if !keeps(a, i) || !keeps(b, i) || a.d.cls[i].capped == b.d.cls[i].capped {
			continue
		}
		if b.d.cls[i].capped {
			add(m.name(i)+" reaches its "+c.ParticipationCap.String()+"x participation cap", c.ID)
		} else {
			add(m.name(i)+" participates again below its "+c.ParticipationCap.String()+"x cap", c.ID)
		}
	}
	for g, gm := range m.groups {
		was, is := m.exercised(a.prof, g), m.exercised(b.prof, g)
		switch {
		case !was && is:
			add("awards at strike "+money(gm.strike.num())+" exercise", "")
		case was && !is:
			add("awards at strike "+money(gm.strike.num())+" stop exercising", "")
		}
	}
	if len(out) == 0 {
		add("payouts change slope", "")
	}
	return out
}

// name is a class's name, or its ID when it has none.
func (m *model) name(i int) string {
	if c := m.in.Classes[i]; c.Name != "" {
		return c.Name
	}
	return m.in.Classes[i].ID
}

// money writes n with two decimals when that is exact, else in full.
func money(n num.Num) string {
	if n.Round(2).Equal(n) {
		return n.Fixed(2)
	}
	return n.String()
}

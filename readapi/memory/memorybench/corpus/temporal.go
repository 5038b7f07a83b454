package corpus

import (
	"fmt"
	"time"
)

// period is a named span of time, [from, to).
type period struct {
	from, to time.Time
	words    string
}

// periodsAround lists the named periods (month, quarter, early/mid/late
// year, season) that contain t.
func periodsAround(t time.Time) []period {
	y, loc := t.Year(), t.Location()
	at := func(m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, loc) }
	mStart := at(t.Month())
	qm := time.Month((int(t.Month())-1)/3*3 + 1)
	all := []period{
		{mStart, mStart.AddDate(0, 1, 0), fmt.Sprintf("in %s %d", t.Month(), y)},
		{at(qm), at(qm).AddDate(0, 3, 0), fmt.Sprintf("in Q%d %d", (int(t.Month())-1)/3+1, y)},
		{at(time.January), at(time.April), fmt.Sprintf("in early %d", y)},
		{at(time.May), at(time.September), fmt.Sprintf("in mid-%d", y)},
		{at(time.October), at(time.January).AddDate(1, 0, 0), fmt.Sprintf("in late %d", y)},
		{at(time.March), at(time.June), fmt.Sprintf("in the spring of %d", y)},
		{at(time.June), at(time.September), fmt.Sprintf("in the summer of %d", y)},
		{at(time.September), at(time.December), fmt.Sprintf("in the autumn of %d", y)},
	}
	var out []period
	for _, p := range all {
		if !t.Before(p.from) && t.Before(p.to) {
			out = append(out, p)
		}
	}
	return out
}

// periodIn picks a time in [lo, hi) together with a named period that
// contains it and lies wholly inside [lo, hi).
func (g *generator) periodIn(lo, hi time.Time) (time.Time, string, bool) {
	for try := 0; try < 40; try++ {
		t := g.between(lo, hi)
		var fit []period
		for _, p := range periodsAround(t) {
			if !p.from.Before(lo) && !p.to.After(hi) {
				fit = append(fit, p)
			}
		}
		if len(fit) > 0 {
			return t, fit[g.intn(len(fit))].words, true
		}
	}
	for m := time.Date(lo.Year(), lo.Month(), 1, 0, 0, 0, 0, lo.Location()); m.Before(hi); m = m.AddDate(0, 1, 0) {
		if !m.Before(lo) && !m.AddDate(0, 1, 0).After(hi) {
			t := g.between(m, m.AddDate(0, 1, 0))
			return t, fmt.Sprintf("in %s %d", m.Month(), m.Year()), true
		}
	}
	return time.Time{}, "", false
}

// temporalQueries ask about a chain's value at AsOf, which lies in that
// value's validity interval and after all memories stating it. Half name the
// period in words; half are neutral and rely on AsOf.
func (g *generator) temporalQueries(need int) []Query {
	type link struct{ c, l int }
	var links []link
	for ci, c := range g.chains {
		for li := range c.values {
			links = append(links, link{ci, li})
		}
	}
	var out []Query
	for _, pi := range g.rng.Perm(len(links)) {
		if len(out) >= need {
			break
		}
		c := &g.chains[links[pi].c]
		li := links[pi].l
		o := c.mem[li]
		lo := g.drafts[o].at
		for _, x := range g.drafts[o].dups {
			if g.drafts[x].at.After(lo) {
				lo = g.drafts[x].at
			}
		}
		lo = lo.Add(time.Hour)
		hi := g.cfg.End
		if li+1 < len(c.from) {
			hi = c.from[li+1]
		}
		if !lo.Before(hi) {
			continue
		}
		f := g.formsOf(c.pred)
		names, vals := g.chainSlots(c)
		q := Query{Kind: QueryTemporal, Relevant: g.rel(o)}
		if len(out)%2 == 0 {
			if t, words, ok := g.periodIn(lo, hi); ok {
				q.AsOf = t
				q.Text = fill(g.pick(f.past), append(names, "W"), append(vals, words))
			}
		}
		if q.Text == "" {
			q.AsOf = g.between(lo, hi)
			forms := append(append([]string(nil), f.exact...), f.para...)
			q.Text = fill(g.pick(forms), names, vals)
		}
		out = append(out, q)
	}
	return out
}

package corpus

import (
	"sort"
	"strconv"
	"time"
)

const (
	minFactGap  = 90 * 24 * time.Hour // between consecutive values of a chain
	factTailGap = 30 * 24 * time.Hour // last value starts at least this before End
)

// makeChains gives each person 3-5 of the five predicates, each with 2-4
// values, while fact memories stay within a quarter of the originals.
func (g *generator) makeChains() {
	budget := g.nOrig / 4
	used := 0
	preds := []string{PredWorksAt, PredLivesIn, PredRole, PredTitle, PredStatus}
	for _, p := range g.byKind[KindPerson] {
		order := g.shuffled(preds)
		k := 3 + g.intn(3)
		for _, pred := range order[:k] {
			m := 2 + g.intn(2)
			if g.chance(0.2) {
				m = 4
			}
			if used+m > budget {
				return
			}
			used += m
			c := chain{ent: p, pred: pred, from: g.chainTimes(m), values: g.chainValues(pred, m)}
			ci := len(g.chains)
			for li := range c.values {
				c.mem = append(c.mem, len(g.drafts))
				g.drafts = append(g.drafts, g.factDraft(ci, li, &c))
			}
			g.chains = append(g.chains, c)
		}
	}
}

// chainTimes returns m increasing ValidFrom times at least minFactGap apart.
func (g *generator) chainTimes(m int) []time.Time {
	lo, hi := g.cfg.Start, g.cfg.End.Add(-factTailGap)
	for try := 0; try < 200; try++ {
		ts := make([]time.Time, m)
		for i := range ts {
			ts[i] = g.between(lo, hi)
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		ok := true
		for i := 1; i < m; i++ {
			if ts[i].Sub(ts[i-1]) < minFactGap {
				ok = false
				break
			}
		}
		if ok {
			return ts
		}
	}
	ts := make([]time.Time, m)
	step := hi.Sub(lo) / time.Duration(m)
	for i := range ts {
		ts[i] = lo.Add(step * time.Duration(i)).Add(step / 4).Truncate(time.Second)
	}
	return ts
}

// chainValues returns m distinct consecutive values for pred.
func (g *generator) chainValues(pred string, m int) []string {
	switch pred {
	case PredWorksAt:
		var ents []string
		for _, o := range g.byKind[KindOrg] {
			ents = append(ents, g.ents[o].Name)
		}
		ents = g.shuffled(ents)
		pool := g.shuffled(g.orgPool)
		out := make([]string, 0, m)
		for len(out) < m {
			if len(ents) > 0 && (g.chance(0.6) || len(pool) == 0) {
				out, ents = append(out, ents[0]), ents[1:]
			} else if len(pool) > 0 {
				out, pool = append(out, pool[0]), pool[1:]
			} else {
				out = append(out, "Employer "+strconv.Itoa(len(out)+1))
			}
		}
		return out
	case PredLivesIn:
		return g.shuffled(g.voc["City"])[:m]
	case PredRole:
		return g.shuffled(split(roleValues))[:m]
	case PredTitle:
		ladder := split(titleLadder)
		idx := g.rng.Perm(len(ladder))[:m]
		sort.Ints(idx)
		out := make([]string, m)
		for i, j := range idx {
			out[i] = ladder[j]
		}
		return out
	default:
		return g.shuffled(split(statusValues))[:m]
	}
}

// formsOf returns the phrasings of pred.
func (g *generator) formsOf(pred string) *factForms {
	for i := range g.forms {
		if g.forms[i].pred == pred {
			return &g.forms[i]
		}
	}
	panic("corpus: unknown predicate " + pred)
}

// factDraft is the original memory stating value li of chain c.
func (g *generator) factDraft(ci, li int, c *chain) draft {
	e := g.ents[c.ent]
	f := g.formsOf(c.pred)
	form := g.intn(len(f.texts))
	names := []string{"S", "F", "V"}
	vals := []string{e.Name, e.short, c.values[li]}
	d := draft{
		ent: c.ent, tmpl: -1, chain: ci, link: li, form: form,
		topic: c.pred, key: strconv.Itoa(c.ent) + "|" + c.pred + "|" + strconv.Itoa(li),
		names: names, vals: vals, text: fill(f.texts[form], names, vals),
		mtype: TypeSemantic, imp: g.importance(0.85), ns: g.namespace(TypeSemantic, ""),
		at: c.from[li], dupOf: -1,
	}
	if o, ok := g.byName[c.values[li]]; ok && c.pred == PredWorksAt {
		d.mentions = []int{o}
	}
	return d
}

package corpus

import (
	"math"
	"sort"
	"strconv"
	"time"
)

// Share of filler memories about no entity, and per-kind weights of how many
// memories an entity gets.
const noEntityShare = 0.01

func kindWeight(kind string) float64 {
	switch kind {
	case KindPerson:
		return 1.3
	case KindConcept:
		return 0.4
	}
	return 0.7
}

// makeFillers adds the non-fact original memories.
func (g *generator) makeFillers() {
	nFill := g.nOrig - len(g.drafts)
	if nFill <= 0 {
		return
	}
	nNone := int(math.Round(noEntityShare * float64(nFill)))
	nEnt := nFill - nNone
	var total float64
	for _, e := range g.ents {
		total += kindWeight(e.Kind)
	}
	quota := make([]int, len(g.ents))
	given := 0
	for i, e := range g.ents {
		quota[i] = int(float64(nEnt) * kindWeight(e.Kind) / total)
		given += quota[i]
	}
	if len(g.ents) == 0 {
		nNone = nFill
	} else {
		order := g.rng.Perm(len(g.ents))
		for i := 0; given < nEnt; i++ {
			quota[order[i%len(order)]]++
			given++
		}
	}
	for ent := range g.ents {
		ts, cum := g.templateWeights(ent)
		for range quota[ent] {
			g.drafts = append(g.drafts, g.fillerDraft(ent, ts, cum))
		}
	}
	ts, cum := g.templateWeights(-1)
	for range nNone {
		g.drafts = append(g.drafts, g.fillerDraft(-1, ts, cum))
	}
}

// templateWeights gives an entity its own mix of topics: some topics it never
// has, others dominate. It returns template indices and cumulative weights.
func (g *generator) templateWeights(ent int) ([]int, []float64) {
	var ts []int
	perTopic := map[string]int{}
	var topics []string
	for i := range g.tmpls {
		if g.allowedFor(&g.tmpls[i], ent) {
			ts = append(ts, i)
			tp := g.tmpls[i].topic
			if perTopic[tp] == 0 {
				topics = append(topics, tp)
			}
			perTopic[tp]++
		}
	}
	tw := map[string]float64{}
	nonzero := 0
	for _, tp := range topics {
		if ent >= 0 && g.chance(0.2) {
			continue
		}
		tw[tp] = g.rng.ExpFloat64() + 0.1
		nonzero++
	}
	for i := 0; nonzero < min(3, len(topics)); i++ {
		if tw[topics[i]] == 0 {
			tw[topics[i]] = 1
			nonzero++
		}
	}
	cum := make([]float64, len(ts))
	var sum float64
	for k, i := range ts {
		tp := g.tmpls[i].topic
		sum += tw[tp] / float64(perTopic[tp])
		cum[k] = sum
	}
	return ts, cum
}

// fillerDraft creates one filler memory whose (entity, topic, cue) key is
// unused when possible, so that query targets can be unambiguous.
func (g *generator) fillerDraft(ent int, ts []int, cum []float64) draft {
	at := g.between(g.cfg.Start, g.cfg.End)
	var ti int
	var vals []string
	var mentions []int
	var key string
	found := false
	for try := 0; try < 16 && !found; try++ {
		if try < 4 {
			ti = ts[sort.SearchFloat64s(cum, g.rng.Float64()*cum[len(cum)-1])]
		} else {
			ti = ts[g.intn(len(ts))] // the favourite topics are saturated
		}
		t := &g.tmpls[ti]
		for s := 0; s < 6; s++ {
			vals, mentions = g.drawSlots(t.slots, ent, at)
			key = g.keyOf(ent, t, vals)
			if g.keyCount[key] == 0 {
				found = true
				break
			}
		}
	}
	if !found {
		g.stats.keyCollisions++
	}
	g.keyCount[key]++
	t := &g.tmpls[ti]
	project := ""
	for i, n := range t.slots {
		if n == "Project" {
			project = vals[i]
		}
	}
	return draft{
		ent: ent, tmpl: ti, chain: -1, topic: t.topic, key: key,
		names: t.slots, vals: vals, text: fill(t.text, t.slots, vals),
		mtype: t.mtype, imp: g.importance(t.imp), ns: g.namespace(t.mtype, project),
		at: at, mentions: mentions, dupOf: -1,
	}
}

// keyOf identifies what a query about a memory would name: its entity, its
// topic and its cue value.
func (g *generator) keyOf(ent int, t *template, vals []string) string {
	cue := ""
	for i, n := range t.slots {
		if n == t.cue {
			cue = vals[i]
		}
	}
	group := t.group
	if group == "" {
		group = t.topic
	}
	return strconv.Itoa(ent) + "|" + group + "|" + cue
}

// finalize orders drafts by CreatedAt, assigns IDs and builds Memories.
func (g *generator) finalize() {
	order := make([]int, len(g.drafts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return g.drafts[order[a]].at.Before(g.drafts[order[b]].at)
	})
	for rank, i := range order {
		g.drafts[i].id = memoryID(rank + 1)
	}
	g.out.Memories = make([]Memory, 0, len(order))
	for _, i := range order {
		d := &g.drafts[i]
		m := Memory{
			ID: d.id, Content: d.text, MemoryType: d.mtype, Importance: d.imp,
			Namespace: d.ns, CreatedAt: d.at,
		}
		if d.ent >= 0 {
			m.EntityID = g.ents[d.ent].ID
		}
		for _, x := range d.mentions {
			m.Mentions = append(m.Mentions, g.ents[x].ID)
		}
		if d.dupOf >= 0 {
			m.DuplicateOf = g.drafts[d.dupOf].id
		}
		if d.chain >= 0 {
			c := &g.chains[d.chain]
			m.Fact = &FactRef{
				Subject: g.ents[c.ent].Name, Predicate: c.pred,
				Object: c.values[d.link], ValidFrom: c.from[d.link],
			}
		}
		g.out.Memories = append(g.out.Memories, m)
	}
}

// dupTime is a little (1 hour to 14 days) after at, and not after End.
func (g *generator) dupTime(at time.Time) time.Time {
	t := g.between(at.Add(time.Hour), at.Add(14*24*time.Hour))
	if t.After(g.cfg.End) {
		t = at.Add(g.cfg.End.Sub(at) / 2).Truncate(time.Second)
	}
	if !t.After(at) {
		t = at.Add(time.Second)
	}
	return t
}

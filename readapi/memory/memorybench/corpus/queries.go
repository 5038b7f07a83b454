package corpus

// maxEntityRelevant caps how many original memories an entity query may have
// as answers.
const maxEntityRelevant = 6

// makeQueries builds ~25% of each query kind, shuffles them, assigns IDs and
// splits. About a fifth of exact and paraphrased queries ask about the
// current value of a fact chain.
func (g *generator) makeQueries() {
	n := g.cfg.Queries
	var counts [4]int
	for i := range counts {
		counts[i] = n / 4
		if i < n%4 {
			counts[i]++
		}
	}
	factE, factP := g.factQueries(counts[0]/5, counts[1]/5)
	qs := append(factE, factP...)
	qs = append(qs, g.fillerQueries(counts[0]-len(factE), counts[1]-len(factP))...)
	qs = append(qs, g.temporalQueries(counts[2])...)
	qs = append(qs, g.entityQueries(counts[3])...)
	g.rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	for i := range qs {
		qs[i].ID = queryID(i + 1)
		qs[i].Split = splitOf(qs[i].ID)
	}
	g.out.Queries = qs
}

// rel returns the IDs of original o and its duplicates.
func (g *generator) rel(o int) []string {
	out := []string{g.drafts[o].id}
	for _, x := range g.drafts[o].dups {
		out = append(out, g.drafts[x].id)
	}
	return out
}

// paraOK enforces the paraphrase rule: apart from entity names and stop
// words, text shares at most one content word with each memory in group.
func (g *generator) paraOK(text string, group []int) bool {
	for _, o := range group {
		if len(sharedContent(text, g.drafts[o].text, g.strip, g.stop)) > 1 {
			return false
		}
		for _, x := range g.drafts[o].dups {
			if len(sharedContent(text, g.drafts[x].text, g.strip, g.stop)) > 1 {
				return false
			}
		}
	}
	return true
}

// fillerQueries targets original filler memories whose (entity, topic, cue)
// key is unique, cycling through templates for variety.
func (g *generator) fillerQueries(needE, needP int) []Query {
	byT := make([][]int, len(g.tmpls))
	for i := range g.drafts {
		d := &g.drafts[i]
		if d.dupOf < 0 && d.tmpl >= 0 && g.keyCount[d.key] == 1 {
			byT[d.tmpl] = append(byT[d.tmpl], i)
		}
	}
	order := g.rng.Perm(len(g.tmpls))
	for _, ti := range order {
		g.shuffleInts(byT[ti])
	}
	var out []Query
	turn := 0
	for progress := true; (needE > 0 || needP > 0) && progress; {
		progress = false
		for _, ti := range order {
			if needE <= 0 && needP <= 0 {
				break
			}
			if len(byT[ti]) == 0 {
				continue
			}
			progress = true
			o := byT[ti][0]
			byT[ti] = byT[ti][1:]
			d, t := &g.drafts[o], &g.tmpls[ti]
			wantPara := needP > 0 && (turn%2 == 0 || needE <= 0)
			turn++
			if wantPara {
				text := fill(t.para, d.names, d.vals)
				if g.paraOK(text, []int{o}) {
					out = append(out, Query{Kind: QueryParaphrased, Text: text, Relevant: g.rel(o)})
					needP--
					continue
				}
				g.stats.paraRejected++
			}
			if needE > 0 {
				out = append(out, Query{Kind: QueryExact, Text: fill(t.exact, d.names, d.vals), Relevant: g.rel(o)})
				needE--
			}
		}
	}
	return out
}

// chainSlots returns the slots of questions about chain c.
func (g *generator) chainSlots(c *chain) ([]string, []string) {
	e := g.ents[c.ent]
	return []string{"S", "F"}, []string{e.Name, e.short}
}

// factQueries asks for the current value of distinct chains (no AsOf):
// Relevant/Current are the current value's memories, Superseded the rest.
func (g *generator) factQueries(needE, needP int) ([]Query, []Query) {
	var ex, pa []Query
	for k, ci := range g.rng.Perm(len(g.chains)) {
		if len(ex) >= needE && len(pa) >= needP {
			break
		}
		c := &g.chains[ci]
		last := c.mem[len(c.mem)-1]
		q := Query{Relevant: g.rel(last), Current: g.drafts[last].id}
		for _, o := range c.mem[:len(c.mem)-1] {
			q.Superseded = append(q.Superseded, g.rel(o)...)
		}
		f := g.formsOf(c.pred)
		names, vals := g.chainSlots(c)
		if len(pa) < needP && (k%2 == 0 || len(ex) >= needE) {
			q.Kind, q.Text = QueryParaphrased, fill(g.pick(f.para), names, vals)
			if g.paraOK(q.Text, []int{last}) {
				pa = append(pa, q)
				continue
			}
			g.stats.paraRejected++
		}
		if len(ex) < needE {
			q.Kind, q.Text = QueryExact, fill(g.pick(f.exact), names, vals)
			ex = append(ex, q)
		}
	}
	return ex, pa
}

// entityQueries ask a topic question with an entity filter; Relevant is
// every memory of that entity on that topic. A fifth are fact-chain
// histories.
func (g *generator) entityQueries(need int) []Query {
	type pair struct {
		ent   int
		topic string
	}
	phr := topicQueries()
	members := map[pair][]int{}
	var pairs []pair
	add := func(p pair, o int) {
		if _, ok := members[p]; !ok {
			pairs = append(pairs, p)
		}
		members[p] = append(members[p], o)
	}
	for i := range g.drafts {
		d := &g.drafts[i]
		if d.dupOf >= 0 || d.tmpl < 0 || d.ent < 0 {
			continue
		}
		t := &g.tmpls[d.tmpl]
		for _, tp := range append([]string{t.topic}, t.also...) {
			if _, ok := phr[tp]; ok {
				add(pair{d.ent, tp}, i)
			}
		}
	}
	var cands []pair
	for _, p := range pairs {
		if len(members[p]) <= maxEntityRelevant {
			cands = append(cands, p)
		}
	}
	var out []Query
	nFact := min(need/5, len(g.chains))
	for _, ci := range g.rng.Perm(len(g.chains))[:nFact] {
		c := &g.chains[ci]
		names, vals := g.chainSlots(c)
		q := Query{Kind: QueryEntity, EntityID: g.ents[c.ent].ID, Text: fill(g.pick(g.formsOf(c.pred).entity), names, vals)}
		for _, o := range c.mem {
			q.Relevant = append(q.Relevant, g.rel(o)...)
		}
		out = append(out, q)
	}
	for _, pi := range g.rng.Perm(len(cands)) {
		if len(out) >= need {
			break
		}
		p := cands[pi]
		e := g.ents[p.ent]
		q := Query{Kind: QueryEntity, EntityID: e.ID, Text: fill(g.pick(phr[p.topic]), []string{"E"}, []string{e.Name})}
		for _, o := range members[p] {
			q.Relevant = append(q.Relevant, g.rel(o)...)
		}
		out = append(out, q)
	}
	return out
}

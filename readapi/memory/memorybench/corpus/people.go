package corpus

import (
	"fmt"
	"math"
)

// makeEntities creates ~60% persons and splits the rest between
// organisations, technologies and concepts; IDs are assigned in a shuffled
// kind order so an ID says nothing about its kind.
func (g *generator) makeEntities() {
	n := g.cfg.Entities
	nPerson := int(math.Round(0.6 * float64(n)))
	rest := n - nPerson
	nTech, nConcept := rest/3, rest/3
	nOrg := rest - nTech - nConcept

	kinds := make([]string, 0, n)
	for _, kc := range []struct {
		k string
		n int
	}{{KindPerson, nPerson}, {KindOrg, nOrg}, {KindTech, nTech}, {KindConcept, nConcept}} {
		for i := 0; i < kc.n; i++ {
			kinds = append(kinds, kc.k)
		}
	}
	g.rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })

	persons := g.personNames(nPerson)
	orgs := g.orgNames(nOrg)
	techs, cats := g.techNames(nTech)
	concepts := g.numbered(g.shuffled(g.voc["Concept"]), nConcept)

	var pi, oi, ti, ci int
	for i, k := range kinds {
		e := entInfo{Entity: Entity{ID: entityID(i + 1), Kind: k}}
		switch k {
		case KindPerson:
			e.Name, e.short = persons[pi][0], persons[pi][1]
			pi++
		case KindOrg:
			e.Name = orgs[oi]
			oi++
		case KindTech:
			e.Name, e.cat = techs[ti], cats[ti]
			ti++
		default:
			e.Name = concepts[ci]
			ci++
		}
		if e.short == "" {
			e.short = e.Name
		}
		g.byKind[k] = append(g.byKind[k], i)
		g.byName[e.Name] = i
		g.ents = append(g.ents, e)
		g.out.Entities = append(g.out.Entities, e.Entity)
	}

	names := make([]string, 0, 2*n)
	for _, e := range g.ents {
		names = append(names, e.Name)
		if e.Kind == KindPerson && e.short != e.Name {
			names = append(names, e.short)
		}
	}
	g.strip = newNameStripper(names)

	g.sessions = make([]string, 240)
	for i := range g.sessions {
		g.sessions[i] = fmt.Sprintf("session:%08x", g.rng.Uint32())
	}
}

// personNames returns n unique {full name, short name} pairs.
func (g *generator) personNames(n int) [][2]string {
	firsts := g.shuffled(split(firstNames))
	lasts := split(lastNames)
	used := map[string]bool{}
	out := make([][2]string, 0, n)
	for i := 0; i < n; i++ {
		first := firsts[i%len(firsts)]
		var full string
		for {
			full = first + " " + g.pick(lasts)
			if !used[full] {
				break
			}
		}
		used[full] = true
		short := first
		if n > len(firsts) {
			short = full // first names repeat: only full names are unambiguous
		}
		out = append(out, [2]string{full, short})
	}
	return out
}

// orgNames returns n entity organisation names and keeps the remaining
// prefix/suffix combinations (up to 120) as non-entity organisations.
func (g *generator) orgNames(n int) []string {
	var all []string
	for _, p := range split(orgPrefixes) {
		for _, s := range split(orgSuffixes) {
			all = append(all, p+" "+s)
		}
	}
	all = g.shuffled(all)
	// One organisation per prefix first, so entity names stay distinct.
	seen := map[string]bool{}
	var distinct, others []string
	for _, o := range all {
		p := rawTokens(o)[0]
		if !seen[p] {
			seen[p] = true
			distinct = append(distinct, o)
		} else {
			others = append(others, o)
		}
	}
	all = append(distinct, others...)
	pool := all[min(n, len(all)):]
	if len(pool) > 120 {
		pool = pool[:120]
	}
	g.orgPool = pool
	return g.numbered(all, n)
}

// techNames returns n technology names with their categories.
func (g *generator) techNames(n int) ([]string, []string) {
	var names, cats []string
	for _, cat := range []string{"DB", "Lang", "Framework", "Infra", "Tool"} {
		for _, t := range split(techCategories()[cat]) {
			names = append(names, t)
			cats = append(cats, cat)
		}
	}
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	g.shuffleInts(idx)
	var outN, outC []string
	for i := 0; i < n; i++ {
		j := idx[i%len(idx)]
		name := names[j]
		if i >= len(idx) {
			name = fmt.Sprintf("%s %d", name, i/len(idx)+1)
		}
		outN = append(outN, name)
		outC = append(outC, cats[j])
	}
	return outN, outC
}

// numbered returns n names from list, suffixing numbers once it runs out.
func (g *generator) numbered(list []string, n int) []string {
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		name := list[i%len(list)]
		if i >= len(list) {
			name = fmt.Sprintf("%s %d", name, i/len(list)+1)
		}
		out = append(out, name)
	}
	return out
}

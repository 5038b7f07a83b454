package extract

import (
	"slices"
	"strings"
)

// Candidate priorities: among overlapping candidates the longest wins,
// then the highest priority, then the leftmost.
const (
	prioWeakTech    = 20
	prioContextWith = 30
	prioFirstName   = 35
	prioPlace       = 40
	prioSurname     = 40
	prioFullName    = 42
	prioOrgPattern  = 48
	prioConcept     = 49
	prioGazetteer   = 50
	prioHonorific   = 55
	prioPersonCue   = 56
	prioTechCue     = 60
)

// cand is a possible entity on tokens [i, j).
type cand struct {
	i, j      int
	name      string
	kind      Kind
	prio      int
	place     bool // a place (Kind Concept)
	alsoOrg   bool // a product that is also a company
	weak      bool // an ambiguous technology that needs a neighbouring one
	lowerWeak bool // ... in lower case: only a cued list before it helps
}

// recognise finds entity mentions: gazetteers and patterns propose
// candidates, the longest non-overlapping ones win.
func (d *doc) recognise() {
	for i := range d.toks {
		if !d.toks[i].word {
			continue
		}
		d.selfCands(i)
		d.petCands(i)
		d.gazetteerCands(i)
		d.personCands(i)
		d.orgCands(i)
	}
	d.supportWeak()
	c := d.cands
	slices.SortStableFunc(c, func(a, b cand) int {
		if la, lb := a.j-a.i, b.j-b.i; la != lb {
			return lb - la
		}
		if a.prio != b.prio {
			return b.prio - a.prio
		}
		return a.i - b.i
	})
	// Other readings of the same span (a given name that is also a city)
	// stay available to the relation rules.
	type readings struct{ person, place, org bool }
	alt := make(map[[2]int]readings, len(c))
	for _, y := range c {
		if !y.weak {
			r := alt[[2]int{y.i, y.j}]
			r.person = r.person || y.kind == Person
			r.place = r.place || y.place
			r.org = r.org || y.kind == Org || y.alsoOrg
			alt[[2]int{y.i, y.j}] = r
		}
	}
	for _, x := range c {
		if x.weak || !d.free(x.i, x.j) {
			continue
		}
		r := alt[[2]int{x.i, x.j}]
		d.addMention(mention{i: x.i, j: x.j, name: x.name, kind: x.kind, place: x.place, alsoOrg: x.alsoOrg,
			canPerson: r.person, canPlace: r.place, canOrg: r.org})
	}
	d.aliases()
}

// free reports whether no mention covers tokens [i, j).
func (d *doc) free(i, j int) bool {
	for k := i; k < j; k++ {
		if d.cover[k] != 0 {
			return false
		}
	}
	return true
}

func (d *doc) addMention(m mention) int {
	d.ments = append(d.ments, m)
	n := len(d.ments)
	for k := m.i; k < m.j; k++ {
		d.cover[k] = n
	}
	return n - 1
}

// mentionAt returns the mention starting at token k.
func (d *doc) mentionAt(k int) (int, bool) {
	if k < 0 || k >= len(d.toks) || d.cover[k] == 0 {
		return 0, false
	}
	m := d.cover[k] - 1
	return m, d.ments[m].i == k
}

// mentionEnding returns the mention ending at token k (inclusive).
func (d *doc) mentionEnding(k int) (int, bool) {
	if k < 0 || k >= len(d.toks) || d.cover[k] == 0 {
		return 0, false
	}
	m := d.cover[k] - 1
	return m, d.ments[m].j == k+1
}

// supportWeak keeps ambiguous technologies that sit in a list with a
// confident one ("Go and Rust", "python, go and rust").
func (d *doc) supportWeak() {
	var queue []int
	near := make(map[int][]int) // token -> weak technologies starting or ending next to it
	for x, c := range d.cands {
		if c.kind != Tech {
			continue
		}
		if !c.weak {
			queue = append(queue, x)
			continue
		}
		for _, k := range []int{c.i - 1, c.i - 2, c.j, c.j + 1} {
			near[k] = append(near[k], x)
		}
	}
	for len(queue) > 0 {
		b := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		y := d.cands[b]
		for _, k := range []int{y.i - 1, y.i - 2, y.j, y.j + 1} {
			for _, a := range near[k] {
				x := d.cands[a]
				if !x.weak || !d.listAdjacent(x.i, x.j, y.i, y.j) {
					continue
				}
				if x.lowerWeak && (y.i > x.i || !d.techCue(y.i, y.j)) {
					continue
				}
				d.cands[a].weak, d.cands[a].prio = false, prioTechCue
				queue = append(queue, a)
			}
		}
	}
}

// listAdjacent reports whether spans a and b are neighbours in a list:
// separated by ",", "and", "or", "&", "/", ", and".
func (d *doc) listAdjacent(ai, aj, bi, bj int) bool {
	if bi < ai {
		ai, aj, bi, bj = bi, bj, ai, aj
	}
	if aj > bi {
		return false
	}
	gap := d.toks[aj:bi]
	switch len(gap) {
	case 1:
		return isListSep(gap[0].low) || gap[0].text == "和" || gap[0].text == "、"
	case 2:
		return gap[0].text == "," && (gap[1].low == "and" || gap[1].low == "or")
	}
	return false
}

func isListSep(s string) bool {
	switch s {
	case ",", "and", "or", "&", "/", "vs", "over", "than", "plus":
		return true
	}
	return false
}

// aliases maps a later bare first word of a multi-word person or org
// ("Acme" after "Acme Robotics", "Alice" after "Alice Chen") to it.
func (d *doc) aliases() {
	first := make(map[string]int) // first word -> earliest multi-word person or org
	for x, m := range d.ments {
		if m.j-m.i >= 2 && (m.kind == Person || m.kind == Org) {
			w := d.toks[m.i].low
			if y, ok := first[w]; !ok || d.ments[y].i > m.i {
				first[w] = x
			}
		}
	}
	if len(first) == 0 {
		return
	}
	for y := range d.ments {
		m := &d.ments[y]
		if m.j-m.i != 1 || (m.kind != Person && m.kind != Org) {
			continue
		}
		if x, ok := first[d.toks[m.i].low]; ok && d.ments[x].i < m.i && d.ments[x].kind == m.kind {
			m.name = d.ments[x].name
		}
	}
	for k := range d.toks {
		t := d.toks[k]
		if d.cover[k] != 0 || !t.word || !t.capital || common[t.low] {
			continue
		}
		if x, ok := first[t.low]; ok && d.ments[x].i < k {
			d.addMention(mention{i: k, j: k + 1, name: d.ments[x].name, kind: d.ments[x].kind})
		}
	}
}

// entities returns the de-duplicated mentions in order of appearance.
func (d *doc) entities() []Mention {
	idx := make([]int, len(d.ments))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return d.ments[a].i - d.ments[b].i })
	var out []Mention
	seen := make(map[string]bool, len(idx))
	for _, i := range idx {
		m := d.ments[i]
		key := strings.ToLower(m.name)
		if seen[key] || m.name == "" {
			continue
		}
		seen[key] = true
		out = append(out, Mention{Name: m.name, Kind: m.kind, Start: d.toks[m.i].start, End: d.toks[m.j-1].end})
	}
	return out
}

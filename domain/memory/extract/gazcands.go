package extract

// placeCues make an ambiguous place name (Chad, Turkey, Georgia) a place.
var placeCues = setOf("in to from visited visit visiting near across around based moved relocated born")

// gazetteerCands proposes technology, organisation, place and concept
// candidates for the gazetteer hits starting at token i.
func (d *doc) gazetteerCands(i int) {
	d.hits, d.buf = lex.lookupAt(d.toks, i, d.buf, d.hits[:0])
	for _, h := range d.hits {
		e := h.e
		switch e.cls {
		case clsTech:
			d.techCand(h)
		case clsOrg:
			if (!d.nameLike(h.i) || (d.lower && e.flags&fAmbig != 0)) && !exactAt(d.toks, h.i, h.j, e.surface) {
				continue // "apple" is fruit; "a16z" and "eBay" are spelled as listed
			}
			if e.flags&fAmbig != 0 && d.toks[h.i].sentStart && h.j-h.i == 1 {
				continue // "Grab lunch", "Target the enterprise"
			}
			name := e.name
			if surface := d.span(h.i, h.j); len(surface) > len(name) {
				name = surface // "Sequoia Capital" stays, "a16z" becomes Andreessen Horowitz
			}
			d.cands = append(d.cands, cand{i: h.i, j: h.j, name: name, kind: Org, prio: prioGazetteer})
		case clsPlace:
			if !d.nameLike(h.i) {
				continue
			}
			if e.flags&fAmbig != 0 && d.toks[h.i].sentStart && !placeCues[d.prevWord(h.i)] {
				continue
			}
			d.cands = append(d.cands, cand{i: h.i, j: h.j, name: e.name, kind: Concept, place: true, prio: prioPlace})
		case clsConcept:
			d.cands = append(d.cands, cand{i: h.i, j: h.j, name: e.name, kind: Concept, prio: prioConcept})
		}
	}
}

// techCand applies the ambiguity rules to a technology hit.
func (d *doc) techCand(h match) {
	e := h.e
	t := d.toks[h.i]
	c := cand{i: h.i, j: h.j, name: e.name, kind: Tech, prio: prioGazetteer, alsoOrg: e.flags&fAlsoOrg != 0}
	if c.alsoOrg {
		c.kind = Org // a product named after its company is the company ("Datadog paged us")
	}
	ambiguous := e.flags&(fAmbig|fCue) != 0
	if !ambiguous {
		d.cands = append(d.cands, c)
		return
	}
	cue := d.techCue(h.i, h.j)
	// A word that is also a given name, a place or a company needs a cue
	// ("try Julia for the simulation", "Elixir, Phoenix and PostgreSQL").
	needCue := e.flags&fCue != 0 || (h.j-h.i == 1 && d.otherReading(t.low))
	switch {
	case cue && (t.capital || d.strongCue(h.i)):
		c.prio = prioTechCue
	case !t.capital:
		if d.strongCue(h.i) {
			c.prio = prioTechCue
		} else {
			c.weak, c.lowerWeak, c.prio = true, true, prioWeakTech
		}
	case needCue || t.sentStart:
		c.weak, c.prio = true, prioWeakTech
	}
	d.cands = append(d.cands, c)
}

// otherReading reports whether a single word is also a given name, a
// place or an organisation.
func (d *doc) otherReading(low string) bool {
	for _, e := range lex.lookupWord(low) {
		switch e.cls {
		case clsFirst, clsPlace, clsOrg:
			return true
		}
	}
	return false
}

// techCue reports whether tokens [i, j) sit in technical context.
func (d *doc) techCue(i, j int) bool {
	s := d.toks[i].sent
	for k := i - 1; k >= 0 && k >= i-3 && d.toks[k].sent == s; k-- {
		if techCuesBefore[d.toks[k].low] {
			return true
		}
	}
	for k := j; k < len(d.toks) && k < j+5 && d.toks[k].sent == s; k++ {
		if techCuesAfter[d.toks[k].low] {
			return true
		}
	}
	return false
}

// strongCue reports whether the word before token i makes even a
// lower-case ambiguous word a technology ("i use go", "written in rust").
func (d *doc) strongCue(i int) bool {
	p := d.prevWord(i)
	if strongTechCues[p] {
		return true
	}
	if p == "in" || p == "to" {
		switch d.prevWord(i - 1) {
		case "written", "write", "writes", "writing", "code", "codes", "coding", "coded",
			"program", "programs", "switched", "migrated", "moved", "ported", "rewrote", "rewritten":
			return true
		}
	}
	return false
}

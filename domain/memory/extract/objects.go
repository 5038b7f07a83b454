package extract

// arg is a resolved subject or object.
type arg struct {
	name  string
	kind  Kind
	self  bool // Options.Self
	value bool // an attribute value (role, title, status): not an entity
	m     int  // existing mention, or -1
	i, j  int  // token span; a new mention when m < 0 and !self && !value
	place bool
	end   int // first token after the argument
}

// teamWords end a group a person can join or sit on.
var teamWords = setOf(`team squad group committee board council club guild crew chapter department
org organization organisation community cohort`)

// techFillers are skipped before a technology ("uses both Postgres and MySQL").
var techFillers = setOf("a an the both mostly mainly only primarily either")

// langModifiers may precede a spoken language ("fluent German").
var langModifiers = setOf(`fluent basic some conversational native a little bit of decent good
excellent perfect broken business elementary intermediate advanced`)

func (d *doc) existing(m int) arg {
	x := d.ments[m]
	return arg{name: x.name, kind: x.kind, m: m, i: x.i, j: x.j, end: x.j, place: x.place}
}

func (d *doc) fresh(i, j int, name string, kind Kind, place bool) arg {
	return arg{name: name, kind: kind, m: -1, i: i, j: j, end: j, place: place}
}

// skipWords skips tokens in set from q.
func (d *doc) skipWords(q, end int, set map[string]bool) int {
	for q < end && set[d.toks[q].low] {
		q++
	}
	return q
}

// skipLower skips lower-case tokens in set from q ("new" but not "New York").
func (d *doc) skipLower(q, end int, set map[string]bool) int {
	for q < end && set[d.toks[q].low] && !d.toks[q].capital {
		q++
	}
	return q
}

// capSeq returns the end of up to max capitalised, uncovered words from q
// ("Zentrix", "Bank of Foo", "Smith & Co").
func (d *doc) capSeq(q, end, max int) int {
	j := q
	for j < end && j-q < max {
		t := d.toks[j]
		if (t.low == "of" || t.text == "&") && j > q && j+1 < end && d.toks[j+1].capital && d.cover[j+1] == 0 {
			j++
			continue
		}
		if !t.word || !t.capital || d.cover[j] != 0 || common[t.low] || months[t.low] || weekdays[t.low] {
			break
		}
		j++
	}
	return j
}

// orgObj resolves an organisation at q.
func (d *doc) orgObj(q, end int, knownOnly bool) (arg, bool) {
	q = d.skipWords(q, end, setThe)
	if q >= end {
		return arg{}, false
	}
	if m, ok := d.mentionAt(q); ok {
		x := d.ments[m]
		if x.kind == Org || x.alsoOrg || x.canOrg {
			a := d.existing(m)
			a.kind, a.place = Org, false
			return a, true
		}
		return arg{}, false
	}
	if knownOnly || d.lower || d.cover[q] != 0 {
		return arg{}, false
	}
	if j := d.capSeq(q, end, 5); j > q {
		return d.fresh(q, j, d.span(q, j), Org, false), true
	}
	return arg{}, false
}

var setThe = setOf("the")

// placeObj resolves a place at q.
func (d *doc) placeObj(q, end int) (arg, bool) {
	q = d.skipWords(q, end, setThe)
	if q >= end {
		return arg{}, false
	}
	if m, ok := d.mentionAt(q); ok {
		x := d.ments[m]
		if x.place || x.canPlace {
			a := d.existing(m)
			a.kind, a.place = Concept, true
			return a, true
		}
		return arg{}, false
	}
	if d.cover[q] != 0 {
		return arg{}, false
	}
	var hits []match
	hits, d.buf = lex.lookupAt(d.toks, q, d.buf, hits)
	for _, h := range hits {
		if h.e.cls == clsPlace && h.j <= end && d.free(h.i, h.j) {
			return d.fresh(h.i, h.j, h.e.name, Concept, true), true
		}
	}
	if d.lower {
		return arg{}, false
	}
	if j := d.capSeq(q, end, 3); j > q {
		return d.fresh(q, j, d.span(q, j), Concept, true), true
	}
	return arg{}, false
}

// knownPlaceObj is placeObj for places the text or the gazetteer knows as
// places, not any capitalised name ("left Porto" but not "left Globex").
func (d *doc) knownPlaceObj(q, end int) (arg, bool) {
	q = d.skipWords(q, end, setThe)
	if q >= end {
		return arg{}, false
	}
	known := false
	if m, ok := d.mentionAt(q); ok {
		known = d.ments[m].place
	} else {
		var hits []match
		hits, d.buf = lex.lookupAt(d.toks, q, d.buf, hits)
		for _, h := range hits {
			known = known || h.e.cls == clsPlace && h.j <= end
		}
	}
	if !known {
		return arg{}, false
	}
	return d.placeObj(q, end)
}

// personObj resolves a person (or "me") at q.
func (d *doc) personObj(q, end int) (arg, bool) {
	if q >= end {
		return arg{}, false
	}
	if d.toks[q].low == "me" {
		return arg{self: true, m: -1, end: q + 1}, true
	}
	if m, ok := d.mentionAt(q); ok {
		x := d.ments[m]
		if x.kind == Person || x.canPerson {
			a := d.existing(m)
			a.kind, a.place = Person, false
			return a, true
		}
		return arg{}, false
	}
	if d.cover[q] != 0 {
		return arg{}, false
	}
	if d.lower {
		if e, ok := lex.get(d.toks[q].low, clsFirst); ok && e.flags&fAmbig == 0 {
			return d.fresh(q, q+1, d.personName(q, q+1), Person, false), true
		}
		return arg{}, false
	}
	j := q
	for j < end && j < q+3 && d.cover[j] == 0 && d.surnameWord(j) {
		j++
	}
	if j > q {
		return d.fresh(q, j, d.span(q, j), Person, false), true
	}
	return arg{}, false
}

// techObj resolves a technology at q; with unknown set, a capitalised
// unknown word is taken as one ("uses Obsidian").
func (d *doc) techObj(q, end int, unknown bool) (arg, bool) {
	q = d.skipWords(q, end, techFillers)
	if q >= end {
		return arg{}, false
	}
	if m, ok := d.mentionAt(q); ok {
		if x := d.ments[m]; x.kind == Tech || (x.kind == Org && x.alsoOrg) {
			return d.existing(m), true // "we use Figma", "we pay for Figma and use it daily"
		}
		return arg{}, false
	}
	t := d.toks[q]
	if unknown && d.cover[q] == 0 && t.word && t.capital && !common[t.low] && !d.otherClass(t.low) &&
		!lex.has(t.low, clsFirst) && (q+1 >= end || !d.toks[q+1].capital) {
		// A name no list knows that the team uses is, far more often than
		// not, a vendor's service ("we use Mailgun for receipts").
		return d.fresh(q, q+1, t.text, Org, false), true
	}
	return arg{}, false
}

// langObj resolves a human language at q ("fluent German").
func (d *doc) langObj(q, end int) (arg, bool) {
	q = d.skipWords(q, end, langModifiers)
	if q >= end {
		return arg{}, false
	}
	var hits []match
	hits, d.buf = lex.lookupAt(d.toks, q, d.buf, hits)
	for _, h := range hits {
		if h.e.cls == clsLang && h.j <= end && (d.toks[q].capital || d.lower) {
			if m, ok := d.mentionAt(q); ok {
				return d.existing(m), true
			}
			return d.fresh(h.i, h.j, h.e.name, Concept, false), true
		}
	}
	return arg{}, false
}

// valueObj takes free text to the end of the clause ("out of office").
func (d *doc) valueObj(q, end int) (arg, bool) {
	if q < end && d.toks[q].text == ":" {
		q++
	}
	q = d.skipLower(q, end, valueLeads)
	j := q
	for j < end && j < q+8 {
		switch d.toks[j].text {
		case ",", ";", ".", "(", "!", "\n":
			end = j
			continue
		}
		if j > q && valueStops[d.toks[j].low] && !d.toks[j].capital {
			break
		}
		j++
	}
	if j == q {
		return arg{}, false
	}
	return arg{name: d.span(q, j), kind: Concept, value: true, m: -1, end: j}, true
}

// valueLeads are adverbs that may open a value slot ("is now Director").
var valueLeads = setOf(`now currently still officially presently just`)

// valueStops end a free-text value where an adjunct starts ("Director
// according to the org chart", "part-time for now").
var valueStops = setOf(`according per this these that which who since so because for at in until as
right following after before when while effective starting from`)

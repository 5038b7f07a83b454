package extract

// phraseStops end a noun phrase.
var phraseStops = setOf(`in on at for with from to of by about over than during since until
before after when while because but and or if so as that which who whom whose this these those
last next every each today tomorrow yesterday tonight now then a an the my our your his her their
its is are was were be been being am 's 're 'm n't not very too more most less really again there
here also just still always usually often sometimes mostly even only ever a lot instead rather
like using via per anymore lately nowadays though either much well yet too`)

// phraseRejects are heads that make a phrase too vague to remember.
var phraseRejects = setOf(`it this that them him her me us you things thing stuff something
everything anything nothing lot one way idea time much some all both any none lots bit fact`)

// genericNouns are too vague to remember on their own ("loves my job").
var genericNouns = setOf(`job work life day week people place role position offer opportunity
topic project question issue problem working doing being having getting making going using seeing
talking helping trying taking spending meeting`)

// articles are skipped before a noun phrase object ("loves the outdoors").
var articles = setOf("the a an my our his her their your its some")

// thingObj resolves any entity or a short noun phrase (a concept) at q.
func (d *doc) thingObj(q, end int) (arg, bool) {
	skipped := false
	for q < end && !d.toks[q].word && !isPunct(d.toks[q].text) {
		q, skipped = q+1, true // "Loves 🍣 and ramen"
	}
	for skipped && q < end && (d.toks[q].low == "and" || d.toks[q].text == ",") {
		q++
	}
	q = d.skipWords(q, end, articles)
	q = d.skipLower(q, end, roleAdjectives)
	if q >= end || !d.toks[q].word || d.startsTrigger(q, end) {
		return arg{}, false
	}
	if m, ok := d.mentionAt(q); ok {
		x := d.ments[m]
		if x.j < end && d.toks[x.j].low == "'s" {
			return arg{}, false // "building Acme's billing system": the head comes later
		}
		if x.j >= end || !d.continues(x.j) {
			return d.existing(m), true
		}
	} else if d.cover[q] != 0 {
		return arg{}, false
	}
	j := q
	for j < end && j < q+4 && d.toks[j].word && !phraseStops[d.toks[j].low] && (j == q || !d.startsTrigger(j, end)) {
		if m, ok := d.mentionAt(j); ok && j > q {
			j = max(j, d.ments[m].j)
			continue
		}
		j++
	}
	if j == q || phraseRejects[d.toks[j-1].low] || phraseRejects[d.toks[q].low] || isDigit(d.toks[q].text[0]) ||
		(j == q+1 && genericNouns[d.toks[q].low]) ||
		(j < end && d.toks[j].low == "'s") {
		return arg{}, false // "building Acme's billing system": the head comes later
	}
	name := d.span(q, j)
	if j == q+1 {
		if e, ok := lex.get(d.toks[q].low, clsLang); ok {
			name = e.name
		}
	}
	return d.fresh(q, j, name, Concept, false), true
}

// continues reports whether token k extends a noun phrase ("Python scripting").
func (d *doc) continues(k int) bool {
	t := d.toks[k]
	return t.word && !t.capital && !phraseStops[t.low] && d.cover[k] == 0 && !bareForm(t.low)
}

// startsTrigger reports whether a trigger matches at token q.
func (d *doc) startsTrigger(q, end int) bool {
	for _, t := range triggers[d.toks[q].low] {
		if t.obj != objRole && t.obj != objTeam && d.matchLen(t, q, end) > 0 {
			return true
		}
	}
	return false
}

// list extends a first argument over ", x", "and x", ", and x", "& x".
func (d *doc) list(first arg, end int, next func(q int) (arg, bool)) []arg {
	out := []arg{first}
	k := first.end
	for k < end {
		q := k
		for q < end && (d.toks[q].text == "," || d.toks[q].low == "and" || d.toks[q].text == "&" ||
			d.toks[q].text == "/" || (d.toks[q].low == "or" && q > k)) {
			q++
		}
		for q < end && !d.toks[q].word && !isPunct(d.toks[q].text) {
			q++ // emoji and symbols
		}
		if q == k || q >= end || d.startsTrigger(q, end) {
			break
		}
		a, ok := next(q)
		if !ok {
			break
		}
		out = append(out, a)
		k = a.end
	}
	return out
}

func isPunct(s string) bool {
	switch s {
	case ",", ".", ";", ":", "!", "?", "(", ")", "\"", "'", "-", "—", "–", "\n":
		return true
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

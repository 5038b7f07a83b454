package extract

// label finds a "Sam: prefers async; hates meetings" line label for a
// subjectless predicate at p: a person opening the line before a colon.
func (d *doc) label(p int) (arg, bool) {
	start := d.lineStart(p)
	m, ok := d.mentionAt(start)
	if !ok || d.ments[m].kind != Person {
		return arg{}, false
	}
	if j := d.ments[m].j; j < p && d.toks[j].text == ":" {
		return d.existing(m), true
	}
	return arg{}, false
}

// withList extends a subject left over "Alice, Bob and I".
func (d *doc) withList(subs []arg, first int, s sentence) []arg {
	x := first - 1
	for x-1 >= s.from && (d.toks[x].text == "," || d.toks[x].low == "and" || d.toks[x].text == "&") {
		y := x - 1
		if d.toks[y].text == "," {
			y--
		}
		if y < s.from {
			break
		}
		if d.toks[y].low == "i" {
			subs = append(subs, arg{self: true, m: -1, i: y})
			x = y - 1
			continue
		}
		m, ok := d.mentionEnding(y)
		if !ok || d.ments[m].kind != Person {
			break
		}
		subs = append(subs, d.existing(m))
		x = d.ments[m].i - 1
	}
	// keep text order
	for i, j := 0, len(subs)-1; i < j; i, j = i+1, j-1 {
		subs[i], subs[j] = subs[j], subs[i]
	}
	return subs
}

// unknownSubject takes capitalised unrecognised words ending at k as the
// subject: a person for person predicates, an org for located_in.
func (d *doc) unknownSubject(k int, s sentence, pred string) ([]arg, ctx, bool) {
	if pred == "located_in" && k >= s.from && d.cover[k] == 0 {
		if e, ok := lex.get(d.toks[k].low, clsOrg); ok && d.toks[k].capital {
			return []arg{d.fresh(k, k+1, e.name, Org, false)}, ctx{}, true // "Stripe is headquartered in ..."
		}
	}
	i := k
	for i >= s.from && k-i < 3 && d.cover[i] == 0 && d.toks[i].word && d.toks[i].capital &&
		!common[d.toks[i].low] && !months[d.toks[i].low] && !weekdays[d.toks[i].low] && !d.otherClass(d.toks[i].low) {
		i--
	}
	if i == k || d.lower || (i >= s.from && d.toks[i].word && d.toks[i].capital) {
		return nil, ctx{}, false
	}
	if i >= s.from && subjectBlockers[d.toks[i].low] {
		return nil, ctx{}, false
	}
	kind := Person
	switch {
	case pred == "located_in":
		kind = Org
	case !personPreds[pred]:
		return nil, ctx{}, false
	case pred == "lives_in" && k == i+1 && !lex.has(d.toks[k].low, clsFirst):
		return nil, ctx{}, false // "Acme is based in Toronto": a company as likely as a person
	}
	return []arg{d.fresh(i+1, k+1, d.span(i+1, k+1), kind, false)}, ctx{}, true
}

// possessor resolves the subject named by my/his/her/our/'s at p.
func (d *doc) possessor(p int, s sentence) ([]arg, bool) {
	switch d.toks[p].low {
	case "my", "our":
		return []arg{{self: true, m: -1}}, true
	case "his", "her":
		a, ok := d.coref(p)
		return []arg{a}, ok
	case "'s":
		if m, ok := d.mentionEnding(p - 1); ok {
			return []arg{d.existing(m)}, true
		}
		a, _, ok := d.unknownSubject(p-1, s, "role")
		return a, ok
	}
	return nil, false
}

// corefWindow is how many tokens back he/she/his/her look for a person.
const corefWindow = 60

// coref resolves he/she/his/her at k to the only person named in the
// corefWindow tokens before it.
func (d *doc) coref(k int) (arg, bool) {
	found := -1
	for x := k - 1; x >= 0 && x >= k-corefWindow; x-- {
		if d.cover[x] == 0 {
			continue
		}
		m := d.cover[x] - 1
		if d.ments[m].kind != Person {
			continue
		}
		if found >= 0 && d.ments[found].name != d.ments[m].name {
			return arg{}, false // two people: the pronoun is ambiguous
		}
		if found < 0 {
			found = m
		}
	}
	if found < 0 {
		return arg{}, false
	}
	return d.existing(found), true
}

// sentenceSubject returns the subject opening the sentence, for a
// predicate after "and"/"but" ("Ingrid is Swedish and speaks German").
func (d *doc) sentenceSubject(s sentence, k int) ([]arg, bool) {
	f := s.from
	for f < k && !d.toks[f].word {
		f++
	}
	if d.toks[f].low == "i" {
		return []arg{{self: true, m: -1}}, true
	}
	m, ok := d.mentionAt(f)
	if !ok || (d.ments[m].kind != Person && d.ments[m].kind != Org) {
		return nil, false
	}
	for x := d.ments[m].j; x < k; x++ {
		if y, ok := d.mentionAt(x); ok && d.ments[y].kind == Person {
			return nil, false
		}
	}
	return []arg{d.existing(m)}, true
}

// checkSubjects enforces subject kinds, re-reading names that could be
// persons ("Charlotte is based in Edinburgh").
func (d *doc) checkSubjects(subs []arg, pred string) ([]arg, bool) {
	for i := range subs {
		a := &subs[i]
		if a.self || a.kind == Person {
			continue
		}
		if a.kind == Org && (!personPreds[pred] || pred == "lives_in") {
			continue
		}
		if a.m >= 0 && d.ments[a.m].canPerson {
			a.kind, a.place = Person, false
			continue
		}
		return nil, false
	}
	return subs, len(subs) > 0
}

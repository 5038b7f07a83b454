package extract

// ofHeads take a department after "of" inside a role ("head of design").
var ofHeads = setOf("head vp svp evp director chief president lead manager officer dean")

// groupNouns may own a role ("the team's data engineer").
var groupNouns = setOf("team company group org organisation organization department squad startup lab firm")

// founderHeads turn "X is the founder of Y" into founded rather than a role.
var founderHeads = setOf("founder cofounder co-founder")

// roleDeterminers may open a role phrase.
var roleDeterminers = setOf("a an the our their his her")

// rolePhrase parses a job role at q ("a senior engineer", "the head of
// design", "our new designer") and returns its token span; former
// reports "a former engineer" (an ended role).
func (d *doc) rolePhrase(q, end int) (i, j int, former, ok bool) {
	if q < end && d.toks[q].low == "my" {
		return 0, 0, false, false // "is my manager" is a relation, not a role
	}
	q = d.skipWords(q, end, roleDeterminers)
	if q+1 < end && d.toks[q+1].low == "'s" && groupNouns[d.toks[q].low] {
		q += 2 // "the team's data engineer"
	}
	q = d.skipLower(q, end, roleAdjectives)
	if q >= end {
		return 0, 0, false, false
	}
	switch d.toks[q].low {
	case "former", "ex", "retired":
		former = true
		q = d.skipLower(q+1, end, roleAdjectives)
	case "aspiring", "future", "prospective", "wannabe", "potential", "would-be":
		return 0, 0, false, false
	}
	last := -1
	for j := q; j < end && j-q < 5; j++ {
		t := d.toks[j]
		if !t.word {
			break
		}
		if t.low == "of" && last == j-1 && ofHeads[d.toks[j-1].low] && j+1 < end && departments[d.toks[j+1].low] {
			j++
			last = j
			continue
		}
		if phraseStops[t.low] {
			break
		}
		if m, ok := d.mentionAt(j); ok && (d.ments[m].kind == Person || d.ments[m].place) {
			break
		}
		if roleHeads[t.low] {
			last = j
		}
	}
	if last < 0 {
		return 0, 0, false, false
	}
	return q, last + 1, former, true
}

// roleFacts handles "X is a/the ROLE [at|of|for ORG]" and "works as".
func (d *doc) roleFacts(t *trigger, si, q int, subs []arg, subjOK bool, c ctx) bool {
	s := d.sents[si]
	end := s.to
	if p := q - 1; d.toks[p].low == "'s" && (p == 0 || (d.toks[p-1].low != "he" && d.toks[p-1].low != "she")) {
		return false // "Alice's engineer friend" is no role; "she's a designer" is
	}
	i, j, former, ok := d.rolePhrase(q, end)
	if !ok {
		return false
	}
	if former {
		c.ended = true
	}
	var org arg
	hasOrg := false
	if j < end {
		switch d.toks[j].low {
		case "at", "for", "of", "with":
			org, hasOrg = d.orgObj(j+1, end, false)
		}
	}
	if hasOrg {
		d.commit(&org)
	}
	if !subjOK {
		return false
	}
	for k := range subs {
		d.commit(&subs[k])
	}
	d.lastSubj, d.lastSent = subs, si
	st := d.factState(t, c, s)
	role := arg{name: d.span(i, j), kind: Concept, value: true, m: -1}
	switch {
	case founderHeads[d.toks[j-1].low] && hasOrg:
		d.emit(subs, "founded", []arg{org}, st)
	default:
		d.emit(subs, "role", []arg{role}, st)
		if hasOrg {
			d.emit(subs, "works_at", []arg{org}, st)
		}
	}
	return true
}

// skipTo finds one of words within four tokens of q and returns the
// position after it.
func (d *doc) skipTo(q, end int, words ...string) (int, bool) {
	for k := q; k < end && k < q+5; k++ {
		t := d.toks[k]
		for _, w := range words {
			if t.low == w {
				return k + 1, true
			}
		}
		if !t.word {
			return 0, false
		}
	}
	return 0, false
}

// fromTo handles "switched from Heroku to Fly.io" and "migrated the API
// from Flask to FastAPI": uses the new one, the old one ended.
func (d *doc) fromTo(t *trigger, si, q int, subs []arg, subjOK bool, c ctx) bool {
	s := d.sents[si]
	end := s.to
	f, ok := d.skipTo(q, end, "from")
	if !ok {
		return false
	}
	x, ok := d.techObj(f, end, true)
	if !ok || x.end >= end || d.toks[x.end].low != "to" {
		return false
	}
	y, ok := d.techObj(x.end+1, end, true)
	if !ok {
		return false
	}
	return d.replaces(t, si, subs, subjOK, c, "uses", x, y)
}

// replaces records a change from x to y ("switched from X to Y", "moved
// from X to Y"): y holds now and x no longer, when the sentence states it
// as a fact about its subject.
func (d *doc) replaces(t *trigger, si int, subs []arg, subjOK bool, c ctx, pred string, x, y arg) bool {
	d.commit(&x)
	d.commit(&y)
	if !subjOK {
		return false
	}
	d.lastSubj, d.lastSent = subs, si
	if st := d.factState(t, c, d.sents[si]); st == stNow {
		d.emit(subs, pred, []arg{y}, stNow)
		d.emit(subs, pred, []arg{x}, stEnded)
	}
	return true
}

// placeFromTo reads "moved from Porto to Madrid" (q at "Porto"): the
// subject lives in the second place now and no longer in the first.
func (d *doc) placeFromTo(t *trigger, si, q int, subs []arg, subjOK bool, c ctx) bool {
	s := d.sents[si]
	end := s.to
	x, ok := d.placeObj(q, end)
	if !ok || x.end >= end || d.toks[x.end].low != "to" {
		return false
	}
	y, ok := d.placeObj(x.end+1, end)
	if !ok {
		return false
	}
	return d.replaces(t, si, subs, subjOK, c, t.pred, x, y)
}

// revObject finds the object before "is my favourite" / "is my manager".
func (d *doc) revObject(p int, s sentence, pred string) (arg, bool) {
	k := p - 1
	if k < s.from {
		return arg{}, false
	}
	needPerson := pred != "likes"
	if m, ok := d.mentionEnding(k); ok {
		a := d.existing(m)
		if needPerson {
			if a.kind != Person && !d.ments[m].canPerson {
				return arg{}, false
			}
			a.kind, a.place = Person, false
		}
		return a, true
	}
	first := s.from
	for first < k && !d.toks[first].word {
		first++
	}
	if k-first > 2 {
		return arg{}, false
	}
	for x := first; x <= k; x++ {
		if !d.toks[x].word || d.cover[x] != 0 || common[d.toks[x].low] {
			return arg{}, false
		}
	}
	if needPerson {
		if d.lower || !d.toks[first].capital {
			return arg{}, false
		}
		return d.fresh(first, k+1, d.span(first, k+1), Person, false), true
	}
	return d.fresh(first, k+1, d.span(first, k+1), Concept, false), true
}

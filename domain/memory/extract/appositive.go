package extract

// appositives reads facts stated without a verb: "Sarah from Stripe",
// "Our CFO, Grace Liu,", "Alice Chen, CTO at Acme,".
func (d *doc) appositives() {
	for _, s := range d.sents {
		if s.question || d.hedged(s) {
			continue
		}
		for k := s.from; k < s.to; k++ {
			d.personFromOrg(k, s)
			d.roleThenPerson(k, s)
			d.personThenRole(k, s)
		}
	}
}

// personFromOrg: a person directly followed by "from" and a known org.
func (d *doc) personFromOrg(k int, s sentence) {
	m, ok := d.mentionEnding(k)
	if !ok || d.ments[m].kind != Person || k+2 >= s.to || d.toks[k+1].low != "from" {
		return
	}
	if o, ok := d.mentionAt(k + 2); ok && d.ments[o].kind == Org {
		d.emit([]arg{d.existing(m)}, "works_at", []arg{d.existing(o)}, stNow)
	}
}

// roleThenPerson: "our CFO, Grace Liu" gives Grace Liu the role CFO.
func (d *doc) roleThenPerson(k int, s sentence) {
	if k+2 >= s.to || !roleHeads[d.toks[k].low] || !d.toks[k].capital || d.toks[k+1].text != "," {
		return
	}
	switch d.prevWord(k) {
	case "our", "their", "the":
	default:
		return
	}
	m, ok := d.mentionAt(k + 2)
	if !ok || d.ments[m].kind != Person {
		return
	}
	role := arg{name: d.toks[k].text, kind: Concept, value: true, m: -1}
	d.emit([]arg{d.existing(m)}, "role", []arg{role}, stNow)
}

// personThenRole: "Alice Chen, CTO at Acme" gives a role and an employer.
func (d *doc) personThenRole(k int, s sentence) {
	m, ok := d.mentionEnding(k)
	if !ok || d.ments[m].kind != Person || k+2 >= s.to || d.toks[k+1].text != "," {
		return
	}
	i, j, former, ok := d.rolePhrase(k+2, s.to)
	if !ok || former || j >= s.to {
		return
	}
	switch d.toks[j].low {
	case "at", "of":
	default:
		return
	}
	org, ok := d.orgObj(j+1, s.to, false)
	if !ok {
		return
	}
	d.commit(&org)
	subj := []arg{d.existing(m)}
	if founderHeads[d.toks[j-1].low] {
		d.emit(subj, "founded", []arg{org}, stNow)
		return
	}
	d.emit(subj, "role", []arg{{name: d.span(i, j), kind: Concept, value: true, m: -1}}, stNow)
	d.emit(subj, "works_at", []arg{org}, stNow)
}

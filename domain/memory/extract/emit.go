package extract

// state is whether a matched fact holds now, held once, or neither.
type state uint8

const (
	stNone state = iota
	stNow
	stEnded
)

// factState decides from the trigger and what preceded it whether the
// fact is current, ended ("no longer", "used to", "left") or not stated
// ("might", "doesn't").
func (d *doc) factState(t *trigger, c ctx, s sentence) state {
	switch {
	case c.modal:
		return stNone
	case c.neg:
		if !c.ended && !d.sentenceHas(s, "anymore") {
			return stNone
		}
		if t.flags&tEnded != 0 {
			return stNone
		}
		return stEnded
	case t.flags&tEnded != 0 && c.perfect:
		// "I've worked at Microsoft for 10 years" still holds; "I've
		// worked at Google and Meta" is a career summary.
		if d.sentenceHas(s, "since") || d.sentenceHas(s, "for") {
			return stNow
		}
		return stNone
	case t.flags&tEnded != 0 || c.ended:
		return stEnded
	case c.past && !eventPreds[t.pred] && t.flags&tEventPast == 0:
		return stEnded
	}
	return stNow
}

func (d *doc) sentenceHas(s sentence, w string) bool {
	for k := s.from; k < s.to; k++ {
		if d.toks[k].low == w {
			return true
		}
	}
	return false
}

// resolveAndEmit resolves the object of trigger t after token q and
// records the facts. Typed objects (orgs, places, people, technologies)
// become entities even when no subject was found.
func (d *doc) resolveAndEmit(t *trigger, si, p, q int, subs []arg, subjOK bool, c ctx) bool {
	s := d.sents[si]
	end := s.to
	pred := t.pred
	var objs []arg
	ok := false
	typed := true
	if q < end && d.toks[q].text == ":" && t.obj != objValue {
		q++ // "Interested in: LLMs, RAG"
	}
	switch t.obj {
	case objOrg:
		if t.flags&tSkip != 0 {
			if q, ok = d.skipTo(q, end, "at", "from"); !ok {
				return false
			}
		}
		var a arg
		if a, ok = d.orgObj(q, end, t.flags&tKnownOrg != 0); ok {
			objs = d.list(a, end, func(q int) (arg, bool) { return d.orgObj(q, end, true) })
		}
	case objTeam:
		var a arg
		if t.flags&tTeamOnly == 0 {
			a, ok = d.orgObj(q, end, false)
		}
		if !ok {
			if a, ok = d.teamObj(q, end); ok {
				pred, typed = "member_of", false
			}
		}
		objs = []arg{a}
	case objPlace:
		var a arg
		if t.flags&tKnownPlace != 0 {
			a, ok = d.knownPlaceObj(q, end)
		} else {
			a, ok = d.placeObj(q, end)
		}
		objs = []arg{a}
	case objPerson:
		var a arg
		if a, ok = d.personObj(q, end); ok {
			objs = d.list(a, end, func(q int) (arg, bool) { return d.personObj(q, end) })
		}
	case objTech:
		if t.flags&tSkip != 0 {
			if q, ok = d.skipTo(q, end, "to", "on", "with"); !ok {
				return false
			}
		}
		var a arg
		if a, ok = d.techObj(q, end, pred == "uses"); ok {
			objs = d.list(a, end, func(q int) (arg, bool) { return d.techObj(q, end, pred == "uses") })
		}
	case objLang:
		var a arg
		if a, ok = d.langObj(q, end); ok {
			objs = d.list(a, end, func(q int) (arg, bool) { return d.langObj(q, end) })
		}
	case objThing:
		typed = false
		var a arg
		if a, ok = d.thingObj(q, end); ok {
			objs = d.list(a, end, func(q int) (arg, bool) { return d.thingObj(q, end) })
		}
	case objValue:
		typed = false
		var a arg
		a, ok = d.valueObj(q, end)
		objs = []arg{a}
	case objStatus:
		typed = false
		var a arg
		a, ok = d.statusObj(q, end)
		objs = []arg{a}
	case objRole:
		return d.roleFacts(t, si, q, subs, subjOK, c)
	case objFromTo:
		return d.fromTo(t, si, q, subs, subjOK, c)
	case objPlaceFromTo:
		return d.placeFromTo(t, si, q, subs, subjOK, c)
	}
	if !ok {
		return false
	}
	if typed || subjOK {
		for i := range objs {
			d.commit(&objs[i])
		}
	}
	if !subjOK {
		return false
	}
	for i := range subs {
		d.commit(&subs[i])
	}
	d.lastSubj, d.lastSent = subs, si
	if t.flags&tPassive != 0 {
		for _, o := range objs {
			d.emit([]arg{o}, pred, subs, d.factState(t, c, s))
		}
		return true
	}
	st := d.factState(t, c, s)
	d.emit(subs, pred, objs, st)
	d.followUps(pred, subs, objs[len(objs)-1].end, end, st)
	return true
}

// followUps reads what trails an object: "joined OpenAI as a research
// scientist", "works on search at Etsy", "building a CLI in Go".
func (d *doc) followUps(pred string, subs []arg, k, end int, st state) {
	if k >= end {
		return
	}
	w := d.toks[k].low
	switch {
	case (pred == "works_at" || pred == "lives_in") && w == "for" && st == stEnded:
		// "left Globex for Initech", "left Porto for Madrid": the second holds now.
		obj, ok := d.orgObj(k+1, end, false)
		if pred == "lives_in" {
			obj, ok = d.placeObj(k+1, end)
		}
		if ok {
			d.commit(&obj)
			d.emit(subs, pred, []arg{obj}, stNow)
		}
	case pred == "works_at" && w == "from" && st == stNow:
		// "joined Initech from Globex": the first no longer holds.
		if o, ok := d.orgObj(k+1, end, false); ok {
			d.commit(&o)
			d.emit(subs, "works_at", []arg{o}, stEnded)
		}
	case pred == "works_at" && w == "as":
		if i, j, former, ok := d.rolePhrase(k+1, end); ok && !former {
			d.emit(subs, "role", []arg{{name: d.span(i, j), kind: Concept, value: true, m: -1}}, st)
		}
	case (pred == "works_on" || pred == "manages" || pred == "member_of") && w == "at":
		if o, ok := d.orgObj(k+1, end, false); ok {
			d.commit(&o)
			d.emit(subs, "works_at", []arg{o}, st)
		}
	case pred == "works_on" && (w == "in" || w == "with" || w == "using"):
		if o, ok := d.techObj(k+1, end, false); ok {
			d.emit(subs, "uses", []arg{o}, st)
		}
	}
}

// teamObj resolves "the platform team" for joined/member of/on.
func (d *doc) teamObj(q, end int) (arg, bool) {
	a, ok := d.thingObj(q, end)
	if !ok || a.m >= 0 || !teamWords[d.toks[a.j-1].low] {
		return arg{}, false
	}
	if a.end+1 < end && d.toks[a.end].low == "of" {
		if o, ok := d.orgObj(a.end+1, end, false); ok {
			return o, true // "on the board of Mozilla"
		}
	}
	return a, true
}

package extract

import "strings"

// States of things. A bug, a deal, a plan or a ticket has one state at a
// time, so "the checkout bug was fixed", "the Acme deal closed", "we
// cancelled the Heroku plan" and "ticket #42 is still open" each state a
// status of that thing (a Concept entity); the graph's status predicate is
// single-valued, so the newest state supersedes the one before.
//
// A thing is a noun phrase whose head is one of stateHeads, named either
// by modifiers after a determiner or at a sentence start ("the checkout
// bug", "our Heroku plan", "Acme's renewal"; a bare "the deal" names
// nothing) or by an identifier ("bug #123", "PR 381").

// stateHeads are nouns of things whose state people record.
var stateHeads = setOf(`bug issue ticket incident outage deal contract plan subscription project feature
launch release migration pr proposal order invoice round campaign experiment integration partnership
pilot trial renewal negotiation lease application epic milestone rollout refactor upgrade deployment
hotfix patch account`)

// stateValues are the states a thing can be in, as written after it ("was
// fixed", "is still open", "closed"), with their canonical value.
var stateValues = map[string]string{
	"open": "open", "opened": "open", "reopened": "reopened", "closed": "closed", "fixed": "fixed",
	"resolved": "resolved", "cancelled": "cancelled", "canceled": "cancelled", "paused": "paused",
	"shipped": "shipped", "launched": "launched", "merged": "merged", "signed": "signed", "lost": "lost",
	"won": "won", "blocked": "blocked", "unblocked": "unblocked", "done": "done", "completed": "completed",
	"finished": "completed", "approved": "approved", "rejected": "rejected", "pending": "pending",
	"live": "live", "deprecated": "deprecated", "delayed": "delayed", "postponed": "postponed",
	"stalled": "stalled", "renewed": "renewed", "terminated": "terminated", "expired": "expired",
	"deployed": "deployed", "released": "released", "scrapped": "cancelled", "abandoned": "abandoned",
	"escalated": "escalated", "reverted": "reverted",
}

// stateWordPairs are two-word states.
var stateWordPairs = map[string]string{
	"on hold": "on hold", "in progress": "in progress", "in review": "in review", "fell through": "lost",
	"went live": "live", "rolled back": "rolled back", "back open": "reopened",
}

// agentVerbs put a thing in a state when someone acts on it ("we fixed the
// checkout bug", "Ana closed the Acme deal").
var agentVerbs = map[string]string{
	"fixed": "fixed", "resolved": "resolved", "closed": "closed", "reopened": "reopened",
	"cancelled": "cancelled", "canceled": "cancelled", "paused": "paused", "shipped": "shipped",
	"launched": "launched", "merged": "merged", "signed": "signed", "lost": "lost", "won": "won",
	"completed": "completed", "finished": "completed", "approved": "approved", "rejected": "rejected",
	"renewed": "renewed", "terminated": "terminated", "deployed": "deployed", "released": "released",
	"opened": "open", "blocked": "blocked", "unblocked": "unblocked", "delayed": "delayed",
	"postponed": "postponed", "scrapped": "cancelled", "killed": "cancelled", "abandoned": "abandoned",
	"escalated": "escalated", "reverted": "reverted",
}

// Words around a state.
var (
	thingDeterminers = setOf("the our my their his her its your this that")
	// thingAdjectives are dropped from a thing's name ("the new pricing plan").
	thingAdjectives = setOf(`new old big small huge major minor critical nasty annoying last latest first
next current same other whole long-standing recurring weird annual monthly yearly entire`)
	// stateSkips may stand between a thing and its state.
	stateSkips = setOf(`is are was were has have had been be got gets 's now finally officially just
already still eventually successfully completely fully also formally quietly`)
	// stateBlockers make a state unasserted ("will be fixed", "isn't fixed").
	stateBlockers = setOf(`not n't never no will 'll might may could would should must going needs need
expected supposed hopefully probably maybe if whether`)
	// agentAdverbs may stand between an agent's verb and its thing.
	agentAdverbs = setOf("finally just already officially successfully quietly eventually")
)

// HasStateHead reports whether name is a thing with a state ("checkout
// bug", "Acme deal", "ticket 42"): its head noun is one such things have.
func HasStateHead(name string) bool {
	f := strings.Fields(strings.ToLower(name))
	if len(f) < 2 {
		return false
	}
	if stateHeads[f[len(f)-1]] {
		return true
	}
	return stateHeads[f[0]] && strings.IndexFunc(f[1], func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

// states recognises things and records the states sentences give them.
// It runs after the relation triggers, so a thing never hides the name
// inside it from them ("uses Heroku" stays a fact in "we use the Heroku
// plan"); the name inside stays an entity of its own.
func (d *doc) states() {
	for si, s := range d.sents {
		asserted := !s.question && !d.hedged(s)
		for h := s.from; h < s.to; h++ {
			if !d.toks[h].word || !stateHeads[d.toks[h].low] {
				continue
			}
			i, j, name, ok := d.thingAt(h, s)
			if !ok {
				continue
			}
			if !d.commitThing(i, j, name) {
				continue
			}
			if !asserted {
				continue
			}
			if hd := d.firstHedge(si); hd >= 0 && hd < i {
				continue
			}
			value, ok := d.stateAfter(j, s)
			if !ok {
				value, ok = d.stateBefore(i, s)
			}
			if ok {
				d.add(Relation{Subject: name, SubjectKind: Concept, Predicate: "status", Object: value,
					ObjectKind: Concept}, false)
			}
		}
	}
}

// thingAt reads the thing whose head is token h: [i, j) and its name.
func (d *doc) thingAt(h int, s sentence) (i, j int, name string, ok bool) {
	// An identifier: "bug #123", "PR 381".
	k := h + 1
	if k < s.to && d.toks[k].text == "#" {
		k++
	}
	if k < s.to && d.toks[k].word && strings.IndexFunc(d.toks[k].text, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
		return h, k + 1, d.toks[h].text + " " + d.toks[k].text, true
	}
	// Modifiers: "the checkout bug", "Acme's renewal".
	start := h
	for k := h - 1; k >= s.from && h-k <= 3; k-- {
		t := d.toks[k]
		if !t.word || thingDeterminers[t.low] || phraseStops[t.low] || stateBlockers[t.low] ||
			agentVerbs[t.low] != "" || stateValues[t.low] != "" || strings.HasSuffix(t.low, "ly") {
			break
		}
		start = k
	}
	lead := start - 1 // what stands before the modifiers
	if start > s.from && d.toks[start-1].low == "'s" {
		p := start - 2
		if m, found := d.mentionEnding(p); found {
			p = d.ments[m].i
		} else {
			for p-1 >= s.from && p-1 >= start-4 && d.toks[p-1].word && d.toks[p-1].capital && !d.toks[p].sentStart {
				p--
			}
			if p < s.from || !d.toks[p].word || !d.toks[p].capital {
				return 0, 0, "", false
			}
		}
		start, lead = p, -1 // the possessor determines it: "Acme's renewal"
	}
	for start < h && thingAdjectives[d.toks[start].low] && !d.toks[start].capital {
		start++
	}
	if start == h {
		return 0, 0, "", false // "the deal": which one?
	}
	if lead >= s.from && lead >= 0 && !thingDeterminers[d.toks[lead].low] && agentVerbs[d.toks[lead].low] == "" {
		return 0, 0, "", false // "fixing checkout bug reports": not a thing named
	}
	// A mention crossing the phrase's edge means the words belong elsewhere.
	for k := start; k <= h; k++ {
		if c := d.cover[k]; c != 0 {
			if m := d.ments[c-1]; m.i < start || m.j > h+1 {
				return 0, 0, "", false
			}
		}
	}
	return start, h + 1, d.span(start, h+1), true
}

// commitThing records the thing on [i, j) as a concept mention, unless
// that span is already one; it reports whether the thing is a mention.
func (d *doc) commitThing(i, j int, name string) bool {
	if m, ok := d.mentionAt(i); ok && d.ments[m].j == j {
		return d.ments[m].name != ""
	}
	d.addPhrase(mention{i: i, j: j, name: name, kind: Concept})
	return true
}

// stateAfter reads "was fixed", "is still open", "closed" after a thing
// ending before token q.
func (d *doc) stateAfter(q int, s sentence) (string, bool) {
	aux := false
	for ; q < s.to && d.toks[q].word; q++ {
		w := d.toks[q].low
		if stateBlockers[w] {
			return "", false
		}
		if !stateSkips[w] {
			break
		}
		aux = true
	}
	if q >= s.to || !d.toks[q].word {
		return "", false
	}
	if q+1 < s.to {
		if v, ok := stateWordPairs[d.toks[q].low+" "+d.toks[q+1].low]; ok {
			return v, true
		}
	}
	v, ok := stateValues[d.toks[q].low]
	if !ok {
		return "", false
	}
	if !aux && q+1 < s.to && (articles[d.toks[q+1].low] || d.cover[q+1] != 0) {
		return "", false // "the login bug blocked the release": it acted, it is not blocked
	}
	return v, true
}

// stateBefore reads "we fixed the checkout bug" before a thing starting
// at token i.
func (d *doc) stateBefore(i int, s sentence) (string, bool) {
	v := i - 1
	if v >= s.from && thingDeterminers[d.toks[v].low] {
		v--
	}
	for v >= s.from && agentAdverbs[d.toks[v].low] {
		v--
	}
	if v < s.from {
		return "", false
	}
	value, ok := agentVerbs[d.toks[v].low]
	if !ok {
		return "", false
	}
	for k := v - 1; k >= s.from && k >= v-3; k-- {
		if w := d.toks[k].low; stateBlockers[w] || w == "to" {
			return "", false // "we haven't fixed", "need to close"
		}
	}
	return value, true
}

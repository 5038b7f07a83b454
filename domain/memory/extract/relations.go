package extract

// Words between a subject and its predicate.
var (
	// skipBefore are adverbs and auxiliaries that may sit between them.
	skipBefore = setOf(`is are am 'm 're 's was were be been being has have 've had also now currently
recently still just really actually finally officially both all each already mostly primarily
mainly usually always often happily basically definitely absolutely totally truly genuinely
deeply personally a an the do does did to`)
	negWords   = setOf("not n't never no")
	modalWords = setOf(`might may could would should will 'll 'd must wants want wanted plans plan
planning hopes hope hoping considering consider thinking going about trying try tries expected
expects supposed likely probably maybe perhaps possibly need needs needed wish wishes`)
	endedWords = setOf("used formerly previously once")
	// hedges open sentences that state nothing for certain.
	hedges = setOf("if unless whether maybe perhaps possibly probably hopefully suppose imagine")
	// embeddedHedges anywhere before a predicate make it unasserted
	// ("Ask Tom whether he still uses Vim").
	embeddedHedges = setOf("if unless whether")
	// personPreds need a person (or Self) as subject.
	personPreds = setOf("works_at role title reports_to studied_at married_to born_in speaks knows lives_in")
	// wePreds accept "we" as the first person.
	wePreds = setOf("uses works_on founded lives_in likes dislikes interested_in owns")
	// eventPreds stay true in the past tense.
	eventPreds = setOf("born_in founded studied_at knows")
	// prepositions before a name make it no subject ("Everyone at Acme uses Slack").
	subjectBlockers = setOf("at in of for from with by to on about")
)

// reportVerbs may stand between a subject and a gerund clause about it
// ("told me about being on staff at Acme").
var reportVerbs = setOf("shared mentioned told said confirmed explained noted admitted described recalled talked spoke wrote")

// ctx records what stands between a subject and its predicate.
type ctx struct {
	neg, modal, ended, past bool
	perfect                 bool // has/have/'ve right before the predicate
}

// relations finds the facts each sentence states.
func (d *doc) relations() {
	for si, s := range d.sents {
		if s.question || d.hedged(s) {
			continue
		}
		d.lastSubj = nil
		for p := s.from; p < s.to; {
			if n := d.tryTriggers(si, p); n > 0 {
				p += n
			} else {
				p++
			}
		}
	}
	d.appositives()
}

// maxGap bounds the words (adverbs, auxiliaries, negations) between a
// subject and its predicate.
const maxGap = 8

// firstHedge returns the first "if"/"whether"/"unless" of sentence si, or -1.
func (d *doc) firstHedge(si int) int {
	if d.hedgeAt == nil {
		d.hedgeAt = make([]int, len(d.sents))
		for i, s := range d.sents {
			d.hedgeAt[i] = -1
			for k := s.from; k < s.to; k++ {
				if embeddedHedges[d.toks[k].low] {
					d.hedgeAt[i] = k
					break
				}
			}
		}
	}
	return d.hedgeAt[si]
}

// hedged reports whether a sentence opens with a hedge ("If Nadia joins ...").
func (d *doc) hedged(s sentence) bool {
	for k := s.from; k < s.to; k++ {
		if d.toks[k].word {
			return hedges[d.toks[k].low]
		}
	}
	return false
}

// tryTriggers applies the first trigger at token p that yields a fact and
// returns how many tokens it covered.
func (d *doc) tryTriggers(si, p int) int {
	s := d.sents[si]
	for _, t := range triggers[d.toks[p].low] {
		n := d.matchLen(t, p, s.to)
		if n > 0 && d.apply(t, si, p, n) {
			return n
		}
	}
	return 0
}

// apply resolves the subject and object of trigger t at [p, p+n) and
// records the relation. It reports whether the trigger was used.
func (d *doc) apply(t *trigger, si, p, n int) bool {
	s := d.sents[si]
	q := p + n
	var subs []arg
	var c ctx
	ok := true
	switch {
	case t.flags&tRevSelf != 0:
		subs = []arg{{self: true, m: -1}}
	case t.flags&tPoss != 0:
		subs, ok = d.possessor(p, s)
	default:
		subs, c, ok = d.subjects(t, p, s, si)
	}
	if h := d.firstHedge(si); h >= 0 && h < p {
		c.modal = true
	}
	if ok {
		subs, ok = d.checkSubjects(subs, t.pred)
	}
	if ok && (d.toks[p].low == "was" || d.toks[p].low == "were") {
		c.past = true
	}
	if t.flags&tRevSelf != 0 {
		obj, found := d.revObject(p, s, t.pred)
		if !found || !ok {
			return false
		}
		d.commit(&obj)
		d.emit(subs, t.pred, []arg{obj}, d.factState(t, c, s))
		return true
	}
	return d.resolveAndEmit(t, si, p, q, subs, ok, c)
}

// subjects finds the subject(s) left of the trigger at p.
func (d *doc) subjects(t *trigger, p int, s sentence, si int) ([]arg, ctx, bool) {
	var c ctx
	k := p - 1
	being := false
	for ; k >= s.from && k >= p-maxGap; k-- {
		w := d.toks[k].low
		switch {
		case w == "being":
			being = true // "X shared being employed by Y": X is the subject
		case being && (reportVerbs[w] || w == "me" || w == "us" || w == "about"):
		case w == "present" && k-1 >= s.from && d.toks[k-1].low == "at":
			k-- // "Ana at present is employed by Acme"
		case w == "longer" && k-1 >= s.from && d.toks[k-1].low == "no":
			c.ended = true
			k--
		case negWords[w]:
			c.neg = true
		case modalWords[w]:
			c.modal = true
		case endedWords[w]:
			c.ended = true
		case skipBefore[w]:
			switch w {
			case "was", "were", "had":
				c.past = true
			case "has", "have", "'ve":
				c.perfect = k == p-1
			}
		default:
			goto found
		}
	}
found:
	if k < s.from || d.toks[k].text == ":" || d.toks[k].text == "(" || d.toks[k].text == "—" {
		if t.flags&tBare != 0 || (t.flags&tNoBare == 0 && bareForm(d.toks[p].low)) {
			if a, ok := d.label(p); ok {
				return []arg{a}, c, true
			}
			return []arg{{self: true, m: -1}}, c, true
		}
		return nil, c, false
	}
	switch w := d.toks[k].low; {
	case w == "i":
		return d.withList([]arg{{self: true, m: -1}}, k, s), c, true
	case w == "we":
		return []arg{{self: true, m: -1}}, c, wePreds[t.pred]
	case w == "user" && (k == s.from || d.toks[k-1].low == "the"):
		return []arg{{self: true, m: -1}}, c, true // "User prefers concise answers"
	case (w == "team" || w == "company" || w == "startup") && k > s.from && d.toks[k-1].low == "our":
		return []arg{{self: true, m: -1}}, c, wePreds[t.pred]
	case w == "he" || w == "she":
		a, ok := d.coref(k)
		return []arg{a}, c, ok
	case w == "who" || w == "that":
		j := k - 1
		if j >= s.from && d.toks[j].text == "," {
			j--
		}
		if m, ok := d.mentionEnding(j); ok {
			return []arg{d.existing(m)}, c, true
		}
		return nil, c, false
	case w == "and" || w == "," || w == "but" || w == "&" || w == "then":
		if d.lastSubj != nil && d.lastSent == si {
			return d.lastSubj, c, true
		}
		if w != "," {
			a, ok := d.sentenceSubject(s, k)
			return a, c, ok
		}
		return nil, c, false
	}
	if m, ok := d.mentionEnding(k); ok {
		subs := d.withList([]arg{d.existing(m)}, d.ments[m].i, s)
		if b := subs[len(subs)-1].i - 1; b >= s.from && subjectBlockers[d.toks[b].low] {
			return nil, c, false
		}
		return subs, c, true
	}
	return d.unknownSubject(k, s, t.pred)
}

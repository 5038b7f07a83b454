package extract

// Kinds from the sentence. A name list says what a name usually is; the
// sentence says what it is here. A product named after its company
// (Datadog, Figma, Slack, Heroku: marked ^ in the technology list) is that
// company whatever the verb ("Datadog paged us", "we use Figma"). A name
// no list knows, or a known company at a sentence start where the lists
// need a cue ("Notion raised a round"), is a company where the sentence
// treats it as one ("Stripe's API", "we pay Gusto", "an invoice from
// Vanta", "Twilio charged us"). A pet named after its kind ("our dog Pepper", "Pepper, our
// corgi", "a puppy named Biscuit") is no person and no company: a concept,
// the kind the platform gives what it has no kind for.

// orgPossessions follow "X's" when X is a company ("Stripe's API").
var orgPossessions = setOf(`api apis sdk team sales support ceo cto cfo coo founder founders cofounder
pricing price prices invoice invoices bill bills billing contract terms account rep reps engineers
employees staff office offices headquarters hq funding valuation customers investors board lawyers
legal acquisition layoffs outage outages status`)

// orgActs follow a company acting as one ("Twilio charged us twice").
var orgActs = setOf(`raised acquired charged billed invoiced announced sued refunded sponsored
partnered quoted overcharged`)

// orgLeads precede a company: one word ("pay Gusto") or two ("invoice
// from Figma").
var orgLeads = setOf(`pay pays paying paid`)

var orgLeadPairs = setOf(`invoice_from invoices_from bill_from contract_with deal_with partnership_with
partnered_with signed_with acquired_by funded_by backed_by customer_of customers_of account_with
subscription_to vendor_is provider_is`)

// petNouns name kinds of pets.
var petNouns = setOf(`dog dogs puppy pup cat kitten kitty corgi labrador lab retriever poodle beagle
terrier dachshund husky spaniel collie shepherd bulldog pug chihuahua greyhound whippet parrot
budgie rabbit bunny hamster guinea horse pony goldfish fish tortoise turtle ferret gecko lizard snake
bird canary cockatiel`)

// ownerWords own a pet the text names.
var ownerWords = setOf("my our his her their")

// petCands proposes a pet's name at token i: "our dog Pepper", "a puppy
// named Biscuit", "Pepper the dog", "Pepper, our corgi".
func (d *doc) petCands(i int) {
	t := d.toks[i]
	if !t.capital || d.lower || common[t.low] {
		return
	}
	word := func(k int) string {
		if k < 0 || k >= len(d.toks) || d.toks[k].sent != t.sent {
			return ""
		}
		return d.toks[k].low
	}
	pet := (petNouns[word(i-1)] && (ownerWords[word(i-2)] || word(i-2) == "the")) ||
		((word(i-1) == "named" || word(i-1) == "called") && petNouns[word(i-2)]) ||
		(word(i+1) == "the" && petNouns[word(i+2)]) ||
		(word(i+1) == "," && ownerWords[word(i+2)] && petNouns[word(i+3)])
	if pet {
		d.cands = append(d.cands, cand{i: i, j: i + 1, name: t.text, kind: Concept, prio: prioPet})
	}
}

// prioPet outranks a given name on the same word ("Pepper").
const prioPet = 58

// petFacts records that the writer owns the pets "my"/"our" names.
func (d *doc) petFacts() {
	for _, s := range d.sents {
		if s.question || d.hedged(s) {
			continue
		}
		for k := s.from; k < s.to; k++ {
			m, ok := d.mentionAt(k)
			if !ok || d.ments[m].kind != Concept || d.ments[m].j != k+1 {
				continue
			}
			at := func(o int) string {
				if o < s.from || o >= s.to {
					return ""
				}
				return d.toks[o].low
			}
			mine := func(w string) bool { return w == "my" || w == "our" }
			if (petNouns[at(k-1)] && mine(at(k-2))) || (at(k+1) == "," && mine(at(k+2)) && petNouns[at(k+3)]) {
				d.emit([]arg{{self: true, m: -1}}, "owns", []arg{d.existing(m)}, stNow)
			}
		}
	}
}

// orgContext makes companies of the names a sentence treats as companies.
func (d *doc) orgContext() {
	if d.lower {
		return
	}
	for _, s := range d.sents {
		for k := s.from; k < s.to; k++ {
			if m, ok := d.mentionAt(k); ok {
				k = d.ments[m].j - 1
				continue
			}
			t := d.toks[k]
			if d.cover[k] != 0 || !t.word || !t.capital || common[t.low] || months[t.low] || weekdays[t.low] ||
				(d.otherClass(t.low) && !companyWord(t.low)) || lex.has(t.low, clsFirst) || honorifics[t.low] {
				continue
			}
			j := k + 1
			for j < s.to && j < k+3 && d.toks[j].word && d.toks[j].capital && d.cover[j] == 0 && !common[d.toks[j].low] {
				j++
			}
			if d.orgCue(k, j, s) {
				d.addMention(mention{i: k, j: j, name: d.span(k, j), kind: Org})
			}
			k = j - 1
		}
	}
}

// orgCue reports whether the sentence treats the name on [i, j) as a
// company.
func (d *doc) orgCue(i, j int, s sentence) bool {
	at := func(o int) string {
		if o < s.from || o >= s.to {
			return ""
		}
		return d.toks[o].low
	}
	switch {
	case at(j) == "'s" && orgPossessions[at(j+1)],
		at(j) == "'s" && orgPossessions[at(j+2)] && !d.toks[j+1].capital, // "Stripe's new pricing"
		orgActs[at(j)],
		at(j) == "," && at(j+1) == "the" && (at(j+2) == "company" || at(j+2) == "startup" || at(j+2) == "vendor"),
		at(j) == "is" && (at(j+1) == "the" || at(j+1) == "a") && (at(j+2) == "company" || at(j+2) == "startup" || at(j+2) == "vendor"),
		orgLeads[at(i-1)],
		orgLeads[at(i-2)] && (at(i-1) == "to" || at(i-1) == "for"),
		orgLeadPairs[at(i-2)+"_"+at(i-1)]:
		return true
	}
	return false
}

// companyWord reports whether a list knows low as a company, or as a
// product that is also one ("notion", "stripe").
func companyWord(low string) bool {
	for _, e := range lex.lookupWord(low) {
		if e.cls == clsOrg || (e.cls == clsTech && e.flags&fAlsoOrg != 0) {
			return true
		}
	}
	return false
}

// meetingWords before a person make "at X" the place of the meeting ("had
// dinner with Ana at Nopa", "met Ana at Slush"), not her employer.
var meetingWords = setOf(`with met meet meeting saw see seeing ran bumped joined and`)

// affiliations reads a person's company written beside the name, as in
// notes about contacts: "Naomi Park at Index Ventures replied", "Ravi Kumar
// (Stripe) intro'd us". The company must be one the text recognised.
func (d *doc) affiliations() {
	for _, s := range d.sents {
		if s.question || d.hedged(s) {
			continue
		}
		for k := s.from; k < s.to; k++ {
			m, ok := d.mentionAt(k)
			if !ok {
				continue
			}
			x := d.ments[m]
			k = x.j - 1
			if x.kind != Person || x.j+1 >= s.to || (x.i > s.from && meetingWords[d.toks[x.i-1].low]) {
				continue
			}
			o, ok := d.mentionAt(x.j + 1)
			if !ok || d.ments[o].kind != Org {
				continue
			}
			y := d.ments[o]
			switch d.toks[x.j].text {
			case "at":
			case "(":
				if y.j >= s.to || d.toks[y.j].text != ")" {
					continue
				}
			default:
				continue
			}
			d.emit([]arg{d.existing(m)}, "works_at", []arg{d.existing(o)}, stNow)
		}
	}
}

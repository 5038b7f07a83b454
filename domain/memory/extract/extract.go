package extract

import (
	"strings"
	"unicode"
)

// Kind is an entity type. The platform knows exactly these four; places
// and spoken languages are returned as Concept.
type Kind string

// The entity kinds.
const (
	Person  Kind = "person"
	Org     Kind = "org"
	Tech    Kind = "tech"
	Concept Kind = "concept"
)

// Mention is one entity found in a text.
type Mention struct {
	// Name is the canonical surface form: "Alice Chen", "Acme Robotics",
	// "PostgreSQL" (for "postgres"), "machine learning".
	Name string
	Kind Kind
	// Start and End are the byte offsets of the first occurrence in the
	// text (text[Start:End] is what was written, e.g. "k8s").
	Start, End int
}

// Relation is one fact stated by a text: Subject Predicate Object.
type Relation struct {
	Subject     string // entity name; Options.Self for first-person sentences
	SubjectKind Kind
	Predicate   string // snake_case, one of Predicates
	Object      string // entity name, or a value for role, title and status
	ObjectKind  Kind   // Concept for role, title and status values
}

// Options tune an extraction.
type Options struct {
	// Self is the name first-person statements ("I work at Acme", "my
	// role is CTO") and subjectless statements ("Moved to Berlin.") are
	// about; "" drops such relations.
	Self string
	// SelfKind is the kind of Self; Person when zero.
	SelfKind Kind
}

// Result is what Extract found.
type Result struct {
	// Entities are de-duplicated case-insensitively by name, in order of
	// first appearance. Role, title and status values are not entities.
	Entities []Mention
	// Relations are the current facts, de-duplicated.
	Relations []Relation
	// Ended are facts the text says no longer hold ("left Google", "no
	// longer works at Uber", "used to live in Paris", "switched from
	// Heroku"); they never appear in Relations.
	Ended []Relation
}

// Predicates is the relation vocabulary, in documentation order. The
// returned slice is a fresh copy.
func Predicates() []string {
	return []string{"works_at", "lives_in", "role", "title", "status", "reports_to", "manages",
		"founded", "studied_at", "located_in", "uses", "likes", "dislikes", "interested_in",
		"works_on", "knows", "married_to", "owns", "member_of", "speaks", "born_in"}
}

// Extract finds entities and relations in text. It is deterministic,
// allocates only per call (safe for concurrent use) and needs no model
// or network.
func Extract(text string, opt Options) Result {
	d := newDoc(text, opt)
	d.recognise()
	d.orgContext()
	d.relations()
	d.affiliations()
	d.petFacts()
	d.states()
	d.res.Entities = d.entities()
	return d.res
}

// Classify guesses the kind of a bare name given without context: an
// entity id or a relation subject ("Alice Chen", "acme-corp",
// "kubernetes", "pricing strategy"). It always returns one of the four
// kinds; Concept when nothing better is known.
func Classify(name string) Kind {
	n := strings.TrimSpace(name)
	if n == "" {
		return Concept
	}
	if k, ok := classifyKnown(n); ok {
		return k
	}
	if !strings.ContainsRune(n, ' ') && strings.ContainsAny(n, "-_") && strings.ToLower(n) == n {
		spaced := strings.Map(func(r rune) rune {
			if r == '-' || r == '_' {
				return ' '
			}
			return r
		}, n)
		if k, ok := classifyKnown(spaced); ok {
			return k
		}
		if strings.Count(spaced, " ") <= 2 && firstWordIsName(spaced) {
			return Person
		}
		return classifyShape(n)
	}
	return classifyShape(n)
}

// classifyKnown uses the gazetteers and recognisers on the bare name.
func classifyKnown(n string) (Kind, bool) {
	toks, _ := tokenize(n)
	if len(toks) == 0 {
		return Concept, true
	}
	key := make([]string, len(toks))
	for i, t := range toks {
		key[i] = t.low
	}
	es := lex.entries[strings.Join(key, " ")]
	var tech, org, concept, person, ambiguousTech bool
	for _, e := range es {
		switch e.cls {
		case clsTech:
			if e.flags&fAlsoOrg != 0 {
				org = true // a product named after its company
				continue
			}
			tech = true
			ambiguousTech = ambiguousTech || e.flags&(fAmbig|fCue) != 0
		case clsOrg:
			org = true
		case clsPlace, clsConcept, clsLang:
			concept = true
		case clsFirst:
			person = true
		}
	}
	switch {
	case tech && !(ambiguousTech && (person || org)):
		return Tech, true
	case org:
		return Org, true
	case concept:
		return Concept, true
	case person:
		return Person, true
	}
	if honorifics[toks[0].low] {
		return Person, true
	}
	if len(toks) == 1 && roleHeads[toks[0].low] {
		return Concept, true // "CTO" is a role
	}
	r := Extract(n, Options{})
	if len(r.Entities) == 1 && r.Entities[0].Start == toks[0].start && r.Entities[0].End == toks[len(toks)-1].end {
		return r.Entities[0].Kind, true
	}
	last := toks[len(toks)-1]
	if len(toks) >= 2 && orgSuffixes[last.low] && (last.low != "ai" || last.text == "AI") {
		return Org, true
	}
	if len(toks) >= 3 && orgOfHeads[toks[0].low] && toks[1].low == "of" {
		return Org, true
	}
	return "", false
}

func firstWordIsName(s string) bool {
	f := strings.Fields(s)
	return len(f) >= 2 && (lex.has(f[0], clsFirst) || lex.has(f[len(f)-1], clsSurname))
}

// classifyShape guesses from spelling alone: "Zorblat Quux" (title case
// words) is a person, "Zentrix" an org, "gpt-5" or "FooDB" a technology.
func classifyShape(n string) Kind {
	words := strings.Fields(n)
	allTitle := true
	for _, w := range words {
		r := []rune(w)
		if !unicode.IsUpper(r[0]) || strings.ToUpper(w) == w {
			allTitle = false
		}
	}
	if len(words) >= 2 && len(words) <= 3 && allTitle {
		return Person
	}
	if len(words) == 1 {
		w := words[0]
		hasDigit := strings.IndexFunc(w, unicode.IsDigit) >= 0
		inner := strings.IndexFunc(w[1:], unicode.IsUpper) >= 0
		switch {
		case strings.ContainsAny(w, ".+#") || hasDigit || (inner && unicode.IsUpper([]rune(w)[0]) && strings.ToUpper(w) != w):
			return Tech
		case len(w) >= 2 && strings.ToUpper(w) == w && strings.ToLower(w) != w:
			return Org
		case unicode.IsUpper([]rune(w)[0]):
			return Org
		}
	}
	return Concept
}

package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/memory/extract"
)

// Model-based extraction is optional: with a language model configured,
// the command layer asks it for a memory's entities and facts before it
// takes the user's lock and passes the answer in RememberInput.Model.
// Remember then checks that answer against the text (CheckModelExtraction)
// and merges it with the offline extractor's (MergeExtraction). The events
// record the merged facts, so replaying them never asks a model.

// ModelSelf is the name a model's answer gives the memory's own subject:
// first-person statements ("I", "we", "our") and subjectless notes. Facts
// maps it to the memory's self (its entity, else SelfName).
const ModelSelf = "user"

// ModelDropped counts what CheckModelExtraction dropped, by reason.
type ModelDropped struct {
	Kind      int // an entity kind outside person, org, tech and concept
	Predicate int // a predicate outside extract.Predicates (after normalising)
	NotInText int // a name or value the text does not contain
	Malformed int // an empty name, the self as a mention, a fact about itself
}

// Total is the number of items dropped.
func (d ModelDropped) Total() int { return d.Kind + d.Predicate + d.NotInText + d.Malformed }

// valuePredicates take a value, not an entity, as their object.
var valuePredicates = map[string]bool{"role": true, "title": true, "status": true}

// modelPredicates is extract.Predicates as a set.
var modelPredicates = func() map[string]bool {
	out := map[string]bool{}
	for _, p := range extract.Predicates() {
		out[p] = true
	}
	return out
}()

// isExtractKind reports whether k is one of the four entity kinds.
func isExtractKind(k extract.Kind) bool {
	switch k {
	case extract.Person, extract.Org, extract.Tech, extract.Concept:
		return true
	}
	return false
}

// CheckModelExtraction keeps what a model may contribute to the facts of
// text and counts what it drops: entities of the four kinds, relations and
// ended facts whose predicate is in extract.Predicates (normalised, "Works
// At" is works_at), and only names and values the text contains as whole
// words, case ignored, or that are among known (the names the offline
// extractor found, which may be canonical forms such as "PostgreSQL" for
// "postgres"); ModelSelf may be a relation's subject or object. A name is
// given its canonical form when the offline extractor reads it as one
// entity ("postgres" is PostgreSQL). Entities and relations are
// de-duplicated, case ignored; relation kinds come from the model's
// entities, else from extract.Classify (Concept for the values of role,
// title and status; empty for ModelSelf).
func CheckModelExtraction(text string, model extract.Result, known ...string) (extract.Result, ModelDropped) {
	var drop ModelDropped
	knownSet := map[string]bool{}
	for _, k := range known {
		knownSet[strings.ToLower(squashSpace(k))] = true
	}
	present := func(name string) bool {
		return knownSet[strings.ToLower(name)] || findName(text, name) >= 0
	}
	var out extract.Result
	kinds := map[string]extract.Kind{}
	for _, m := range model.Entities {
		name, kind := squashSpace(m.Name), extract.Kind(strings.ToLower(strings.TrimSpace(string(m.Kind))))
		switch {
		case !isExtractKind(kind):
			drop.Kind++
			continue
		case name == "" || strings.EqualFold(name, ModelSelf):
			drop.Malformed++
			continue
		case !present(name):
			drop.NotInText++
			continue
		}
		start := findName(text, name)
		name = canonicalName(name)
		key := strings.ToLower(name)
		if _, dup := kinds[key]; dup {
			continue
		}
		kinds[key] = kind
		mention := extract.Mention{Name: name, Kind: kind}
		if start >= 0 {
			mention.Start, mention.End = start, start+len(spellsAt(text, start, squashSpace(m.Name)))
		}
		out.Entities = append(out.Entities, mention)
	}
	kindOf := func(name string, value bool) extract.Kind {
		switch {
		case name == ModelSelf:
			return ""
		case value:
			return extract.Concept
		}
		if k, ok := kinds[strings.ToLower(name)]; ok {
			return k
		}
		return extract.Classify(name)
	}
	seen := map[string]bool{}
	check := func(rels []extract.Relation) []extract.Relation {
		var kept []extract.Relation
		for _, r := range rels {
			pred, err := NormalizePredicate(r.Predicate)
			if err != nil || !modelPredicates[pred] {
				drop.Predicate++
				continue
			}
			value := valuePredicates[pred]
			subject, object := squashSpace(r.Subject), squashSpace(r.Object)
			if subject == "" || object == "" {
				drop.Malformed++
				continue
			}
			ok := true
			for _, n := range []*string{&subject, &object} {
				switch {
				case strings.EqualFold(*n, ModelSelf):
					*n = ModelSelf
				case !present(*n):
					ok = false
				case !(value && n == &object):
					*n = canonicalName(*n)
				}
			}
			if !ok {
				drop.NotInText++
				continue
			}
			if strings.EqualFold(subject, object) || (value && object == ModelSelf) {
				drop.Malformed++
				continue
			}
			key := strings.ToLower(subject + "\x00" + pred + "\x00" + object)
			if seen[key] {
				continue
			}
			seen[key] = true
			kept = append(kept, extract.Relation{Subject: subject, SubjectKind: kindOf(subject, false), Predicate: pred,
				Object: object, ObjectKind: kindOf(object, value)})
		}
		return kept
	}
	out.Relations = check(model.Relations)
	seen = map[string]bool{}
	out.Ended = check(model.Ended)
	return out, drop
}

// MergeExtraction unites the offline extractor's result with a checked
// model result (see CheckModelExtraction): every entity of either, the
// offline kind winning a conflict unless the offline extractor said
// concept and the model person, org or tech; every relation and ended fact
// of either, once, case ignored, except a model relation the offline
// extractor says has ended and a model ended fact that is a relation of
// the result. Relation kinds follow the merged entities. Offline items
// come first, in their order.
func MergeExtraction(offline, model extract.Result) extract.Result {
	var out extract.Result
	idx := map[string]int{}
	for _, list := range [][]extract.Mention{offline.Entities, model.Entities} {
		for _, m := range list {
			key := strings.ToLower(m.Name)
			if i, ok := idx[key]; ok {
				if out.Entities[i].Kind == extract.Concept && m.Kind != extract.Concept && isExtractKind(m.Kind) {
					out.Entities[i].Kind = m.Kind
				}
				continue
			}
			idx[key] = len(out.Entities)
			out.Entities = append(out.Entities, m)
		}
	}
	fix := func(r extract.Relation) extract.Relation {
		if i, ok := idx[strings.ToLower(r.Subject)]; ok {
			r.SubjectKind = out.Entities[i].Kind
		}
		if i, ok := idx[strings.ToLower(r.Object)]; ok && !valuePredicates[r.Predicate] {
			r.ObjectKind = out.Entities[i].Kind
		}
		return r
	}
	key := func(r extract.Relation) string {
		return strings.ToLower(r.Subject + "\x00" + r.Predicate + "\x00" + r.Object)
	}
	ended := map[string]bool{}
	for _, r := range offline.Ended {
		ended[key(r)] = true
	}
	current := map[string]bool{}
	for _, list := range [][]extract.Relation{offline.Relations, model.Relations} {
		for _, r := range list {
			k := key(r)
			if current[k] || ended[k] {
				continue
			}
			current[k] = true
			out.Relations = append(out.Relations, fix(r))
		}
	}
	ended = map[string]bool{}
	for _, list := range [][]extract.Relation{offline.Ended, model.Ended} {
		for _, r := range list {
			k := key(r)
			if current[k] || ended[k] {
				continue
			}
			ended[k] = true
			out.Ended = append(out.Ended, fix(r))
		}
	}
	return out
}

// Facts is what Remember records of a memory's text: the offline
// extractor's result, merged with the model's answer when there is one,
// after checking it against the text. ModelSelf in the answer is opt.Self
// (of opt.SelfKind, Person when empty); with no opt.Self such facts are
// dropped, as the offline extractor drops them.
func Facts(text string, opt extract.Options, model *extract.Result) extract.Result {
	offline := extract.Extract(text, opt)
	if model == nil {
		return offline
	}
	known := make([]string, 0, len(offline.Entities))
	for _, m := range offline.Entities {
		known = append(known, m.Name)
	}
	checked, _ := CheckModelExtraction(text, *model, known...)
	selfKind := opt.SelfKind
	if selfKind == "" {
		selfKind = extract.Person
	}
	self := func(rels []extract.Relation) []extract.Relation {
		var out []extract.Relation
		for _, r := range rels {
			if r.Subject == ModelSelf {
				r.Subject, r.SubjectKind = opt.Self, selfKind
			}
			if r.Object == ModelSelf {
				r.Object, r.ObjectKind = opt.Self, selfKind
			}
			if r.Subject == "" || r.Object == "" || strings.EqualFold(r.Subject, r.Object) {
				continue
			}
			out = append(out, r)
		}
		return out
	}
	checked.Relations, checked.Ended = self(checked.Relations), self(checked.Ended)
	return MergeExtraction(offline, checked)
}

// squashSpace trims s and collapses its runs of white space to one space.
func squashSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// canonicalName is the offline extractor's name for name when it reads the
// whole of it as one entity ("postgres" is PostgreSQL), else name.
func canonicalName(name string) string {
	r := extract.Extract(name, extract.Options{})
	if len(r.Entities) == 1 && r.Entities[0].Start == 0 && r.Entities[0].End == len(name) {
		return r.Entities[0].Name
	}
	return name
}

// findName returns the byte offset of the first occurrence of word in
// text, case ignored, that is not part of a longer word, or -1. White
// space in word matches any run of white space.
func findName(text, word string) int {
	if word == "" {
		return -1
	}
	for i := 0; i < len(text); {
		if m := spellsAt(text, i, word); m != "" && wholeWord(text, i, i+len(m)) {
			return i
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	return -1
}

// spellsAt returns the part of text from i that spells word, case ignored
// (a space of word matching any run of white space), or "".
func spellsAt(text string, i int, word string) string {
	j := i
	for _, w := range word {
		if j >= len(text) {
			return ""
		}
		t, n := utf8.DecodeRuneInString(text[j:])
		if w == ' ' {
			if !unicode.IsSpace(t) {
				return ""
			}
			for j < len(text) {
				t, n = utf8.DecodeRuneInString(text[j:])
				if !unicode.IsSpace(t) {
					break
				}
				j += n
			}
			continue
		}
		if !sameLetter(t, w) {
			return ""
		}
		j += n
	}
	return text[i:j]
}

// sameLetter reports whether a and b are the same letter, case ignored.
func sameLetter(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// wholeWord reports whether text[i:j] is not part of a longer word: no
// letter or digit touches it on either side.
func wholeWord(text string, i, j int) bool {
	wordy := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(text[:i]); wordy(r) {
			if f, _ := utf8.DecodeRuneInString(text[i:]); wordy(f) {
				return false
			}
		}
	}
	if j < len(text) {
		if r, _ := utf8.DecodeRuneInString(text[j:]); wordy(r) {
			if l, _ := utf8.DecodeLastRuneInString(text[:j]); wordy(l) {
				return false
			}
		}
	}
	return true
}

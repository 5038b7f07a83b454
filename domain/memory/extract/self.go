package extract

import (
	"strings"
	"unicode"
)

// prioSelf outranks every other reading of the same span: the name of the
// entity a memory is about, written in its text, is that entity.
const prioSelf = 70

// selfCands proposes Options.Self where the text names it at token i: the
// whole name ("Eitan Santoso", even when no gazetteer knows the given
// name), or for a person the given name alone ("Sofia said that Sofia
// lives in Edinburgh": Sofia is the person, not the city). The default
// first-person name ("user") and lower-case refs are not names.
func (d *doc) selfCands(i int) {
	self := d.selfWords()
	if self == nil || !d.toks[i].capital {
		return
	}
	if j, ok := d.wordsAt(i, self); ok {
		d.cands = append(d.cands, cand{i: i, j: j, name: d.opt.Self, kind: d.selfKind(), prio: prioSelf})
		return
	}
	if d.selfKind() == Person && len(self) > 1 && d.toks[i].low == self[0] &&
		(i+1 >= len(d.toks) || !d.toks[i+1].capital || !d.toks[i+1].word) {
		d.cands = append(d.cands, cand{i: i, j: i + 1, name: d.opt.Self, kind: Person, prio: prioSelf})
	}
}

// selfWords returns the lower-cased words of Options.Self when it is a
// proper name of a person or an organisation, else nil.
func (d *doc) selfWords() []string {
	s := d.opt.Self
	if s == "" || !unicode.IsUpper([]rune(s)[0]) {
		return nil
	}
	if k := d.selfKind(); k != Person && k != Org {
		return nil
	}
	return strings.Fields(strings.ToLower(s))
}

func (d *doc) selfKind() Kind {
	if d.opt.SelfKind == "" {
		return Person
	}
	return d.opt.SelfKind
}

// wordsAt reports whether the tokens from i spell words, and where they end.
func (d *doc) wordsAt(i int, words []string) (int, bool) {
	k := i
	for _, w := range words {
		if k >= len(d.toks) || d.toks[k].low != w {
			return 0, false
		}
		k++
	}
	return k, true
}

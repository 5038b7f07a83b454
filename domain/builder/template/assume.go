package template

import (
	"fmt"
	"slices"
	"strings"
)

// assumptions writes down, as plain sentences for the founder, what Plan
// inferred and from which words: the archetype and the words that chose it
// (and any that pointed elsewhere), the name, the core entities, each
// extra entity and its words, and the notes of the catalogue.
func assumptions(s Spec, ch scoring, nameWords []string, p picked) []string {
	var out []string
	summary := summaryOf(s.Archetype)
	if len(ch.Words) == 0 {
		out = append(out, fmt.Sprintf("No word of the idea is in the lexicon, so it became a %s: an app that %s",
			s.Archetype, summary))
	} else {
		out = append(out, fmt.Sprintf("%s matched the %s archetype (score %d): an app that %s",
			quoteList(ch.Words), s.Archetype, ch.Scores[s.Archetype], summary))
	}
	for _, a := range Archetypes() {
		if a == s.Archetype || ch.Scores[a] == 0 {
			continue
		}
		if ch.Scores[a] == ch.Scores[s.Archetype] {
			out = append(out, fmt.Sprintf("%s pointed to %s with the same score; %s comes first in the fixed order",
				quoteList(ch.WordsOf[a]), a, s.Archetype))
			continue
		}
		out = append(out, fmt.Sprintf("%s also pointed to %s, which scored lower (%d)",
			quoteList(ch.WordsOf[a]), a, ch.Scores[a]))
	}
	if len(nameWords) == 0 {
		out = append(out, fmt.Sprintf("The app is called '%s' because no other word of the idea could name it", s.AppName))
	} else {
		out = append(out, fmt.Sprintf("The app is called '%s', from %s", s.AppName, quoteList(nameWords)))
	}
	var core []string
	for _, e := range s.Entities {
		if len(e.Matched) == 0 {
			core = append(core, pluralLabel(e))
		}
	}
	if len(core) > 0 {
		out = append(out, fmt.Sprintf("The core entities of the %s archetype are %s", s.Archetype, andList(core)))
	}
	for _, e := range p.Added {
		out = append(out, fmt.Sprintf("%s added %s", quoteList(e.Matched), pluralLabel(e)))
	}
	for _, e := range p.Dropped {
		out = append(out, fmt.Sprintf("%s would have added %s, but an app takes at most %d extra entities",
			quoteList(e.Matched), pluralLabel(e), MaxExtras))
	}
	for _, e := range s.Entities {
		if n := noteOf(e.Name, s.Archetype); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return append(out, generalAssumptions(s)...)
}

// generalAssumptions are true of every generated app, stated when they
// apply to this one.
func generalAssumptions(s Spec) []string {
	var out []string
	money := false
	for _, e := range s.Entities {
		for _, f := range e.Fields {
			money = money || f.Type == TypeMoney
		}
	}
	if len(s.Entities) > 1 {
		out = append(out, "Records refer to each other by name, typed as text, not by links")
	}
	if money {
		out = append(out, "Amounts are decimals with at most two places, in one currency the app does not name")
	}
	return append(out, "The app has no sign-in: anyone who can open it can change its records unless APP_WRITE_TOKEN is set")
}

// noteOf returns the catalogue note of an entity of this app: the
// archetype's own definition first, then the extras'.
func noteOf(name, archetype string) string {
	for _, d := range Catalogue() {
		if d.Archetype != archetype {
			continue
		}
		for _, e := range slices.Concat(d.Core, d.Fallback) {
			if e.Name == name {
				return e.Note
			}
		}
	}
	for _, x := range Extras() {
		if x.Name == name {
			return x.Note
		}
	}
	return ""
}

func summaryOf(archetype string) string {
	for _, e := range Lexicon() {
		if e.Archetype == archetype {
			return e.Summary
		}
	}
	return ""
}

// pluralLabel is the entity's plural as a heading: "Staff members".
func pluralLabel(e Entity) string {
	s := strings.ReplaceAll(e.Plural, "_", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// quoteList quotes words and joins them: 'a', 'b' and 'c'.
func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + w + "'"
	}
	return andList(q)
}

// andList joins items: "a", "a and b", "a, b and c".
func andList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

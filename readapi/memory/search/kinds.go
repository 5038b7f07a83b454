package search

import "github.com/strata-platform/strata/domain/memory/text"

// Lexicon supplies the kinds a noun belongs to (package wordnet reads them
// from WordNet), so that a question naming a kind ("What pets ... animals?",
// "Which foods ...?", "What holidays ...?") finds memories naming its
// members or synonyms ("adopted a corgi", "loves sushi", "a long family
// vacation"). It must be safe for concurrent use.
type Lexicon interface {
	// Kinds returns word's base form as a noun and the lemmas of its
	// synonyms and hypernyms (without the base form); "" and nil when word
	// is no noun. word is lower-case, a compound's words joined by "_".
	// The caller does not modify the result.
	Kinds(word string) (lemma string, kinds []string)
}

// kindMark prefixes kind terms, which share the term index with stems and
// bigrams: stems never start with it.
const kindMark = "^"

// kindTerms returns the distinct kind terms of a document's tokens: for
// every lower-case word (a capitalised one is mostly a name: "Pepper" the
// dog, "Park" the surname) and every two-word compound WordNet knows
// ("border collie", "home office"), each of its kinds once, except the
// word's own lemma. A query noun's kind term is an alternative of its stem
// (one group, scored once in the normaliser); without its own lemma a
// document saying "holiday" matches "holidays" through the stem only and one
// saying "vacation" through the kind only, so neither earns the group twice.
func kindTerms(lex Lexicon, toks []text.Token, seen map[string]bool, out []string) []string {
	add := func(word string) {
		_, kinds := lex.Kinds(word)
		for _, k := range kinds {
			if !seen[k] {
				seen[k] = true
				out = append(out, kindMark+k)
			}
		}
	}
	for i, t := range toks {
		if t.Capitalised || t.Number {
			continue
		}
		add(t.Word)
		if i > 0 && !toks[i-1].Capitalised && !toks[i-1].Number {
			add(toks[i-1].Word + "_" + t.Word)
		}
	}
	return out
}

// queryKind returns the kind term a query word asks for ("animals" →
// "^animal"), or "".
func queryKind(lex Lexicon, t text.Token) string {
	if lex == nil || t.Capitalised || t.Number {
		return ""
	}
	if l, _ := lex.Kinds(t.Word); l != "" {
		return kindMark + l
	}
	return ""
}

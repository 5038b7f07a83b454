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
	vk, _ := lex.(kindLexicon)
	named := func(word string) { // a capitalised word: the vocabulary's kinds only
		if vk.voc == nil {
			return
		}
		for _, k := range vk.nameKinds(word) {
			if !seen[k] {
				seen[k] = true
				out = append(out, kindMark+k)
			}
		}
	}
	for i, t := range toks {
		if t.Capitalised || t.Number {
			named(t.Word)
		} else {
			add(t.Word)
		}
		if i == 0 {
			continue
		}
		if i >= 2 {
			named(toks[i-2].Word + "_" + t.Word) // "new backend engineer"
		}
		pair := toks[i-1].Word + "_" + t.Word
		if !toks[i-1].Capitalised && !toks[i-1].Number && !t.Capitalised && !t.Number {
			add(pair)
		} else {
			named(pair) // "Series A", "AWS bill"
		}
	}
	return out
}

// queryKinds returns the kind terms a query word asks for: WordNet's
// ("animals" → "^animal") and the vocabulary's ("Hiring" → "^hiring",
// whatever the case).
func queryKinds(lex Lexicon, t text.Token) []string {
	if lex == nil {
		return nil
	}
	var out []string
	if !t.Capitalised && !t.Number {
		if l, _ := lex.Kinds(t.Word); l != "" {
			out = append(out, kindMark+l)
		}
	}
	if vk, ok := lex.(kindLexicon); ok && vk.voc != nil {
		if k := vk.queryName(t.Word); k != "" && !contains(out, kindMark+k) {
			out = append(out, kindMark+k)
		}
	}
	return out
}

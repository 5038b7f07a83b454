package wordnet

import "strings"

// nounSuffixes are WordNet's detachment rules for nouns (morphy), tried in
// order after the exception list.
var nounSuffixes = [][2]string{{"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
	{"men", "man"}, {"ies", "y"}, {"s", ""}}

// Lemma returns word's base form as a noun ("holidays" → "holiday",
// "geese" → "goose"), or "" when word is no noun WordNet knows. word is a
// lower-case surface form; compounds join their words with "_".
func (db *DB) Lemma(word string) string {
	if l, ok := db.exc[word]; ok {
		return l
	}
	if _, ok := db.index[word]; ok {
		return word
	}
	for _, r := range nounSuffixes {
		if base, ok := strings.CutSuffix(word, r[0]); ok && base != "" {
			if _, ok := db.index[base+r[1]]; ok {
				return base + r[1]
			}
		}
	}
	return ""
}

// Kinds returns word's lemma as a noun and the lemmas of the synonym sets
// of its first Senses senses and of every hypernym above them (at most
// maxDepth levels, without the lemma itself and the few generic lemmas at
// the top); "" and nil when word is no noun WordNet knows. Results are
// memoised (compounds only when known); callers must not modify them.
func (db *DB) Kinds(word string) (lemma string, kinds []string) {
	db.mu.RLock()
	e, ok := db.kinds[word]
	db.mu.RUnlock()
	if ok {
		return e.lemma, e.kinds
	}
	e.lemma = db.Lemma(word)
	if e.lemma == "" && strings.Contains(word, "_") {
		return "", nil // most word pairs are no compound: not worth a memo entry
	}
	e.kinds = db.kindsOf(e.lemma)
	db.mu.Lock()
	db.kinds[word] = e
	db.mu.Unlock()
	return e.lemma, e.kinds
}

func (db *DB) kindsOf(lemma string) []string {
	if lemma == "" {
		return nil
	}
	var out []string
	seenWord := map[string]bool{lemma: true}
	seenSet := map[int64]bool{}
	type item struct {
		off   int64
		depth int
	}
	var queue []item
	for i, off := range db.index[lemma] {
		if i == Senses {
			break
		}
		queue = append(queue, item{off, 0})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		s, ok := db.synsets[it.off]
		if !ok || seenSet[it.off] {
			continue
		}
		seenSet[it.off] = true
		for _, w := range s.words {
			if !seenWord[w] && !generic[w] {
				seenWord[w] = true
				out = append(out, w)
			}
		}
		if it.depth < maxDepth {
			for _, h := range s.hyper {
				queue = append(queue, item{h, it.depth + 1})
			}
		}
	}
	return out
}

package search

import (
	"slices"

	"github.com/strata-platform/strata/domain/memory/text"
)

// ImpliedShare: in a search restricted to one entity (Query.EntityID), a
// query word held by at least this share of that entity's documents cannot
// tell them apart (it is, mostly, the entity's own name, which the question
// repeats), yet it weighs in every document's similarity as much as the
// words that say what is asked. Such words are dropped from the query; a
// query left without words keeps them all.
const ImpliedShare = 0.5

// impliedMin is the fewest documents an entity must have before its
// implied words are dropped: below it every share is noise.
const impliedMin = 4

// dropImplied returns toks without the words the entity filter implies.
// Callers hold the read lock.
func (ix *Index) dropImplied(toks []text.Token, e *env) []text.Token {
	nf := float64(ix.entityDocs[e.entity])
	if e.entity == "" || nf < impliedMin {
		return toks
	}
	implied := map[string]bool{}
	for _, t := range toks {
		if _, seen := implied[t.Stem]; !seen {
			implied[t.Stem] = float64(ix.entityDF(t.Stem, e.entity)) >= ImpliedShare*nf
		}
	}
	out := slices.DeleteFunc(slices.Clone(toks), func(t text.Token) bool { return implied[t.Stem] })
	if len(out) == 0 {
		return toks
	}
	return out
}

// entityDF counts the live documents of entity holding stem.
func (ix *Index) entityDF(stem, entity string) int {
	id, ok := ix.terms.lookup(stem)
	if !ok {
		return 0
	}
	n, last := 0, int32(-1)
	for _, s := range ix.terms.pl[id].docs {
		if s == last {
			continue // a run of one document's occurrences
		}
		last = s
		if ix.meta[s].alive && slices.Contains(ix.recs[s].doc.EntityIDs, entity) {
			n++
		}
	}
	return n
}

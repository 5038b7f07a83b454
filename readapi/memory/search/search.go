package search

import (
	"slices"
	"strings"
	"sync"

	"github.com/strata-platform/strata/domain/memory/text"
)

// Search returns q's best hits, at most q.Limit (10 when unset), sorted by
// Score descending (ties: newer CreatedAt first, then ID). Only documents
// passing q's filters are returned; a document that is a near-duplicate
// (text.NearDuplicate of the Texts) of a higher-ranked hit is dropped. Safe
// for concurrent use; deterministic for a given index state and reference
// time.
func (ix *Index) Search(q Query) []Hit {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	toks := ix.an.Analyze(q.Text)
	if len(toks) == 0 {
		return nil
	}
	var qemb []float32
	if ix.set.embedder != nil {
		qemb = ix.set.embedder.Embed(q.Text)
	}

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	e, ok := ix.newEnv(q, limit, qemb)
	if !ok {
		return nil
	}
	// Once per search, not per variant: the scan reads every embedding.
	e.dense = ix.neighbours(e, max(DenseNeighbours, e.m))
	toks = ix.dropImplied(toks, e)
	orig := ix.abbreviate(origSpec(toks, ix.set.lexicon), toks)
	var syn spec
	hasSyn := false
	if q.Expand {
		syn, hasSyn = synonymSpec(toks, ix.set.synonyms)
	}
	op := ix.resolve(orig, e)
	var cands []cand
	if !q.Expand {
		cands = ix.run(op, e)
	} else {
		cands = ix.expand(op, orig, syn, hasSyn, e)
	}
	ix.sortCands(cands)
	if q.Rerank {
		cands = ix.rerank(cands[:min(len(cands), max(RerankWindow, 2*limit))], op, newQueryInfo(toks), e)
		ix.sortCands(cands)
	}
	return ix.hits(cands, limit)
}

// expand runs the three variants in parallel goroutines and keeps each
// document's best-scoring candidate. Callers hold the read lock (the
// goroutines only read under it).
func (ix *Index) expand(op *plan, orig, syn spec, hasSyn bool, e *env) []cand {
	var results [3][]cand
	var wg sync.WaitGroup
	wg.Go(func() { results[0] = ix.run(op, e) })
	if hasSyn {
		wg.Go(func() { results[1] = ix.run(ix.resolve(syn, e), e) })
	}
	wg.Go(func() {
		if fb, ok := ix.feedbackSpec(op, orig, e); ok {
			results[2] = ix.run(ix.resolve(fb, e), e)
		}
	})
	wg.Wait()
	best := make(map[int32]int)
	var out []cand
	for _, r := range results {
		for _, c := range r {
			if i, ok := best[c.slot]; !ok {
				best[c.slot] = len(out)
				out = append(out, c)
			} else if c.score > out[i].score {
				out[i] = c
			}
		}
	}
	return out
}

// feedbackSpec is the pseudo-relevance feedback variant: the original query
// plus the FeedbackTerms unigram terms with the highest tf·idf summed over
// the FeedbackDocs best first-pass documents (terms of the query excluded;
// ties by term), each with ExpansionWeight.
func (ix *Index) feedbackSpec(op *plan, orig spec, e *env) (spec, bool) {
	sc := ix.getScratch()
	top := ix.candidates(op, e, sc, FeedbackDocs)
	ix.putScratch(sc)
	if len(top) == 0 {
		return spec{}, false
	}
	// Sum in slot order: a float sum depends on its order, and the heap's
	// order of equal candidates does not, so results would drift in the
	// last bits from run to run.
	slices.SortFunc(top, func(a, b cand) int { return int(a.slot) - int(b.slot) })
	inQuery := make(map[int32]bool, len(op.terms))
	for _, t := range op.terms {
		inQuery[t.id] = true
	}
	weight := make(map[int32]float64)
	for _, c := range top {
		runs(ix.recs[c.slot].terms, func(id int32, n int) {
			if k := ix.terms.keys[id]; !inQuery[id] && !isBigram(k) && !strings.HasPrefix(k, kindMark) {
				weight[id] += float64(n) * bm25IDF(e.n, float64(ix.terms.pl[id].df))
			}
		})
	}
	ids := make([]int32, 0, len(weight))
	for id := range weight {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int32) int {
		if weight[a] != weight[b] {
			if weight[a] > weight[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(ix.terms.keys[a], ix.terms.keys[b])
	})
	if len(ids) == 0 {
		return spec{}, false
	}
	fb := spec{groups: slices.Clone(orig.groups), feats: slices.Clone(orig.feats)}
	for _, id := range ids[:min(len(ids), FeedbackTerms)] {
		t := ix.terms.keys[id]
		fb.groups = append(fb.groups, group{alts: []string{t}, w: ExpansionWeight})
		fb.feats = append(fb.feats, feat{tok: text.Token{Stem: t, Word: t}, w: ExpansionWeight})
	}
	return fb, true
}

// sortCands orders candidates by tier (answers first), then score
// descending, then newer CreatedAt, then ID.
func (ix *Index) sortCands(c []cand) {
	slices.SortFunc(c, func(a, b cand) int {
		if a.tier != b.tier {
			return int(b.tier) - int(a.tier)
		}
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		ta, tb := ix.recs[a.slot].doc.CreatedAt, ix.recs[b.slot].doc.CreatedAt
		if c := tb.Compare(ta); c != 0 {
			return c
		}
		return strings.Compare(ix.recs[a.slot].doc.ID, ix.recs[b.slot].doc.ID)
	})
}

// hits drops near-duplicates of higher-ranked candidates and converts the
// first limit survivors, with scores that agree with their order (liftAnswers).
func (ix *Index) hits(cands []cand, limit int) []Hit {
	var kept []int32
	var tiers []uint8
	out := make([]Hit, 0, min(limit, len(cands)))
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		fp := &ix.recs[c.slot].fp
		dup := false
		for _, k := range kept {
			// A document without Text (variants only) is nobody's duplicate.
			if ix.recs[c.slot].doc.Text == "" || ix.recs[k].doc.Text == "" {
				continue
			}
			if _, dup = fp.NearDuplicate(ix.recs[k].fp); dup || ix.restates(c.slot, k) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		kept = append(kept, c.slot)
		h := Hit{ID: ix.recs[c.slot].doc.ID, Score: c.score, Similarity: c.sim, Reranked: c.reranked}
		if c.reranked {
			h.Relevance = c.rel
		}
		out = append(out, h)
		tiers = append(tiers, c.tier)
	}
	liftAnswers(out, tiers)
	return out
}

// liftAnswers folds the answer tier into the scores, so that the score
// returned is the one the results are ordered by. Memories answering the
// question's fact rank above the others whatever their blend; when the
// results mix both, each answer's score s becomes m + (1 − m)·s, where m is
// the best score among the other results: still within [0, 1], at least m,
// and in the answers' own order (an increasing map). Results without
// answers, or with answers only, keep the blend.
func liftAnswers(out []Hit, tiers []uint8) {
	m, answers := -1.0, false
	for i, t := range tiers {
		if t > 0 {
			answers = true
		} else if out[i].Score > m {
			m = out[i].Score
		}
	}
	if !answers || m < 0 {
		return
	}
	for i, t := range tiers {
		if t > 0 {
			out[i].Score = m + (1-m)*out[i].Score
		}
	}
}

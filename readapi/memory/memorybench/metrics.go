package memorybench

import (
	"context"
	"fmt"

	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
	"github.com/strata-platform/strata/readapi/memory/search"
)

// tally accumulates one configuration's quality over a set of queries.
type tally struct {
	n, top5  map[string]int     // per query kind and allKinds
	mrr      map[string]float64 // sum of reciprocal ranks
	curN     int                // queries with Current and Superseded
	curOK    int                // ... whose current value ranks above every superseded one
	asOfN    int                // temporal queries
	asOfOK   int                // ... with a relevant top-1 and nothing stated after or invalid at as_of
	slots    int                // result slots
	dupSlots int                // ... taken by a duplicate of a higher-ranked result
	// dupCreated counts the slots whose creating corpus memory (the stored
	// memory's content, not what was merged into it) duplicates that of a
	// higher-ranked result: a progress figure.
	dupCreated int
}

func newTally() *tally {
	return &tally{n: map[string]int{}, top5: map[string]int{}, mrr: map[string]float64{}}
}

func (t *tally) top5Rate(kind string) float64 { return ratio(t.top5[kind], t.n[kind]) }

func (t *tally) mrrMean(kind string) float64 {
	if t.n[kind] == 0 {
		return 0
	}
	return t.mrr[kind] / float64(t.n[kind])
}

// summary is a progress line.
func (t *tally) summary(name string) string {
	return fmt.Sprintf("%s: top-5 %.3f, MRR@10 %.3f, paraphrased top-5 %.3f, current above superseded %d/%d, "+
		"as_of %d/%d, near-duplicate slots %d/%d (%d counting only what created each result)", name,
		t.top5Rate(allKinds), t.mrrMean(allKinds), t.top5Rate(corpus.QueryParaphrased), t.curOK, t.curN, t.asOfOK,
		t.asOfN, t.dupSlots, t.slots, t.dupCreated)
}

// holds reports whether the result holds a corpus memory of set.
func holds(it item, set map[int32]bool) bool {
	for _, m := range it.members {
		if set[m] {
			return true
		}
	}
	return false
}

// first is the rank (0-based) of the first result holding a memory of set,
// or -1.
func first(r ranked, set map[int32]bool) int {
	for i, it := range r {
		if holds(it, set) {
			return i
		}
	}
	return -1
}

// set turns corpus memory ids into an index set.
func (b *bench) set(ids ...string) map[int32]bool {
	out := make(map[int32]bool, len(ids))
	for _, id := range ids {
		if i, ok := b.lab.idx[id]; ok {
			out[i] = true
		}
	}
	return out
}

// score adds q's results r to t.
func (b *bench) score(t *tally, q *corpus.Query, r ranked) {
	r = r[:min(len(r), evalLimit)]
	rel := b.set(q.Relevant...)
	rank := first(r, rel)
	for _, k := range []string{allKinds, q.Kind} {
		t.n[k]++
		if rank >= 0 && rank < hitRank {
			t.top5[k]++
		}
		if rank >= 0 {
			t.mrr[k] += 1 / float64(rank+1)
		}
	}
	if q.Current != "" && len(q.Superseded) > 0 {
		t.curN++
		cur := b.set(q.Current)
		for _, d := range b.lab.dups[b.lab.idx[q.Current]] {
			cur[d] = true
		}
		c, s := first(r, cur), first(r, b.set(q.Superseded...))
		if c >= 0 && (s < 0 || c < s) {
			t.curOK++
		}
	}
	if q.Kind == corpus.QueryTemporal && !q.AsOf.IsZero() {
		t.asOfN++
		ok := len(r) > 0 && holds(r[0], rel)
		for _, it := range r {
			if it.created.After(q.AsOf) || len(it.members) > 0 && !b.validAt(it.members[0], q.AsOf) {
				ok = false
			}
		}
		if ok {
			t.asOfOK++
		}
	}
	seen := map[int32]bool{}    // duplicate groups (originals) of higher-ranked results' memories
	created := map[int32]bool{} // ... of the memories that created them
	for _, it := range r {
		t.slots++
		dup := false
		for _, m := range it.members {
			dup = dup || seen[b.lab.group[m]]
		}
		if dup {
			t.dupSlots++
		}
		for _, m := range it.members {
			seen[b.lab.group[m]] = true
		}
		if len(it.members) > 0 {
			g := b.lab.group[it.members[0]]
			if created[g] {
				t.dupCreated++
			}
			created[g] = true
		}
	}
}

// fitRerank fits the rerank model on the training split: for every
// training query, the features (search.Index.Features) of its top
// o.FitCandidates recall candidates, labelled by whether the candidate is
// Relevant; the fitted model replaces the user's index's.
func (b *bench) fitRerank(ctx context.Context) error {
	train := b.split(corpus.SplitTrain)
	b.o.Logf("rerank: fitting on %d training queries, %d candidates each ...", len(train), b.o.FitCandidates)
	ix, err := b.api.Indexes().For(ctx, benchUser)
	if err != nil {
		return err
	}
	now := b.svc.Now()
	var examples []search.Example
	relevant := 0
	for _, q := range train {
		r, hits, err := b.recall(ctx, q, b.o.FitCandidates, config{name: "fit"})
		if err != nil {
			return err
		}
		rel := b.set(q.Relevant...)
		for i, h := range hits {
			f, ok := ix.Features(search.Query{Text: q.Text, Now: now, AsOf: q.AsOf}, h.MemoryID)
			if !ok {
				continue
			}
			ex := search.Example{Features: f, Relevant: holds(r[i], rel)}
			if ex.Relevant {
				relevant++
			}
			examples = append(examples, ex)
		}
	}
	if len(examples) == 0 || relevant == 0 || relevant == len(examples) {
		return fmt.Errorf("rerank: %d training examples, %d relevant: nothing to fit", len(examples), relevant)
	}
	var m search.RerankModel
	loss := m.Fit(examples)
	ix.SetRerankModel(m)
	b.o.Logf("  %d examples (%d relevant), log-loss %.4f: %+v", len(examples), relevant, loss, m)
	return nil
}

package search

import "math"

// cand is a scored candidate document.
type cand struct {
	slot     int32
	tier     uint8 // 1: answers the question's fact (see Index.tier)
	score    float64
	sim      float64
	rel      float64
	reranked bool
}

// scratch is one variant's per-slot accumulators, pooled per index.
type scratch struct {
	bm, dot []float32
	seen    []bool
	touched []int32
}

func (ix *Index) getScratch() *scratch {
	sc, _ := ix.pool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if n := len(ix.meta); len(sc.bm) < n {
		n += n / 4
		sc.bm, sc.dot, sc.seen = make([]float32, n), make([]float32, n), make([]bool, n)
	}
	return sc
}

func (ix *Index) putScratch(sc *scratch) {
	for _, s := range sc.touched {
		sc.bm[s], sc.dot[s], sc.seen[s] = 0, 0, false
	}
	sc.touched = sc.touched[:0]
	ix.pool.Put(sc)
}

// run scores one variant: the candidate pass over the posting lists, then
// exact scoring of the best e.m candidates, dropping those whose similarity
// is below MinSimilarity. Callers hold the read lock.
func (ix *Index) run(p *plan, e *env) []cand {
	sc := ix.getScratch()
	defer ix.putScratch(sc)
	top := ix.candidates(p, e, sc, e.m)
	out := top[:0]
	for _, c := range top {
		s := c.slot
		sim, importance := ix.similarity(p, e, s, float64(sc.bm[s]))
		c.sim = sim
		if c.sim < MinSimilarity && c.tier == 0 {
			continue
		}
		c.score = ix.blend(e, s, c.sim, importance, math.Exp2)
		out = append(out, c)
	}
	return out
}

// candidates accumulates BM25 over every query term's postings (exact) and
// a partial dot product over the query's hashed dimensions (skipping the
// common ones), then keeps the m filter-passing documents with the best
// approximate final score. sc.bm holds the exact BM25 sums afterwards.
func (ix *Index) candidates(p *plan, e *env, sc *scratch, m int) []cand {
	if p.bmNorm == 0 && p.qnorm == 0 && len(e.qemb.q) == 0 {
		return nil
	}
	touch := func(s int32) {
		if !sc.seen[s] {
			sc.seen[s] = true
			sc.touched = append(sc.touched, s)
		}
	}
	k := float32(BM25K1 * (1 - BM25B))
	kl := float32(BM25K1 * BM25B / e.avgdl)
	for _, t := range p.terms {
		docs := ix.terms.pl[t.id].docs
		w := float32(t.w)
		for i := 0; i < len(docs); {
			s := docs[i]
			j := i + 1
			for j < len(docs) && docs[j] == s {
				j++
			}
			tf := float32(j - i)
			i = j
			sc.bm[s] += w * tf * (BM25K1 + 1) / (tf + k + kl*ix.dls[s])
			touch(s)
		}
	}
	common := int32(max(CommonDimMin, int(e.n)/CommonDimShare))
	for _, d := range p.dims {
		if !d.probe || d.id < 0 || ix.dims.pl[d.id].df > common {
			continue
		}
		c := float32(d.w * d.idf)
		for _, s := range ix.dims.pl[d.id].docs {
			sc.dot[s] += c
			touch(s)
		}
	}
	for _, s := range e.answers {
		touch(s)
	}
	// Dense neighbours join the candidates; their estimate counts the
	// dense cosine as exact scoring will (the others' leaves it out).
	var dense map[int32]float64
	if len(e.dense) > 0 {
		dense = make(map[int32]float64, len(e.dense))
		for _, nb := range e.dense {
			dense[nb.slot] = float64(nb.cos)
			touch(nb.slot)
		}
	}
	var h candHeap
	for _, s := range sc.touched {
		if !ix.pass(e, s) {
			continue
		}
		tier := ix.tier(e, s)
		bm := normBM25(float64(sc.bm[s]), p.bmNorm)
		cos := 0.0
		if n := float64(ix.meta[s].approxNorm); n > 0 && p.qnorm > 0 {
			cos = min(1, float64(sc.dot[s])/(n*p.qnorm))
		}
		if d, ok := dense[s]; ok {
			cos = 0.5*cos + 0.5*min(1, d)
		}
		sim := LexicalShare*bm + (1-LexicalShare)*cos
		// Recency is costly; skip documents that cannot enter the heap even
		// with full recency (supersession and namespace factors are ≤ 1).
		if len(h) == m && (tier < h[0].tier ||
			tier == h[0].tier && ix.set.wSim*sim+ix.set.wImp*float64(ix.meta[s].importance)+ix.set.wRec < h[0].score) {
			continue
		}
		h.push(cand{slot: s, tier: tier, score: ix.blend(e, s, sim, float64(ix.meta[s].importance), fastExp2)}, m)
	}
	return h
}

// normBM25 is min(1, sum/norm), 0 without a normaliser.
func normBM25(sum, norm float64) float64 {
	if norm <= 0 {
		return 0
	}
	return min(1, sum/norm)
}

// candHeap is a bounded min-heap holding the best m candidates pushed.
type candHeap []cand

// worse orders candidates for the heap: lower tier, lower score, then
// higher slot.
func worse(x, y cand) bool {
	if x.tier != y.tier {
		return x.tier < y.tier
	}
	if x.score != y.score {
		return x.score < y.score
	}
	return x.slot > y.slot
}

func (h *candHeap) push(c cand, m int) {
	a := *h
	switch {
	case len(a) < m:
		a = append(a, c)
		for i := len(a) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(a[i], a[p]) {
				break
			}
			a[i], a[p] = a[p], a[i]
			i = p
		}
		*h = a
	case m > 0 && worse(a[0], c):
		a[0] = c
		for i := 0; ; {
			l, r, small := 2*i+1, 2*i+2, i
			if l < len(a) && worse(a[l], a[small]) {
				small = l
			}
			if r < len(a) && worse(a[r], a[small]) {
				small = r
			}
			if small == i {
				break
			}
			a[i], a[small] = a[small], a[i]
			i = small
		}
	}
}

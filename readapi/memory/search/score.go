package search

import (
	"math"
	"slices"
	"sync/atomic"
	"time"
)

// env is one search's filters and the index statistics it scores with.
type env struct {
	allNS   bool
	ns      int32 // requested namespace, −1 when no document has it
	boostNS bool  // cross-namespace search with a requested namespace
	layer   int32 // −1: any layer
	entity  string
	asOf    time.Time
	hasAsOf bool
	ref     time.Time // reference time: AsOf, else Now, else the wall clock
	refDays float64   // ref in days since the Unix epoch
	n       float64   // live documents
	lnN1    float64   // ln(n+1)
	avgdl   float64
	m       int                // candidates scored exactly per variant
	qemb    qvec               // quantised like the documents' (empty: none)
	asked   map[[2]string]bool // (subject, predicate) pairs the query asks for (Query.About × Predicates)
	history bool
	answers []int32     // slots of documents stating an asked fact (candidates whatever their words)
	dense   []neighbour // the documents nearest to qemb (candidates whatever their words; see Search)
}

// newEnv resolves q's filters. ok is false when nothing can match.
// Callers hold the read lock.
func (ix *Index) newEnv(q Query, limit int, qemb []float32) (*env, bool) {
	if ix.live == 0 {
		return nil, false
	}
	e := &env{
		allNS:   q.CrossNamespace,
		ns:      -1,
		layer:   -1,
		entity:  q.EntityID,
		asOf:    q.AsOf,
		hasAsOf: !q.AsOf.IsZero(),
		ref:     q.AsOf,
		n:       float64(ix.live),
		lnN1:    math.Log(float64(ix.live) + 1),
		avgdl:   ix.totalDL / float64(ix.live),
		m:       min(max(5*limit, 50), 1000),
		qemb:    quantise(qemb),
	}
	if e.ref.IsZero() {
		e.ref = q.Now
	}
	if e.ref.IsZero() {
		e.ref = time.Now()
	}
	e.refDays = days(e.ref)
	if len(q.About) > 0 && len(q.Predicates) > 0 {
		e.asked, e.history = make(map[[2]string]bool), q.History
		for _, a := range q.About {
			for _, p := range q.Predicates {
				e.asked[[2]string{a, p}] = true
				e.answers = append(e.answers, ix.facts[factKey(a, p)]...)
			}
		}
	}
	if e.avgdl <= 0 {
		e.avgdl = 1
	}
	if id, ok := ix.spaces[q.Namespace]; ok {
		e.ns = id
	} else if !q.CrossNamespace {
		return nil, false
	}
	e.boostNS = q.CrossNamespace && q.Namespace != ""
	if q.Layer != "" {
		id, ok := ix.layers[q.Layer]
		if !ok {
			return nil, false
		}
		e.layer = id
	}
	return e, true
}

// pass reports whether the document in slot s is live and passes e's
// filters.
func (ix *Index) pass(e *env, s int32) bool {
	m := &ix.meta[s]
	switch {
	case !m.alive,
		!e.allNS && m.ns != e.ns,
		e.layer >= 0 && m.layer != e.layer,
		e.entity != "" && !slices.Contains(ix.recs[s].doc.EntityIDs, e.entity):
		return false
	case e.hasAsOf:
		d := &ix.recs[s].doc
		return !d.CreatedAt.After(e.asOf) && (!m.hasFacts || allValid(d.Facts, e.asOf))
	}
	return true
}

// tier is 1 when the document in slot s answers the question e asks (it
// states an asked fact holding at the reference time, or any asked fact
// for a history question), else 0. Answers rank above everything else.
func (ix *Index) tier(e *env, s int32) uint8 {
	if e.asked == nil || !ix.meta[s].hasFacts {
		return 0
	}
	for _, f := range ix.recs[s].doc.Facts {
		if e.asked[[2]string{f.Subject, f.Predicate}] && (e.history || f.ValidAt(e.ref)) {
			return 1
		}
	}
	return 0
}

// allValid reports whether every fact holds at t: a memory stating
// something that no longer held (or did not hold yet) at t is stale then.
func allValid(facts []Interval, t time.Time) bool {
	for _, f := range facts {
		if !f.ValidAt(t) {
			return false
		}
	}
	return true
}

// blend is the final score of the document in slot s with similarity sim:
// supersession factor, weights, recency and the namespace boost. exp2 is
// math.Exp2, or fastExp2 for the candidate pass's estimates.
func (ix *Index) blend(e *env, s int32, sim, importance float64, exp2 func(float64) float64) float64 {
	m := &ix.meta[s]
	if m.hasFacts && !allValid(ix.recs[s].doc.Facts, e.ref) {
		sim *= ix.set.superseded
	}
	rec := 1.0
	if age := e.refDays - m.days; age > 0 {
		rec = exp2(-age / ix.set.halfLifeDays)
	}
	score := ix.set.wSim*sim + ix.set.wImp*importance + ix.set.wRec*rec
	if e.boostNS && m.ns != e.ns {
		score *= 1 - ix.set.nsBoost
	}
	return score
}

// bm25TF is one term's BM25 saturation for term frequency tf in a document
// of length dl.
func bm25TF(tf, dl, avgdl float64) float64 {
	return tf * (BM25K1 + 1) / (tf + BM25K1*(1-BM25B+BM25B*dl/avgdl))
}

// lexical is the normalised BM25 of the document in slot s for p, computed
// from the document's own terms (for documents another variant found).
func (ix *Index) lexical(p *plan, e *env, s int32) float64 {
	return lexicalOf(p, e, ix.recs[s].terms, float64(ix.dls[s]))
}

// lexicalOf is the normalised BM25 of a document of sorted term ids and
// length dl for p.
func lexicalOf(p *plan, e *env, terms []int32, dl float64) float64 {
	sum := 0.0
	for _, t := range p.terms {
		lo, found := slices.BinarySearch(terms, t.id)
		if !found {
			continue
		}
		hi := lo + 1
		for hi < len(terms) && terms[hi] == t.id {
			hi++
		}
		sum += t.w * bm25TF(float64(hi-lo), dl, e.avgdl)
	}
	return normBM25(sum, p.bmNorm)
}

// hashedCosine is the exact cosine between p's query vector and the
// document's TF-IDF vector, with the index's current idf.
func (ix *Index) hashedCosine(p *plan, e *env, s int32) float64 {
	if p.qnorm == 0 {
		return 0
	}
	norm, cached := ix.cachedNorm(s)
	c, norm := ix.cosineOf(p, e, ix.recs[s].dims, norm, cached)
	if !cached {
		ix.storeNorm(s, norm)
	}
	return c
}

// cosineOf is the cosine between p's query vector and the TF-IDF vector of
// sorted hashed dimensions dims, with the index's current idf; norm is the
// vector's norm when known, else computed (and returned, rounded as the
// cache keeps it, so a cache hit changes no score).
func (ix *Index) cosineOf(p *plan, e *env, dims []uint32, norm float64, cached bool) (float64, float64) {
	if p.qnorm == 0 {
		return 0, norm
	}
	dot, nn := 0.0, 0.0
	j := 0
	for i := 0; i < len(dims); {
		d := dims[i]
		k := i + 1
		for k < len(dims) && dims[k] == d {
			k++
		}
		n := float64(k - i)
		i = k
		if !cached {
			w := n * (e.lnN1 - float64(ix.dimLn[d]) + 1)
			nn += w * w
		}
		for j < len(p.dims) && p.dims[j].dim < d {
			j++
		}
		if j < len(p.dims) && p.dims[j].dim == d {
			dot += n * p.dims[j].idf * p.dims[j].w
		}
	}
	if !cached {
		norm = float64(float32(math.Sqrt(nn)))
	}
	if norm == 0 {
		return 0, norm
	}
	return min(1, dot/(norm*p.qnorm)), norm
}

// cachedNorm returns the document's exact vector norm if it was computed
// since the last write. Searches fill the cache concurrently under the read
// lock; entries are atomic and pack the index version with the norm.
func (ix *Index) cachedNorm(s int32) (float64, bool) {
	v := atomic.LoadUint64(&ix.norms[s])
	if uint32(v>>32) != ix.version {
		return 0, false
	}
	return float64(math.Float32frombits(uint32(v))), true
}

func (ix *Index) storeNorm(s int32, norm float64) {
	atomic.StoreUint64(&ix.norms[s], uint64(ix.version)<<32|uint64(math.Float32bits(float32(norm))))
}

// vector is the vector part of similarity: the hashed cosine, averaged with
// the dense cosine (negative taken as 0) when both embeddings exist and
// agree in length.
func (ix *Index) vector(p *plan, e *env, s int32) float64 {
	return ix.withDense(e, s, ix.hashedCosine(p, e, s))
}

// withDense averages the hashed cosine c of the document in slot s with its
// dense cosine, when both embeddings exist and agree in length.
func (ix *Index) withDense(e *env, s int32, c float64) float64 {
	if d := ix.recs[s].emb; len(e.qemb.q) > 0 && len(d.q) == len(e.qemb.q) {
		c = 0.5*c + 0.5*min(1, max(0, float64(e.qemb.cos(d))))
	}
	return c
}

// fastExp2 approximates 2^x for x ≤ 0 (relative error < 2e-4): the
// candidate pass only ranks estimates, exact scores use math.Exp2.
func fastExp2(x float64) float64 {
	if x < -1020 {
		return 0
	}
	i := math.Floor(x)
	f := x - i
	// Minimax-style cubic for 2^f on [0, 1).
	p := 1 + f*(0.6951786+f*(0.2261461+f*0.0786753))
	return math.Float64frombits(uint64(int64(i)+1023)<<52) * p
}

// similarity is the exact similarity of the document in slot s and the
// importance it is scored with: as it read at the search's as_of when a
// phrasing was merged into it later (Index.then), else from its record;
// bm is its exact BM25 sum when the candidate pass has it (< 0: compute).
// Callers hold the read lock.
func (ix *Index) similarity(p *plan, e *env, s int32, bm float64) (sim, importance float64) {
	if terms, dl, dims, imp, ok := ix.then(e, s); ok {
		c, _ := ix.cosineOf(p, e, dims, 0, false)
		return LexicalShare*lexicalOf(p, e, terms, dl) + (1-LexicalShare)*ix.withDense(e, s, c), imp
	}
	lex := normBM25(bm, p.bmNorm)
	if bm < 0 {
		lex = ix.lexical(p, e, s)
	}
	return LexicalShare*lex + (1-LexicalShare)*ix.vector(p, e, s), float64(ix.meta[s].importance)
}

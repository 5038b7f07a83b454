package search

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/memory/text"
)

// Index is one user's in-memory recall index. It is safe for concurrent use:
// searches share a read lock, Upsert and Remove take the write lock (their
// text analysis runs before the lock is taken).
type Index struct {
	set settings
	an  text.Analyzer // stem memo shared by writers and searches

	mu      sync.RWMutex
	ids     map[string]int32 // live document id → slot
	recs    []docRec         // by slot
	meta    []docMeta        // by slot (the fields the candidate pass reads)
	dls     []float32        // by slot: document length in terms (BM25's hot loop)
	norms   []uint64         // by slot: exact vector norm cache, see cachedNorm
	version uint32           // bumped by every write; invalidates norms
	free    []int32          // slots no posting refers to any more
	live    int
	totalDL float64 // sum of live documents' term counts
	terms   dict
	dims    dimDict
	dimLn   []float32 // ln(df+1) per hashed dimension; nil until the first Upsert
	lnTable []float32 // ln(df+1) for small df, built with dimLn
	spaces  map[string]int32
	layers  map[string]int32
	model   RerankModel
	facts   map[string][]int32 // factKey(subject, predicate) → slots of live documents stating it
	// entityDocs counts the live documents naming each entity id.
	entityDocs map[string]int32
	embedded   int      // live documents with an embedding
	ann        annGraph // nil until embedded reaches the threshold
	// learned counts the short forms live documents define: short form
	// stem → expansion stems (space-separated) → documents defining it.
	learned map[string]map[string]int

	pool sync.Pool // *scratch
}

// docRec is the cold part of a stored document.
type docRec struct {
	doc   Doc
	terms []int32  // term ids, sorted, one per occurrence
	dims  []uint32 // hashed dimensions, sorted, one per occurrence
	fp    text.Fingerprint
	emb   qvec        // the embedding (Doc.Embedding or the Embedder's), if any
	defs  [][2]string // short forms the document defines (see learn)
}

// docMeta is the hot part of a stored document (32 bytes), read for every
// candidate.
type docMeta struct {
	days       float64 // CreatedAt in days since the Unix epoch
	importance float32
	approxNorm float32 // vector norm with the idf of insertion time
	ns, layer  int32
	refs       int32 // posting entries still naming this slot
	alive      bool
	hasFacts   bool
}

// days is t in (fractional) days since the Unix epoch.
func days(t time.Time) float64 {
	return float64(t.Unix())/86400 + float64(t.Nanosecond())/86400e9
}

// New returns an empty index configured by cfg (zero fields take the
// documented defaults).
func New(cfg Config) *Index {
	ix := &Index{
		set:    resolve(cfg),
		ids:    make(map[string]int32),
		terms:  dict{ids: make(map[string]int32)},
		spaces: make(map[string]int32),
		layers: make(map[string]int32),
		facts:  make(map[string][]int32),
		model:  cfg.Rerank,

		entityDocs: make(map[string]int32),
		learned:    make(map[string]map[string]int),
	}
	ix.set.abbrevs = newAbbreviations(&ix.an, ix.set.abbrevPairs)
	if ix.model == (RerankModel{}) {
		ix.model = DefaultRerankModel()
	}
	return ix
}

// Upsert adds d, or replaces the document with d's ID; the old version is
// never returned again. Safe for concurrent use.
func (ix *Index) Upsert(d Doc) {
	d.EntityIDs = slices.Clone(d.EntityIDs)
	d.Variants = slices.Clone(d.Variants)
	d.VariantTimes, d.VariantImportances = slices.Clone(d.VariantTimes), slices.Clone(d.VariantImportances)
	d.Facts = slices.Clone(d.Facts)
	a := analyse(&ix.an, d, ix.set.mask, ix.set.embedder, ix.set.lexicon)
	defs := analyseDefinitions(&ix.an, d)

	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.bump()
	if ix.dimLn == nil {
		ix.dimLn = make([]float32, ix.set.mask+1)
		ix.lnTable = make([]float32, 4096)
		for i := range ix.lnTable {
			ix.lnTable[i] = float32(math.Log1p(float64(i)))
		}
	}
	if s, ok := ix.ids[d.ID]; ok {
		ix.removeSlot(s)
	}
	s := ix.allocSlot()
	termIDs := make([]int32, len(a.terms), len(a.terms)+len(a.kinds))
	for i, t := range a.terms {
		termIDs[i] = ix.terms.intern(t)
	}
	for _, k := range a.kinds {
		termIDs = append(termIDs, ix.terms.intern(k))
	}
	slices.Sort(termIDs)
	runs(termIDs, func(id int32, n int) { ix.terms.add(id, n, s) })
	runs(a.dims, func(dim uint32, n int) {
		id := ix.dims.intern(dim, len(ix.dimLn))
		ix.dims.add(id, n, s)
		ix.dimLn[dim] = ix.ln1p(ix.dims.pl[id].df)
	})
	d.Embedding = nil // kept once, as the record's emb
	ix.recs[s] = docRec{doc: d, terms: termIDs, dims: a.dims, fp: a.fp, emb: a.emb, defs: defs}
	ix.learn(defs, +1)
	ix.meta[s] = docMeta{
		days:       days(d.CreatedAt),
		alive:      true,
		hasFacts:   len(d.Facts) > 0,
		ns:         intern(ix.spaces, d.Namespace),
		layer:      intern(ix.layers, d.Layer),
		refs:       int32(len(termIDs) + len(a.dims)),
		importance: float32(clamp01(d.Importance)),
	}
	ix.dls[s] = float32(len(a.terms)) // kind terms are not the document's length
	ix.ids[d.ID] = s
	for _, k := range factKeys(d.Facts) {
		ix.facts[k] = append(ix.facts[k], s)
	}
	for _, id := range distinct(d.EntityIDs) {
		ix.entityDocs[id]++
	}
	ix.trackEmbedding(s, a.emb, +1)
	ix.live++
	ix.totalDL += float64(len(a.terms))
	ix.meta[s].approxNorm = float32(ix.vectorNorm(a.dims, math.Log(float64(ix.live)+1)))
}

// Remove deletes the document with this id, if any; it is never returned
// again. Safe for concurrent use.
func (ix *Index) Remove(id string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if s, ok := ix.ids[id]; ok {
		ix.bump()
		ix.removeSlot(s)
	}
}

// Len is the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Get returns a copy of the stored document with this id.
func (ix *Index) Get(id string) (Doc, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s, ok := ix.ids[id]
	if !ok {
		return Doc{}, false
	}
	d := ix.recs[s].doc
	d.EntityIDs = slices.Clone(d.EntityIDs)
	d.Variants = slices.Clone(d.Variants)
	d.VariantTimes, d.VariantImportances = slices.Clone(d.VariantTimes), slices.Clone(d.VariantImportances)
	d.Facts = slices.Clone(d.Facts)
	return d, true
}

// removeSlot unindexes the live document in slot s. The slot is reused once
// no posting list names it any more. Callers hold the write lock.
func (ix *Index) removeSlot(s int32) {
	r, m := &ix.recs[s], &ix.meta[s]
	indexed := len(r.terms)+len(r.dims) > 0
	m.alive = false
	delete(ix.ids, r.doc.ID)
	for _, k := range factKeys(r.doc.Facts) {
		if l := slices.DeleteFunc(ix.facts[k], func(x int32) bool { return x == s }); len(l) > 0 {
			ix.facts[k] = l
		} else {
			delete(ix.facts, k)
		}
	}
	ix.trackEmbedding(s, r.emb, -1)
	ix.learn(r.defs, -1)
	for _, id := range distinct(r.doc.EntityIDs) {
		if ix.entityDocs[id]--; ix.entityDocs[id] <= 0 {
			delete(ix.entityDocs, id)
		}
	}
	ix.live--
	ix.totalDL -= float64(ix.dls[s])
	runs(r.terms, func(id int32, n int) {
		if _, empty := ix.drop(&ix.terms.lists, id, n); empty {
			ix.terms.release(id)
		}
	})
	runs(r.dims, func(dim uint32, n int) {
		id, _ := ix.dims.lookup(dim)
		df, empty := ix.drop(&ix.dims.lists, id, n)
		ix.dimLn[dim] = ix.ln1p(df)
		if empty {
			ix.dims.release(dim, id)
		}
	})
	*r = docRec{}
	if !indexed {
		// Nothing names the slot; otherwise the last compaction frees it.
		ix.free = append(ix.free, s)
	}
}

// bump records a write: cached norms become stale. Version 0 is never
// current, so zeroed cache entries are never valid.
func (ix *Index) bump() {
	ix.version++
	if ix.version == 0 {
		clear(ix.norms)
		ix.version = 1
	}
}

// ln1p is ln(df+1), from a table for small df.
func (ix *Index) ln1p(df int32) float32 {
	if int(df) < len(ix.lnTable) {
		return ix.lnTable[df]
	}
	return float32(math.Log1p(float64(df)))
}

// allocSlot returns a free slot, growing the tables when there is none.
func (ix *Index) allocSlot() int32 {
	if n := len(ix.free); n > 0 {
		s := ix.free[n-1]
		ix.free = ix.free[:n-1]
		return s
	}
	ix.recs = append(ix.recs, docRec{})
	ix.meta = append(ix.meta, docMeta{})
	ix.dls = append(ix.dls, 0)
	ix.norms = append(ix.norms, 0)
	return int32(len(ix.meta) - 1)
}

// vectorNorm is the Euclidean norm of a document's TF-IDF vector (dims
// sorted, one entry per occurrence) with lnN1 = ln(N+1).
func (ix *Index) vectorNorm(dims []uint32, lnN1 float64) float64 {
	nn := 0.0
	runs(dims, func(dim uint32, n int) {
		w := float64(n) * (lnN1 - float64(ix.dimLn[dim]) + 1)
		nn += w * w
	})
	return math.Sqrt(nn)
}

func intern(m map[string]int32, k string) int32 {
	if id, ok := m[k]; ok {
		return id
	}
	id := int32(len(m))
	m[k] = id
	return id
}

func clamp01(x float64) float64 {
	switch {
	case x < 0 || math.IsNaN(x):
		return 0
	case x > 1:
		return 1
	}
	return x
}

// DocFreq is the number of live documents whose text holds the stem (for
// term weights outside search, such as key themes). Safe for concurrent use.
func (ix *Index) DocFreq(stem string) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	id, ok := ix.terms.ids[stem]
	if !ok {
		return 0
	}
	return int(ix.terms.pl[id].df)
}

// factKey names a subject's facts of one predicate.
func factKey(subject, predicate string) string { return subject + "\x00" + predicate }

// factKeys returns the distinct keys of the named facts in facts.
func factKeys(facts []Interval) []string {
	var out []string
	for _, f := range facts {
		if f.Subject == "" || f.Predicate == "" {
			continue
		}
		if k := factKey(f.Subject, f.Predicate); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// distinct returns ids without repeats (a new slice when it had any).
func distinct(ids []string) []string {
	for i := range ids {
		if slices.Contains(ids[:i], ids[i]) {
			out := slices.Clone(ids)
			slices.Sort(out)
			return slices.Compact(out)
		}
	}
	return ids
}

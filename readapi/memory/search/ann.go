package search

import (
	"math/rand"

	"github.com/coder/hnsw"
)

// DefaultApproximateAbove is how many embedded documents an index holds
// before its dense neighbours come from an HNSW graph
// (github.com/coder/hnsw) instead of the exact scan, whose cost grows with
// every document (36 ms for 50,000 of 1,536 dimensions on two cores).
const DefaultApproximateAbove = 100_000

// annOversample is how many graph neighbours per wanted one a search asks
// for, since filters (namespace, layer, entity, as_of) apply afterwards; when
// too few pass, the exact scan answers instead.
const annOversample = 4

// annGraph is the approximate nearest-neighbour index behind an Index's
// dense candidates once it is large (see Config.ApproximateAbove).
type annGraph interface {
	add(slot int32, v qvec)
	remove(slot int32)
	search(q qvec, k int) []int32
	// stale reports that removed documents make up more than a quarter of
	// the graph: it should be built again from the live documents.
	stale() bool
}

// hnswGraph adapts github.com/coder/hnsw. Its vectors are the documents'
// dequantised unit vectors; add and remove run under the Index's write
// lock, search under its read lock (the graph's search only reads).
//
// Removal is a tombstone: the graph node stays and its key maps to no slot.
// coder/hnsw v0.6.1's Delete can leave an upper layer without nodes, and its
// Search then dereferences that layer's nil entry point (a panic found by
// running the threshold test 300 times); a slot reused by a new document
// gets a new key. trackEmbedding rebuilds the graph once tombstones pass a
// quarter of it.
type hnswGraph struct {
	g       *hnsw.Graph[uint64]
	dims    int
	next    uint64           // the next node key
	keyOf   map[int32]uint64 // live slot → its node key
	slotOf  map[uint64]int32 // live node key → slot
	removed int              // tombstones in g
}

func newHNSW(dims int) *hnswGraph {
	g := hnsw.NewGraph[uint64]()
	g.Rng = rand.New(rand.NewSource(1)) // reproducible levels
	g.EfSearch = 64
	return &hnswGraph{g: g, dims: dims, keyOf: map[int32]uint64{}, slotOf: map[uint64]int32{}}
}

func (h *hnswGraph) add(slot int32, v qvec) {
	if len(v.q) != h.dims {
		return
	}
	h.remove(slot)
	key := h.next
	h.next++
	h.g.Add(hnsw.MakeNode(key, v.floats()))
	h.keyOf[slot], h.slotOf[key] = key, slot
}

func (h *hnswGraph) remove(slot int32) {
	if key, ok := h.keyOf[slot]; ok {
		delete(h.keyOf, slot)
		delete(h.slotOf, key)
		h.removed++
	}
}

func (h *hnswGraph) stale() bool { return h.removed > 0 && 4*h.removed > h.g.Len() }

func (h *hnswGraph) search(q qvec, k int) []int32 {
	if len(q.q) != h.dims || len(h.slotOf) == 0 {
		return nil
	}
	// Ask for more to make up for the tombstones among the nearest.
	want := k + k*h.removed/max(len(h.slotOf), 1)
	nodes := h.g.Search(q.floats(), want)
	out := make([]int32, 0, len(nodes))
	for _, n := range nodes {
		if s, ok := h.slotOf[n.Key]; ok {
			out = append(out, s)
		}
	}
	return out
}

// floats dequantises v.
func (v qvec) floats() []float32 {
	out := make([]float32, len(v.q))
	for i, x := range v.q {
		out[i] = float32(x) * v.scale
	}
	return out
}

// trackEmbedding counts an added (+1) or removed (−1) embedded document and
// keeps the graph in step, building it once the count reaches the
// threshold. Callers hold the write lock.
func (ix *Index) trackEmbedding(s int32, v qvec, delta int) {
	if len(v.q) == 0 {
		return
	}
	ix.embedded += delta
	if ix.ann != nil && ix.ann.stale() {
		ix.ann = nil // built again below from the live documents
	}
	switch {
	case ix.ann != nil && delta > 0:
		ix.ann.add(s, v)
	case ix.ann != nil:
		ix.ann.remove(s)
	case delta > 0 && ix.set.annAbove > 0 && ix.embedded >= ix.set.annAbove:
		g := newHNSW(len(v.q))
		for slot := range ix.recs {
			if ix.meta[slot].alive && len(ix.recs[slot].emb.q) > 0 {
				g.add(int32(slot), ix.recs[slot].emb)
			}
		}
		ix.ann = g
	}
}

// annNeighbours returns the k nearest filter-passing documents from the
// graph, or ok false when there is no graph or too few of its neighbours
// pass the filters. Callers hold the read lock.
func (ix *Index) annNeighbours(e *env, k int) (out []neighbour, ok bool) {
	if ix.ann == nil {
		return nil, false
	}
	for _, s := range ix.ann.search(e.qemb, annOversample*k) {
		if int(s) >= len(ix.recs) || !ix.meta[s].alive || !ix.pass(e, s) {
			continue
		}
		if c := e.qemb.cos(ix.recs[s].emb); c > 0 {
			out = append(out, neighbour{slot: s, cos: c})
		}
		if len(out) == k {
			return out, true
		}
	}
	return nil, false
}

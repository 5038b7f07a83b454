package search

import (
	"container/heap"
	"math"
	"runtime"
	"sync"
)

// DenseNeighbours is how many nearest documents by dense cosine a search
// with query and document embeddings adds to its candidates (at least the
// candidates it scores exactly). Without them a memory sharing no word with
// the query ("pets" for "adopted a corgi") could never be found however
// close its embedding: the posting lists are the only other source.
const DenseNeighbours = 50

// qvec is a unit vector quantised to int8 (scalar quantisation): x ≈
// q[i]·scale. A 1,536-dimension embedding takes 1.5 KB instead of 6 KB, and
// the nearest-neighbour scan, bound by memory bandwidth, reads a quarter as
// much; cosines come out within about 0.01 of the float ones.
type qvec struct {
	q     []int8
	scale float32
}

// quantise returns v scaled to unit length and quantised, or the zero qvec
// for a zero or empty vector.
func quantise(v []float32) qvec {
	n, most := 0.0, 0.0
	for _, x := range v {
		n += float64(x) * float64(x)
		most = max(most, math.Abs(float64(x)))
	}
	if n == 0 {
		return qvec{}
	}
	scale := most / math.Sqrt(n) / 127 // of the unit vector
	inv := 1 / math.Sqrt(n) / scale
	q := make([]int8, len(v))
	for i, x := range v {
		q[i] = int8(math.Round(float64(x) * inv))
	}
	return qvec{q: q, scale: float32(scale)}
}

// cos is the cosine of two quantised unit vectors of equal length.
func (a qvec) cos(b qvec) float32 {
	x, y := a.q, b.q[:len(a.q)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += int32(x[i]) * int32(y[i])
		s1 += int32(x[i+1]) * int32(y[i+1])
		s2 += int32(x[i+2]) * int32(y[i+2])
		s3 += int32(x[i+3]) * int32(y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += int32(x[i]) * int32(y[i])
	}
	return float32(s0+s1+s2+s3) * a.scale * b.scale
}

// neighbour is a document and its dense cosine with the query.
type neighbour struct {
	slot int32
	cos  float32
}

type neighbourHeap []neighbour // min-heap by cos

func (h neighbourHeap) Len() int           { return len(h) }
func (h neighbourHeap) Less(i, j int) bool { return h[i].cos < h[j].cos }
func (h neighbourHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *neighbourHeap) Push(x any)        { *h = append(*h, x.(neighbour)) }
func (h *neighbourHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// parallelScan is the number of documents from which the neighbour scan
// is split over the CPUs.
const parallelScan = 8192

// neighbours returns the k filter-passing documents nearest to the query's
// embedding by cosine: an exact scan of every document's quantised unit
// vector, split over the CPUs for large indexes (an approximate index would
// take over from about 100k vectors per user). Callers hold the read lock;
// the scanning goroutines only read.
func (ix *Index) neighbours(e *env, k int) []neighbour {
	if len(e.qemb.q) == 0 {
		return nil
	}
	if nbs, ok := ix.annNeighbours(e, k); ok {
		return nbs
	}
	n := len(ix.recs)
	parts := 1
	if n >= parallelScan {
		parts = runtime.GOMAXPROCS(0)
	}
	heaps := make([]neighbourHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			heaps[p] = ix.scanNeighbours(e, k, p*n/parts, (p+1)*n/parts)
		}()
	}
	wg.Wait()
	h := heaps[0]
	for _, other := range heaps[1:] {
		for _, nb := range other {
			if len(h) < k {
				heap.Push(&h, nb)
			} else if nb.cos > h[0].cos {
				h[0] = nb
				heap.Fix(&h, 0)
			}
		}
	}
	return h
}

// scanNeighbours is neighbours over slots [lo, hi).
func (ix *Index) scanNeighbours(e *env, k, lo, hi int) neighbourHeap {
	h := make(neighbourHeap, 0, k)
	for s := lo; s < hi; s++ {
		emb := ix.recs[s].emb
		if len(emb.q) != len(e.qemb.q) || !ix.meta[s].alive {
			continue
		}
		c := e.qemb.cos(emb)
		if c <= 0 || len(h) == k && c <= h[0].cos || !ix.pass(e, int32(s)) {
			continue
		}
		if len(h) == k {
			heap.Pop(&h)
		}
		heap.Push(&h, neighbour{slot: int32(s), cos: c})
	}
	return h
}

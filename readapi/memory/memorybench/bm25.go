package memorybench

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// BM25 parameters of the baseline.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 is the quality and latency baseline: plain Okapi BM25 over the
// corpus texts, one document per corpus memory (duplicates included).
// Tokens are maximal runs of letters and digits, lower-cased; no stemming,
// no stop words, no phrase or proximity terms. For a query's distinct
// terms t and document d:
//
//	score(q,d) = Σ_t idf(t)·tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))
//	idf(t)     = ln(1 + (N − df + 0.5)/(df + 0.5)),  k1 = 1.2, b = 0.75
//
// It is safe for concurrent searches.
type bm25 struct {
	post  map[string][]posting
	dl    []float32
	avgdl float64
	pool  sync.Pool // *[]float32 accumulators
}

type posting struct {
	doc int32
	tf  int32
}

// words splits s into lower-cased runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newBM25(texts []string) *bm25 {
	b := &bm25{post: map[string][]posting{}, dl: make([]float32, len(texts))}
	total := 0
	for d, t := range texts {
		ws := words(t)
		b.dl[d] = float32(len(ws))
		total += len(ws)
		tf := map[string]int32{}
		for _, w := range ws {
			tf[w]++
		}
		for w, n := range tf {
			b.post[w] = append(b.post[w], posting{doc: int32(d), tf: n})
		}
	}
	if len(texts) > 0 {
		b.avgdl = float64(total) / float64(len(texts))
	}
	return b
}

// search returns the best limit documents for query among those keep
// accepts (nil: all), best first; ties go to the lower document number.
func (b *bm25) search(query string, keep func(doc int32) bool, limit int) []int32 {
	acc, _ := b.pool.Get().(*[]float32)
	if acc == nil {
		s := make([]float32, len(b.dl))
		acc = &s
	}
	sc := *acc
	defer b.pool.Put(acc)
	n := float64(len(b.dl))
	var touched []int32
	seen := map[string]bool{}
	for _, w := range words(query) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := b.post[w]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			if sc[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			tf := float64(p.tf)
			sc[p.doc] += float32(idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(b.dl[p.doc])/b.avgdl)))
		}
	}
	type hit struct {
		doc   int32
		score float32
	}
	var top []hit // best first, at most limit
	for _, d := range touched {
		s := sc[d]
		sc[d] = 0
		if keep != nil && !keep(d) {
			continue
		}
		if len(top) == limit && (s < top[limit-1].score || s == top[limit-1].score && d > top[limit-1].doc) {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, hit{d, s}, func(a, t hit) int {
			if a.score != t.score {
				if a.score > t.score {
					return -1
				}
				return 1
			}
			return int(a.doc - t.doc)
		})
		top = slices.Insert(top, i, hit{d, s})
		if len(top) > limit {
			top = top[:limit]
		}
	}
	out := make([]int32, len(top))
	for i, h := range top {
		out[i] = h.doc
	}
	return out
}

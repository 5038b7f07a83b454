package search_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// corpus generates deterministic synthetic memories: sentences of 20–40
// words mixing stop words with a Zipf-distributed vocabulary of 5,000
// pronounceable pseudo-words.
type corpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	vocab []string
	base  time.Time
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, 42))
	syl := []string{"ka", "lo", "mi", "ran", "te", "zu", "vor", "pel", "sin", "dra", "qui", "bex", "tor", "nal", "fi", "gos", "ul", "har", "mep", "wyn"}
	seen := make(map[string]bool)
	var vocab []string
	for len(vocab) < 5000 {
		n := 2 + rng.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	return &corpus{
		rng:   rng,
		zipf:  rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1)),
		vocab: vocab,
		base:  time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

func (c *corpus) sentence(words int) string {
	stops := []string{"the", "a", "of", "to", "and", "in", "is", "was", "with", "for"}
	parts := make([]string, 0, words)
	for i := range words {
		if i%3 == 2 {
			parts = append(parts, stops[c.rng.IntN(len(stops))])
			continue
		}
		parts = append(parts, c.vocab[c.zipf.Uint64()])
	}
	return strings.Join(parts, " ") + "."
}

func (c *corpus) doc(i int) search.Doc {
	layers := []string{"working", "episodic", "semantic"}
	return search.Doc{
		ID:         fmt.Sprintf("m%06d", i),
		Namespace:  "global",
		Layer:      layers[i%3],
		EntityIDs:  []string{fmt.Sprintf("e%d", i%500)},
		Importance: c.rng.Float64(),
		CreatedAt:  c.base.Add(time.Duration(c.rng.IntN(365*24)) * time.Hour),
		Text:       c.sentence(20 + c.rng.IntN(21)),
	}
}

// query picks 3–5 content words of an indexed document.
func (c *corpus) query(d search.Doc) string {
	var words []string
	for _, w := range strings.Fields(strings.TrimSuffix(d.Text, ".")) {
		if len(w) > 3 {
			words = append(words, w)
		}
	}
	n := min(len(words), 3+c.rng.IntN(3))
	start := c.rng.IntN(len(words) - n + 1)
	return strings.Join(words[start:start+n], " ")
}

func build50k(b *testing.B) (*search.Index, []string) {
	b.Helper()
	c := newCorpus(1)
	ix := search.New(search.Config{})
	var queries []string
	for i := range 50_000 {
		d := c.doc(i)
		ix.Upsert(d)
		if i%97 == 0 {
			queries = append(queries, c.query(d))
		}
	}
	return ix, queries
}

func BenchmarkSearch50k(b *testing.B) {
	ix, queries := build50k(b)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		ix.Search(search.Query{Text: queries[i%len(queries)], Namespace: "global", Now: now, Limit: 10})
		i++
	}
}

// BenchmarkSearch50kAfterWrite is BenchmarkSearch50k with an Upsert (not
// timed) before every search, so no exact vector norm is cached.
func BenchmarkSearch50kAfterWrite(b *testing.B) {
	ix, queries := build50k(b)
	c := newCorpus(9)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		b.StopTimer()
		ix.Upsert(c.doc(i % 50_000))
		b.StartTimer()
		ix.Search(search.Query{Text: queries[i%len(queries)], Namespace: "global", Now: now, Limit: 10})
		i++
	}
}

func BenchmarkSearch50kExpandRerank(b *testing.B) {
	ix, queries := build50k(b)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		ix.Search(search.Query{Text: queries[i%len(queries)], Namespace: "global", Now: now, Limit: 10, Expand: true, Rerank: true})
		i++
	}
}

// BenchmarkUpsert measures Upsert into an index of 50,000 documents: new
// documents first, then replacements of existing ones (which also unindex
// the old version).
func BenchmarkUpsert(b *testing.B) {
	c := newCorpus(2)
	docs := make([]search.Doc, 60_000)
	for i := range docs {
		docs[i] = c.doc(i)
	}
	ix := search.New(search.Config{})
	for i := range 50_000 {
		ix.Upsert(docs[i])
	}
	i := 50_000
	for b.Loop() {
		d := docs[i%len(docs)]
		d.Text = docs[(i*7)%len(docs)].Text // replacements change the text
		ix.Upsert(d)
		i++
	}
}

// BenchmarkDenseSearch50k searches 50,000 documents carrying 1,536-dimension
// embeddings (the size of common hosted models), where the exact
// nearest-neighbour scan adds one dot product per document to the lexical
// search; BenchmarkSearchNoEmbeddings50k is the same search without them.
func BenchmarkDenseSearch50k(b *testing.B)        { benchDense(b, 1536) }
func BenchmarkSearchNoEmbeddings50k(b *testing.B) { benchDense(b, 0) }

// vecEmbedder embeds a query into a deterministic pseudo-random vector.
type vecEmbedder struct{ dims int }

func (v vecEmbedder) Embed(s string) []float32 {
	rng := rand.New(rand.NewPCG(uint64(len(s)), 7))
	out := make([]float32, v.dims)
	for i := range out {
		out[i] = rng.Float32() - 0.5
	}
	return out
}

func benchDense(b *testing.B, dims int) {
	c := newCorpus(1)
	cfg := search.Config{}
	if dims > 0 {
		cfg.Embedder = vecEmbedder{dims}
	}
	ix := search.New(cfg)
	rng := rand.New(rand.NewPCG(3, 3))
	var d search.Doc
	for i := range 50_000 {
		d = c.doc(i)
		if dims > 0 {
			d.Embedding = make([]float32, dims)
			for k := range d.Embedding {
				d.Embedding[k] = rng.Float32() - 0.5
			}
		}
		ix.Upsert(d)
	}
	q := search.Query{Text: c.query(d), Namespace: "global", Now: c.base}
	b.ResetTimer()
	for range b.N {
		ix.Search(q)
	}
}

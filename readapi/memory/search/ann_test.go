package search_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// fixedEmbedder embeds the query text into a fixed vector.
type fixedEmbedder map[string][]float32

func (f fixedEmbedder) Embed(s string) []float32 { return f[s] }

// Past Config.ApproximateAbove embedded documents, dense neighbours come
// from the HNSW graph: the nearest document is still found, filters still
// apply, and removed documents are gone from it.
func TestApproximateNeighboursAboveTheThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func() []float32 {
		v := make([]float32, 32)
		for i := range v {
			v[i] = rng.Float32() - 0.5
		}
		return v
	}
	target := vec()
	query := slices.Clone(target)
	query[0] += 0.05
	for _, above := range []int{-1, 100} { // exact scan, then the graph
		t.Run(fmt.Sprint("above ", above), func(t *testing.T) {
			ix := search.New(search.Config{ApproximateAbove: above, Embedder: fixedEmbedder{"zzq": query}})
			for i := range 400 {
				ix.Upsert(search.Doc{ID: fmt.Sprint("d", i), Namespace: "global", Layer: "episodic", Text: "filler note", Embedding: vec(), CreatedAt: now})
			}
			ix.Upsert(search.Doc{ID: "target", Namespace: "global", Layer: "semantic", Text: "another note", Embedding: target, CreatedAt: now})
			q := search.Query{Text: "zzq", Namespace: "global", Now: now}
			if got := ids(ix.Search(q)); len(got) == 0 || got[0] != "target" {
				t.Fatalf("got %v, want target first", got)
			}
			q.Layer = "semantic"
			if got := ids(ix.Search(q)); !slices.Equal(got, []string{"target"}) {
				t.Errorf("layer filter: got %v, want [target]", got)
			}
			ix.Remove("target")
			if got := ids(ix.Search(q)); len(got) != 0 {
				t.Errorf("after removal: got %v", got)
			}
			// Many removals (past the graph's tombstone limit) and a document
			// added again under a reused slot: still exact where it matters.
			for i := range 300 {
				ix.Remove(fmt.Sprint("d", i))
			}
			ix.Upsert(search.Doc{ID: "target2", Namespace: "global", Layer: "semantic", Text: "another note", Embedding: target, CreatedAt: now})
			if got := ids(ix.Search(q)); !slices.Equal(got, []string{"target2"}) {
				t.Errorf("after many removals: got %v, want [target2]", got)
			}
			q.Layer = ""
			for _, id := range ids(ix.Search(q)) {
				var n int
				if _, err := fmt.Sscanf(id, "d%d", &n); err == nil && n < 300 {
					t.Errorf("removed document %s recalled", id)
				}
			}
		})
	}
}

package search_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// topicEmbedder is a toy embedder: one dimension per topic word present.
type topicEmbedder struct{ dims int }

func (e topicEmbedder) Embed(s string) []float32 {
	v := make([]float32, e.dims)
	s = strings.ToLower(s)
	for i, topic := range [][]string{{"cat", "kitten", "feline"}, {"dog", "puppy"}} {
		for _, w := range topic {
			if strings.Contains(s, w) && i < len(v) {
				v[i] = 1
			}
		}
	}
	return v
}

func TestEmbedder(t *testing.T) {
	docs := []search.Doc{
		{ID: "dog", Text: "Jo adopted a pet puppy", Importance: 1},
		{ID: "cat", Text: "Jo adopted a pet kitten", Importance: 0},
	}
	tests := []struct {
		name  string
		cfg   search.Config
		first string
	}{
		// Lexically the query matches both; the dog memory is more important.
		{"no embedder", search.Config{}, "dog"},
		{"embedder", search.Config{Embedder: topicEmbedder{dims: 2}}, "cat"},
		{"empty embeddings are ignored", search.Config{Embedder: topicEmbedder{dims: 0}}, "dog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := fill(t, tt.cfg, docs...)
			got := ids(ix.Search(search.Query{Text: "Jo adopted a feline pet", Namespace: "global", Now: now}))
			if len(got) == 0 || got[0] != tt.first {
				t.Errorf("got %v, want %s first", got, tt.first)
			}
		})
	}
}

// With embeddings, the nearest documents by dense cosine are candidates
// even when they share no word with the query.
func TestDenseNeighboursAreCandidates(t *testing.T) {
	docs := []search.Doc{
		{ID: "kitten", Namespace: "global", Text: "Jo brought home a tiny kitten", Importance: 0.1},
		{ID: "tea", Namespace: "global", Text: "Jo prefers green tea in the morning", Importance: 0.9},
	}
	q := search.Query{Text: "feline companions", Namespace: "global", Now: now}
	if got := ids(fill(t, search.Config{}, docs...).Search(q)); slices.Contains(got, "kitten") {
		t.Fatalf("without embeddings the kitten memory was found (%v): the test proves nothing", got)
	}
	got := ids(fill(t, search.Config{Embedder: topicEmbedder{dims: 2}}, docs...).Search(q))
	if len(got) == 0 || got[0] != "kitten" {
		t.Errorf("got %v, want kitten first", got)
	}
	// Filters still apply to neighbours.
	q.Layer = "working"
	if got := ids(fill(t, search.Config{Embedder: topicEmbedder{dims: 2}}, docs...).Search(q)); len(got) != 0 {
		t.Errorf("a layer no memory has found %v", got)
	}
}

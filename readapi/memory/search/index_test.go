package search_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

func TestUpsertGetLenRemove(t *testing.T) {
	ix := search.New(search.Config{})
	d := search.Doc{ID: "x", Namespace: "global", Layer: "semantic", EntityIDs: []string{"e1"}, Importance: 0.4,
		CreatedAt: day(3), Text: "Alice drives a red bicycle", Variants: []string{"Alice rides a red bike"},
		Facts: []search.Interval{{From: day(3)}}}
	ix.Upsert(d)
	d.EntityIDs[0] = "mutated" // the index keeps its own copy
	got, ok := ix.Get("x")
	if !ok || got.Text != d.Text || got.EntityIDs[0] != "e1" || len(got.Variants) != 1 || len(got.Facts) != 1 || ix.Len() != 1 {
		t.Fatalf("Get = %+v, %v; Len %d", got, ok, ix.Len())
	}
	q := search.Query{Namespace: "global", Now: now}
	tests := []struct {
		name  string
		op    func()
		query string
		want  []string
	}{
		{"text found", func() {}, "bicycle", []string{"x"}},
		{"variant found", func() {}, "bike", []string{"x"}},
		{"replace: old text gone", func() {
			ix.Upsert(search.Doc{ID: "x", Namespace: "global", Layer: "semantic", CreatedAt: day(1), Text: "Alice owns a green kayak"})
		}, "bicycle", nil},
		{"replace: old variant gone", func() {}, "bike", nil},
		{"replace: new text found", func() {}, "kayak", []string{"x"}},
		{"remove", func() { ix.Remove("x") }, "kayak", nil},
		{"remove unknown is a no-op", func() { ix.Remove("nope") }, "kayak", nil},
		{"re-add after remove", func() {
			ix.Upsert(search.Doc{ID: "x", Namespace: "global", CreatedAt: day(1), Text: "Alice owns a blue canoe"})
		}, "canoe", []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.op()
			q.Text = tt.query
			if got := ids(ix.Search(q)); !slices.Equal(got, tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Errorf("Search(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
	if ix.Len() != 1 {
		t.Errorf("Len = %d, want 1", ix.Len())
	}
	ix.Remove("x")
	if _, ok := ix.Get("x"); ok || ix.Len() != 0 {
		t.Errorf("after Remove: Get ok=%v Len=%d", ok, ix.Len())
	}
}

// TestChurnConsistency upserts, replaces and removes documents at random and
// checks after every step batch that every live document is found by its
// unique word and no removed or replaced version ever is, exercising
// posting-list compaction and slot reuse.
func TestChurnConsistency(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ix := search.New(search.Config{})
	live := make(map[string]string) // id → unique word of its current text
	gone := make(map[string]bool)   // unique words of removed/replaced versions
	words := []string{"apple", "river", "stone", "cloud", "ember", "maple", "delta", "prism"}
	version := 0
	uniq := func() string { version++; return fmt.Sprintf("tok%dx", version) }
	for step := range 3000 {
		id := fmt.Sprintf("d%d", rng.IntN(200))
		if rng.IntN(4) == 0 {
			ix.Remove(id)
			if w, ok := live[id]; ok {
				gone[w] = true
				delete(live, id)
			}
		} else {
			w := uniq()
			ix.Upsert(search.Doc{ID: id, Namespace: "global", CreatedAt: day(1),
				Text: words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))] + " " + w})
			if old, ok := live[id]; ok {
				gone[old] = true
			}
			live[id] = w
		}
		if step%500 != 499 {
			continue
		}
		if ix.Len() != len(live) {
			t.Fatalf("step %d: Len %d, want %d", step, ix.Len(), len(live))
		}
		for id, w := range live {
			if got := ids(ix.Search(search.Query{Text: w, Namespace: "global", Now: now, Limit: 3})); len(got) == 0 || got[0] != id {
				t.Fatalf("step %d: Search(%q) = %v, want %s first", step, w, got, id)
			}
		}
		for w := range gone {
			for _, h := range ix.Search(search.Query{Text: w, Namespace: "global", Now: now, Limit: 50}) {
				if d, _ := ix.Get(h.ID); slices.Contains(strings.Fields(d.Text), w) {
					t.Fatalf("step %d: removed text %q returned as %s", step, w, h.ID)
				}
			}
		}
	}
}

// TestConcurrentUpsertSearch is meant for go test -race.
func TestConcurrentUpsertSearch(t *testing.T) {
	c := newCorpus(3)
	ix := search.New(search.Config{})
	docs := make([]search.Doc, 2000)
	for i := range docs {
		docs[i] = c.doc(i)
	}
	queries := make([]string, 50)
	for i := range queries {
		queries[i] = c.query(docs[i*37%len(docs)])
	}
	for i := range 500 {
		ix.Upsert(docs[i])
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 500 + w; i < len(docs); i += 4 {
				ix.Upsert(docs[i])
				if i%7 == 0 {
					ix.Remove(docs[i-300].ID)
				}
			}
		})
	}
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				q := search.Query{Text: queries[(i+w)%len(queries)], Namespace: "global", Now: now,
					Expand: i%3 == 0, Rerank: i%2 == 0, CrossNamespace: i%5 == 0}
				hits := ix.Search(q)
				for j := 1; j < len(hits); j++ {
					if hits[j].Score > hits[j-1].Score {
						t.Errorf("unsorted hits %v", hits)
					}
				}
				_, _ = ix.Get(docs[i].ID)
				_ = ix.Len()
			}
		})
	}
	wg.Wait()
	if ix.Len() == 0 {
		t.Fatal("index empty")
	}
}

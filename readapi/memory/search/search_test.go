package search_test

import (
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func day(n int) time.Time { return now.AddDate(0, 0, -n) }

// fill returns an index holding docs plus some unrelated background memories
// (so idf statistics are realistic).
func fill(t testing.TB, cfg search.Config, docs ...search.Doc) *search.Index {
	t.Helper()
	ix := search.New(cfg)
	background := []string{
		"The team meeting is on Monday morning",
		"Bob prefers tea over coffee",
		"The quarterly report is due next week",
		"Carol is learning to play the guitar",
		"Dave moved to Lisbon last year",
		"The office wifi password changed",
		"Erin is allergic to peanuts",
		"The project deadline was extended",
	}
	for i, b := range background {
		ix.Upsert(search.Doc{ID: "bg" + string(rune('a'+i)), Namespace: "global", Layer: "semantic", Importance: 0.5, CreatedAt: day(10), Text: b})
	}
	for _, d := range docs {
		if d.Namespace == "" {
			d.Namespace = "global"
		}
		if d.Layer == "" {
			d.Layer = "semantic"
		}
		if d.CreatedAt.IsZero() {
			d.CreatedAt = day(1)
		}
		ix.Upsert(d)
	}
	return ix
}

func ids(hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func TestRanking(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "exact", Text: "Alice uses PostgreSQL for the billing service", Importance: 0.5},
		search.Doc{ID: "partial", Text: "The billing service runs on a small server", Importance: 0.5},
		search.Doc{ID: "other", Text: "Alice enjoys hiking in the Alps", Importance: 0.5},
		search.Doc{ID: "morph", Text: "Kubernetes clusters were upgraded yesterday", Importance: 0.5},
		search.Doc{ID: "cjk", Text: "機器学習のモデルを訓練した", Importance: 0.5},
	)
	tests := []struct {
		name, query string
		first       string
		absent      []string
	}{
		{"exact match first", "Alice uses PostgreSQL for the billing service", "exact", nil},
		{"keywords", "billing postgresql", "exact", nil},
		{"typo", "postgress", "exact", []string{"other"}},
		{"typo in two words", "kubernets clustr", "morph", nil},
		{"morphology", "upgrading kubernetes cluster", "morph", nil},
		{"CJK", "機器学習", "cjk", []string{"exact"}},
		{"name", "where does Alice hike", "other", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := ix.Search(search.Query{Text: tt.query, Namespace: "global", Now: now})
			if len(hits) == 0 || hits[0].ID != tt.first {
				t.Fatalf("Search(%q) = %v, want %s first", tt.query, ids(hits), tt.first)
			}
			for _, a := range tt.absent {
				if slices.Contains(ids(hits), a) {
					t.Errorf("Search(%q) = %v, must not contain %s", tt.query, ids(hits), a)
				}
			}
			for i, h := range hits {
				if h.Score < 0 || h.Score > 1 || h.Similarity < 0 || h.Similarity > 1 {
					t.Errorf("hit %s: score %v similarity %v outside [0, 1]", h.ID, h.Score, h.Similarity)
				}
				if i > 0 && h.Score > hits[i-1].Score {
					t.Errorf("hits not sorted: %v", hits)
				}
				if h.Reranked || h.Relevance != 0 {
					t.Errorf("hit %s reranked without Rerank", h.ID)
				}
			}
		})
	}
}

func TestNoMatch(t *testing.T) {
	ix := fill(t, search.Config{}, search.Doc{ID: "a", Text: "Alice likes tea"})
	for _, q := range []string{"", "the of and", "zzqxv"} {
		if hits := ix.Search(search.Query{Text: q, Namespace: "global", Now: now}); len(hits) != 0 {
			t.Errorf("Search(%q) = %v, want none", q, ids(hits))
		}
	}
	if hits := search.New(search.Config{}).Search(search.Query{Text: "tea", Namespace: "global"}); hits != nil {
		t.Errorf("empty index returned %v", hits)
	}
}

func TestLimitAndTies(t *testing.T) {
	var docs []search.Doc
	for i := range 30 {
		// Identical text, importance and age except creation time; the
		// texts are duplicates, so give each a distinct number.
		docs = append(docs, search.Doc{ID: string(rune('A' + i)), Text: "invoice number " + string(rune('0'+i%10)) + string(rune('a'+i)), Importance: 0.5, CreatedAt: day(5)})
	}
	ix := fill(t, search.Config{}, docs...)
	hits := ix.Search(search.Query{Text: "invoice", Namespace: "global", Now: now, Limit: 7})
	if len(hits) != 7 {
		t.Fatalf("got %d hits, want 7", len(hits))
	}
	if def := ix.Search(search.Query{Text: "invoice", Namespace: "global", Now: now}); len(def) != 10 {
		t.Errorf("default limit gave %d hits, want 10", len(def))
	}
	// Equal scores: newer first, then ID.
	ix2 := fill(t, search.Config{},
		search.Doc{ID: "b", Text: "sprint planning notes alpha", Importance: 0.5, CreatedAt: day(3)},
		search.Doc{ID: "a", Text: "sprint planning notes beta", Importance: 0.5, CreatedAt: day(3)},
	)
	got := ids(ix2.Search(search.Query{Text: "sprint planning notes", Namespace: "global", Now: now}))
	if len(got) < 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("tie order = %v, want [a b ...]", got)
	}
}

func TestRecencyAndImportance(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "old", Text: "Alice's favourite colour is green", Importance: 0.5, CreatedAt: day(300)},
		search.Doc{ID: "new", Text: "Alice's favourite colour is green now", Importance: 0.5, CreatedAt: day(1)},
		search.Doc{ID: "vital", Text: "Alice's favourite drink is green tea", Importance: 1, CreatedAt: day(1)},
		search.Doc{ID: "trivial", Text: "Alice's favourite drink is green juice", Importance: 0, CreatedAt: day(1)},
	)
	hits := ids(ix.Search(search.Query{Text: "Alice favourite colour green", Namespace: "global", Now: now}))
	if i, j := slices.Index(hits, "new"), slices.Index(hits, "old"); i < 0 || j >= 0 && j < i {
		t.Errorf("newer duplicate-free memory should outrank older: %v", hits)
	}
	hits = ids(ix.Search(search.Query{Text: "favourite drink", Namespace: "global", Now: now}))
	if i, j := slices.Index(hits, "vital"), slices.Index(hits, "trivial"); i < 0 || j < 0 || i > j {
		t.Errorf("important memory should outrank trivial one: %v", hits)
	}
}

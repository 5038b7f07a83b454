package search_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

type synonyms map[string][]string

func (s synonyms) Synonyms(stem string) []string { return s[stem] }

func TestExpandSynonyms(t *testing.T) {
	docs := []search.Doc{
		{ID: "buy", Text: "Dana wants to purchase an automobile next spring"},
		{ID: "noise", Text: "Dana baked bread for the neighbours"},
	}
	tests := []struct {
		name string
		cfg  search.Config
	}{
		{"built-in list", search.Config{}},
		{"configured source", search.Config{Synonyms: synonyms{"buy": {"purchase"}, "car": {"automobile", "vehicle"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := fill(t, tt.cfg, docs...)
			q := search.Query{Text: "buy car", Namespace: "global", Now: now}
			if got := ids(ix.Search(q)); slices.Contains(got, "buy") {
				t.Fatalf("without Expand the synonym-only match was found: %v", got)
			}
			q.Expand = true
			if got := ids(ix.Search(q)); len(got) == 0 || got[0] != "buy" {
				t.Errorf("with Expand got %v, want buy first", got)
			}
		})
	}
}

func TestExpandFeedbackAndMerge(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "a", Text: "Grace maintains the Terraform modules for the staging cluster"},
		search.Doc{ID: "b", Text: "The staging cluster Terraform state lives in an S3 bucket"},
		search.Doc{ID: "c", Text: "S3 bucket versioning is enabled for backups"},
	)
	plain := ix.Search(search.Query{Text: "Terraform modules", Namespace: "global", Now: now})
	exp := ix.Search(search.Query{Text: "Terraform modules", Namespace: "global", Now: now, Expand: true})
	if len(exp) == 0 || exp[0].ID != "a" {
		t.Fatalf("expanded search = %v, want a first", ids(exp))
	}
	// Merging keeps each document's best score: never below the plain one.
	for _, p := range plain {
		i := slices.IndexFunc(exp, func(h search.Hit) bool { return h.ID == p.ID })
		if i < 0 || exp[i].Score < p.Score-1e-12 {
			t.Errorf("doc %s: plain %v, expanded %v", p.ID, p.Score, exp)
		}
	}
	// Deterministic despite the goroutines.
	for range 20 {
		again := ix.Search(search.Query{Text: "Terraform modules", Namespace: "global", Now: now, Expand: true})
		if !slices.Equal(again, exp) {
			t.Fatalf("expanded search not deterministic: %v vs %v", again, exp)
		}
	}
}

func TestRerank(t *testing.T) {
	march := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	ix := fill(t, search.Config{},
		search.Doc{ID: "then", Text: "Henry joined a pottery class", CreatedAt: march, Importance: 0.2},
		search.Doc{ID: "recent", Text: "Henry joined a pottery class at the community center", CreatedAt: day(1), Importance: 0.9},
	)
	q := search.Query{Text: "Henry pottery class in March 2025", Namespace: "global", Now: now}
	plain := ix.Search(q)
	if got := ids(plain); len(got) < 2 || got[0] != "recent" {
		t.Fatalf("test premise: without rerank the recent, important memory leads: %v", got)
	}
	// A model that cares about dates puts the March 2025 memory first.
	ix.SetRerankModel(search.RerankModel{Bias: -3, Lexical: 2, Vector: 1, Temporal: 6})
	q.Rerank = true
	hits := ix.Search(q)
	if got := ids(hits); len(got) < 2 || got[0] != "then" {
		t.Errorf("reranked = %v, want then first", got)
	}
	for i, h := range hits {
		if !h.Reranked || h.Relevance <= 0 || h.Relevance >= 1 {
			t.Errorf("hit %+v not reranked", h)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("not sorted: %+v", hits)
		}
		// The reranked score is 0.5·score + 0.5·relevance.
		p := slices.IndexFunc(plain, func(p search.Hit) bool { return p.ID == h.ID })
		if want := 0.5*plain[p].Score + 0.5*h.Relevance; math.Abs(h.Score-want) > 1e-12 {
			t.Errorf("%s: score %v, want %v", h.ID, h.Score, want)
		}
	}
}

func TestFeatures(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "m", Text: "Ivy visited Kyoto with Jun", CreatedAt: day(0).AddDate(0, 0, -400)},
	)
	created, _ := ix.Get("m")
	year := created.CreatedAt.Format("2006")
	month := created.CreatedAt.Format("January")
	other := created.CreatedAt.AddDate(0, 2, 0).Format("January")
	tests := []struct {
		query string
		check func(search.Features) bool
	}{
		{"Ivy visited Kyoto", func(f search.Features) bool {
			return f.Lexical == 1 && f.Vector > 0.5 && f.Phrase == 1 && f.Entity == 1 && f.Temporal == 0
		}},
		{"Kyoto Ivy", func(f search.Features) bool { return f.Phrase == 0 && f.Entity == 1 }},
		{"Ivy and Bob in Kyoto", func(f search.Features) bool { return f.Entity == 2.0/3 }},
		{"trip in " + month + " " + year, func(f search.Features) bool { return f.Temporal == 1 }},
		{"trip in " + other + " " + year, func(f search.Features) bool { return f.Temporal == 0.5 }},
		{"trip in 1999", func(f search.Features) bool { return f.Temporal == 0 }},
		{"unrelated words", func(f search.Features) bool { return f.Lexical == 0 && f.Entity == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			f, ok := ix.Features(search.Query{Text: tt.query, Now: now}, "m")
			if !ok || !tt.check(f) {
				t.Errorf("Features(%q) = %+v, %v", tt.query, f, ok)
			}
		})
	}
	if _, ok := ix.Features(search.Query{Text: "Ivy"}, "nope"); ok {
		t.Error("Features of an unknown id reported ok")
	}
}

func TestFit(t *testing.T) {
	// Relevant iff lexical and entity agree; phrase is noise.
	var ex []search.Example
	for i := range 200 {
		lex := float64(i%10) / 10
		ent := float64((i/10)%2) * 0.8
		ex = append(ex, search.Example{
			Features: search.Features{Lexical: lex, Vector: lex * 0.8, Phrase: float64(i%3) / 3, Entity: ent},
			Relevant: lex >= 0.5 && ent > 0,
		})
	}
	var m search.RerankModel
	loss := m.Fit(ex)
	if loss > 0.35 {
		t.Errorf("loss %v too high; model %+v", loss, m)
	}
	good := m.Relevance(search.Features{Lexical: 0.9, Vector: 0.7, Entity: 0.8})
	bad := m.Relevance(search.Features{Lexical: 0.1, Vector: 0.1})
	if good < 0.7 || bad > 0.3 {
		t.Errorf("fitted model: good %v bad %v (%+v)", good, bad, m)
	}
	m2 := search.RerankModel{}
	if m2.Fit(ex) != loss || m2 != m {
		t.Error("Fit is not deterministic")
	}
	before := search.DefaultRerankModel()
	if before.Fit(nil) != 0 || before != search.DefaultRerankModel() {
		t.Error("Fit(nil) changed the model")
	}
	ix := search.New(search.Config{})
	ix.SetRerankModel(m)
	if ix.RerankModel() != m {
		t.Error("SetRerankModel not applied")
	}
	if search.New(search.Config{}).RerankModel() != search.DefaultRerankModel() {
		t.Error("zero Config does not use the default model")
	}
}

package memory_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// seedLena stores a small history about one person.
func (w *world) seedLena(u *user) {
	w.t.Helper()
	for _, m := range []struct{ content, at string }{
		{"Lena Fischer works at Northwind Analytics as a data engineer.", "2024-01-10T09:00:00Z"},
		{"Lena Fischer moved the nightly Kafka pipeline to Flink and cut costs by a third.", "2024-05-02T09:00:00Z"},
		{"Lena Fischer is tuning the Kafka consumers of the billing pipeline.", "2024-09-12T09:00:00Z"},
		{"Lena Fischer works at Globex Corporation as a staff engineer.", "2025-02-01T09:00:00Z"},
		{"Lena Fischer prefers written design reviews over meetings.", "2025-03-03T09:00:00Z"},
	} {
		w.remember(u, m.content, map[string]any{"occurred_at": m.at, "importance": 0.6})
	}
	w.remember(u, "The office coffee machine is broken again.", nil)
}

func TestReflectAndProfileConsolidateAnEntity(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	w.seedLena(u)
	for _, r := range []reply{w.do(u, "POST", base+"/reflect/Lena%20Fischer", nil),
		w.do(u, "POST", base+"/reflect", map[string]any{"entity_id": "lena fischer"})} {
		if r.status != http.StatusOK {
			t.Fatalf("reflect: %d %s", r.status, r.raw)
		}
		ref := r.body["reflection"].(string)
		if r.body["memory_count"] != float64(5) || !strings.Contains(ref, "Globex Corporation") ||
			!strings.Contains(ref, "Northwind Analytics") || r.body["entity_id"] == "" {
			t.Fatalf("reflect = %v", r.body)
		}
		themes := r.body["key_themes"].([]any)
		if len(themes) == 0 || !containsAny(themes, "kafka", "pipeline") {
			t.Fatalf("key_themes = %v", themes)
		}
		for _, th := range themes {
			if th == "lena" || th == "fischer" {
				t.Fatalf("the entity's own name is a theme: %v", themes)
			}
		}
	}
	for _, p := range []map[string]any{w.must(u, http.StatusOK, "GET", base+"/profile/Lena%20Fischer", nil),
		w.must(u, http.StatusOK, "POST", base+"/profile", map[string]any{"entity_id": "Lena Fischer"})} {
		cur := p["current_facts"].([]any)
		past := p["past_facts"].([]any)
		if p["entity_type"] != "person" || p["memory_count"] != float64(5) || len(cur) == 0 || len(past) == 0 ||
			p["first_seen"] != "2024-01-10T09:00:00Z" || p["last_seen"] != "2025-03-03T09:00:00Z" {
			t.Fatalf("profile = %v", p)
		}
		for _, f := range cur {
			if f.(map[string]any)["object"] == "Northwind Analytics" {
				t.Fatalf("a superseded fact is current: %v", cur)
			}
		}
	}
	w.refused(w.do(u, "POST", base+"/reflect", map[string]any{}), http.StatusBadRequest, "entity_id", "required")
	w.refused(w.do(u, "GET", base+"/profile/nobody", nil), http.StatusNotFound, "", "")
}

func containsAny(v []any, words ...string) bool {
	for _, x := range v {
		for _, w := range words {
			if x == w {
				return true
			}
		}
	}
	return false
}

func TestContextStaysWithinMaxTokensInEveryStyle(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	w.seedLena(u)
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, style := range []string{"narrative", "bullet", "structured"} {
		for _, max := range []int{1, 5, 20, 60, 2000} {
			res := w.must(u, http.StatusOK, "POST", base+"/context", map[string]any{"query": "what does Lena Fischer work on",
				"synthesis_style": style, "max_tokens": max, "top_k": 5})
			text := res["context"].(string)
			n, _ := codec.Count(text)
			if int(res["token_count"].(float64)) != n || n > max || res["tokenizer"] != "cl100k_base" {
				t.Fatalf("%s/%d: token_count %v, counted %d: %q", style, max, res["token_count"], n, text)
			}
			srcs := res["sources"].([]any)
			if max == 2000 {
				if len(srcs) == 0 || res["confidence"].(float64) <= 0 || !strings.Contains(text, "Lena Fischer") {
					t.Fatalf("%s: %v", style, res)
				}
				if style == "bullet" && !strings.HasPrefix(text, "- ") {
					t.Fatalf("bullet context = %q", text)
				}
				if style == "structured" && !strings.HasPrefix(text, "Query: ") {
					t.Fatalf("structured context = %q", text)
				}
				for _, s := range srcs {
					snip := s.(map[string]any)["content_snippet"].(string)
					if !strings.Contains(text, strings.TrimSuffix(snip, ".")) {
						t.Fatalf("source %q is not in the context %q", snip, text)
					}
				}
			}
		}
	}
	w.refused(w.do(u, "POST", base+"/context", map[string]any{"query": "x", "synthesis_style": "poem"}),
		http.StatusBadRequest, "synthesis_style", "enum")
	w.refused(w.do(u, "POST", base+"/context", map[string]any{"query": "x", "top_k": 51}), http.StatusBadRequest, "top_k", "range:1-50")
	w.refused(w.do(u, "POST", base+"/context", map[string]any{"query": "x", "max_tokens": 0}), http.StatusBadRequest,
		"max_tokens", "range:1-100000")
}

func TestProcessExtractsMemoriesFromATranscript(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	res := w.must(u, http.StatusOK, "POST", base+"/process", map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Hi there! I just moved to Lisbon last month. I work at Globex Corporation as a designer."},
		{"role": "assistant", "content": "Congratulations on the move! I love Lisbon."},
		{"role": "user", "content": "Remind me to renew my passport before June. What is the weather like?"},
		{"role": "user", "content": "I prefer tea over coffee."},
	}})
	mems := res["memories"].([]any)
	if res["memories_extracted"] != float64(len(mems)) || len(mems) < 3 {
		t.Fatalf("process = %v", res)
	}
	types := map[string]string{}
	for _, m := range mems {
		mm := m.(map[string]any)
		types[mm["content"].(string)] = mm["memory_type"].(string)
		if strings.Contains(mm["content"].(string), "weather") || strings.Contains(mm["content"].(string), "Congratulations") {
			t.Fatalf("a question or an assistant turn became a memory: %v", mems)
		}
	}
	if types["Remind me to renew my passport before June."] != "working" || types["I prefer tea over coffee."] != "semantic" {
		t.Fatalf("memory types = %v", types)
	}
	if ids := w.recall(u, "which city did I move to", nil); len(ids) == 0 {
		t.Fatal("processed memories are not recalled")
	}
	w.refused(w.do(u, "POST", base+"/process", map[string]any{"messages": []any{}}), http.StatusBadRequest, "messages", "required")
	w.refused(w.do(u, "POST", base+"/process", map[string]any{"messages": []map[string]any{{"role": "bot", "content": "x"}}}),
		http.StatusBadRequest, "messages.role", "enum")
}

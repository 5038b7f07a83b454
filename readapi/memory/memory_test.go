package memory_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRememberThenRecallWithTheSeedsDefaults(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	res := w.remember(u, "Priya Raman prefers PostgreSQL over MySQL for analytics work.", nil)
	id, _ := res["memory_id"].(string)
	if id == "" || res["memory_type"] != "episodic" || res["importance"] != 0.5 || res["namespace"] != "global" ||
		res["merged"] != false {
		t.Fatalf("remember = %v", res)
	}
	if res["content"] != "Priya Raman prefers PostgreSQL over MySQL for analytics work." {
		t.Fatalf("content = %v", res["content"])
	}
	steps, _ := res["next_steps"].(map[string]any)
	if steps["action"] == "" || steps["endpoint"] == "" || steps["suggestion"] == "" {
		t.Fatalf("next_steps = %v", steps)
	}
	ents, _ := res["entities_extracted"].([]any)
	if len(ents) == 0 {
		t.Fatalf("entities_extracted = %v", res["entities_extracted"])
	}
	w.remember(u, "The quarterly offsite is planned for Lisbon in March.", map[string]any{"memory_type": "semantic", "importance": 0.9})

	rec := w.must(u, http.StatusOK, "POST", base+"/recall", map[string]any{"query": "which database does Priya like"})
	results := rec["results"].([]any)
	if rec["count"] != float64(len(results)) || rec["query_expansion"] != false || rec["reranked"] != false || len(results) == 0 {
		t.Fatalf("recall = %v", rec)
	}
	top := results[0].(map[string]any)
	if top["memory_id"] != id || top["memory_type"] != "episodic" || top["importance"] != 0.5 {
		t.Fatalf("top = %v, want %s", top, id)
	}
	if _, err := time.Parse(time.RFC3339, top["created_at"].(string)); err != nil {
		t.Fatalf("created_at = %v", top["created_at"])
	}
	if s := top["score"].(float64); s <= 0 || s > 1 {
		t.Fatalf("score = %v", s)
	}
	if _, ok := top["llm_relevance"]; ok {
		t.Fatal("llm_relevance without rerank")
	}
}

func TestBadInputIsRefusedNamingTheFieldAndRule(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	for _, c := range []struct {
		path        string
		body        map[string]any
		field, rule string
	}{
		{"/remember", map[string]any{}, "content", "required"},
		{"/remember", map[string]any{"content": "  "}, "content", "required"},
		{"/remember", map[string]any{"content": strings.Repeat("x", 16001)}, "content", "max_length:16000"},
		{"/remember", map[string]any{"content": "x", "importance": 1.5}, "importance", "range:0-1"},
		{"/remember", map[string]any{"content": "x", "importance": -0.1}, "importance", "range:0-1"},
		{"/remember", map[string]any{"content": "x", "memory_type": "procedural"}, "memory_type", "enum"},
		{"/remember", map[string]any{"content": "x", "namespace": "team:1"}, "namespace", "namespace"},
		{"/remember", map[string]any{"content": "x", "namespace": "session:"}, "namespace", "namespace"},
		{"/remember", map[string]any{"content": "x", "occurred_at": "yesterday"}, "occurred_at", "datetime"},
		{"/remember", map[string]any{"content": "x", "occurred_at": "2026-01-02T10:00:00"}, "occurred_at", "datetime_offset"},
		{"/remember", map[string]any{"content": "x", "occurred_at": "0000-01-02T10:00:00Z"}, "occurred_at", "year_range:1900-2100"},
		{"/recall", map[string]any{"query": "x", "as_of": "9999-01-01"}, "as_of", "year_range:1900-2100"},
		{"/recall", map[string]any{}, "query", "required"},
		{"/recall", map[string]any{"query": "x", "limit": 0}, "limit", "range:1-100"},
		{"/recall", map[string]any{"query": "x", "limit": 101}, "limit", "range:1-100"},
		{"/recall", map[string]any{"query": "x", "layer": "deep"}, "layer", "enum"},
		{"/recall", map[string]any{"query": "x", "as_of": "soon"}, "as_of", "datetime"},
		{"/relate", map[string]any{"predicate": "knows", "object": "Bob"}, "subject", "required"},
		{"/relate", map[string]any{"subject": "A", "predicate": "knows", "object": "B", "confidence": 2}, "confidence", "range:0-1"},
		{"/relate", map[string]any{"subject": "A", "predicate": "a/b", "object": "B"}, "predicate", "pattern"},
		{"/forget", map[string]any{}, "memory_id", "required"},
	} {
		w.refused(w.do(u, "POST", base+c.path, c.body), http.StatusBadRequest, c.field, c.rule)
	}
	w.refused(w.do(u, "GET", base+"/entities?limit=501", nil), http.StatusBadRequest, "limit", "range:1-500")
	w.refused(w.do(u, "GET", base+"/entities?entity_type=place", nil), http.StatusBadRequest, "entity_type", "enum")
	w.refused(w.do(u, "GET", base+"/entities?user_id=nope", nil), http.StatusBadRequest, "user_id", "uuid")
	w.refused(w.do(u, "DELETE", base+"/entities/x?cascade=maybe", nil), http.StatusBadRequest, "cascade", "boolean")
}

func TestEveryRouteNeedsCredentials(t *testing.T) {
	w := start(t)
	for _, r := range [][2]string{{"POST", "/remember"}, {"POST", "/recall"}, {"DELETE", "/forget/x"}, {"POST", "/forget"},
		{"POST", "/relate"}, {"GET", "/graph/x"}, {"GET", "/entities"}, {"GET", "/entities/x/timeline"},
		{"DELETE", "/entities/x"}} {
		if got := w.do(nil, r[0], base+r[1], map[string]any{}); got.status != http.StatusUnauthorized {
			t.Errorf("%s %s: status %d, want 401", r[0], r[1], got.status)
		}
	}
	u := w.register("Ada").withKey()
	w.remember(u, "API keys work as bearer credentials.", nil)
}

func TestNoUserSeesAnotherUsersMemoryOrGraph(t *testing.T) {
	w := start(t)
	a, b := w.register("Ada"), w.register("Bo")
	id := w.remember(a, "Ada's locker code is 4471 and she works at Acme Robotics.", nil)["memory_id"].(string)
	w.must(a, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Ada", "predicate": "owns", "object": "Locker 12"})
	if ids := w.recall(b, "locker code Acme", nil); len(ids) != 0 {
		t.Fatalf("b recalled %v", ids)
	}
	w.refused(w.do(b, "DELETE", base+"/forget/"+id, nil), http.StatusNotFound, "", "")
	w.refused(w.do(b, "GET", base+"/graph/Ada", nil), http.StatusNotFound, "", "")
	w.refused(w.do(b, "GET", base+"/entities/Ada/timeline", nil), http.StatusNotFound, "", "")
	w.refused(w.do(b, "DELETE", base+"/entities/Ada", nil), http.StatusNotFound, "", "")
	w.refused(w.do(b, "GET", base+"/entities?user_id="+a.ID, nil), http.StatusForbidden, "", "")
	if got := w.must(b, http.StatusOK, "GET", base+"/entities", nil); got["count"] != float64(0) {
		t.Fatalf("b's entities = %v", got)
	}
	if ids := w.recall(a, "locker code", nil); !contains(ids, id) {
		t.Fatalf("a recalled %v, want %s", ids, id)
	}
}

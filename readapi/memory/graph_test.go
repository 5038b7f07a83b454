package memory_test

import (
	"net/http"
	"testing"
	"time"
)

// edges returns the timeline's edges for predicate as maps.
func (w *world) edges(u *user, entity, predicate string) []map[string]any {
	w.t.Helper()
	tl := w.must(u, http.StatusOK, "GET", base+"/entities/"+entity+"/timeline", nil)
	var out []map[string]any
	for _, e := range tl["edges"].([]any) {
		m := e.(map[string]any)
		if m["predicate"] == predicate {
			out = append(out, m)
		}
	}
	return out
}

func TestANewFactSupersedesTheOldOneWithItsHistoryKept(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	t1 := "2024-02-01T09:00:00Z"
	t2 := "2025-03-15T09:00:00Z"
	old := w.remember(u, "Priya Raman works at Northwind Analytics.", map[string]any{"occurred_at": t1})["memory_id"].(string)
	res := w.remember(u, "Priya Raman works at Globex Corporation.", map[string]any{"occurred_at": t2})
	cur := res["memory_id"].(string)
	if res["facts_superseded"] != float64(1) {
		t.Fatalf("remember = %v, want one fact superseded", res)
	}
	edges := w.edges(u, "priya raman", "works_at")
	if len(edges) != 2 {
		t.Fatalf("works_at edges = %v", edges)
	}
	if edges[0]["object"] != "Northwind Analytics" || edges[0]["status"] != "superseded" || edges[0]["valid_from"] != t1 ||
		edges[0]["valid_until"] != t2 {
		t.Fatalf("old edge = %v", edges[0])
	}
	if edges[1]["object"] != "Globex Corporation" || edges[1]["status"] != "current" || edges[1]["valid_until"] != nil {
		t.Fatalf("new edge = %v", edges[1])
	}

	ids := w.recall(u, "where does Priya Raman work", nil)
	if len(ids) < 2 || ids[0] != cur {
		t.Fatalf("recall = %v, want the current fact %s first", ids, cur)
	}
	asOf := w.recall(u, "where does Priya Raman work", map[string]any{"as_of": "2024-06-01T00:00:00Z"})
	if len(asOf) != 1 || asOf[0] != old {
		t.Fatalf("as_of recall = %v, want only %s", asOf, old)
	}
	before := w.recall(u, "where does Priya Raman work", map[string]any{"as_of": "2023-01-01T00:00:00Z"})
	if len(before) != 0 {
		t.Fatalf("as_of before anything = %v", before)
	}

	// Forgetting the newer memory makes the older fact current again.
	w.must(u, http.StatusOK, "DELETE", base+"/forget/"+cur, nil)
	edges = w.edges(u, "Priya Raman", "works_at")
	if len(edges) != 1 || edges[0]["status"] != "current" || edges[0]["valid_until"] != nil {
		t.Fatalf("after forget = %v", edges)
	}
}

func TestRelateGraphEntitiesAndDeleteWithCascade(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	r := w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Marco Silva", "predicate": "Role",
		"object": "CTO", "valid_from": "2024-01-01T00:00:00Z"})
	if r["confidence"] != 0.8 || r["predicate"] != "role" || r["exclusive"] != true || r["edge_id"] == "" {
		t.Fatalf("relate = %v", r)
	}
	r = w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "marco silva", "predicate": "role",
		"object": "CEO", "confidence": 0.95})
	if sup := r["superseded"].([]any); len(sup) != 1 {
		t.Fatalf("superseded = %v", r["superseded"])
	}
	w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Marco Silva", "predicate": "uses",
		"object": "Kubernetes", "exclusive": false})
	mem := w.remember(u, "Marco Silva presented the Kubernetes migration plan.", nil)["memory_id"].(string)

	g := w.must(u, http.StatusOK, "GET", base+"/graph/Marco%20Silva?limit=10", nil)
	rels := g["relationships"].([]any)
	if g["name"] != "Marco Silva" || len(rels) < 3 {
		t.Fatalf("graph = %v", g)
	}
	if first := rels[0].(map[string]any); first["status"] != "current" {
		t.Fatalf("graph lists a superseded fact first: %v", rels)
	}
	tl := w.edges(u, g["entity_id"].(string), "role")
	if len(tl) != 2 || tl[0]["object"] != "CTO" || tl[0]["status"] != "superseded" || tl[1]["object"] != "CEO" {
		t.Fatalf("timeline = %v", tl)
	}
	from, _ := time.Parse(time.RFC3339, tl[1]["valid_from"].(string))
	if tl[0]["valid_until"] != tl[1]["valid_from"] || from.IsZero() {
		t.Fatalf("valid_until %v != new valid_from %v", tl[0]["valid_until"], tl[1]["valid_from"])
	}

	list := w.must(u, http.StatusOK, "GET", base+"/entities?entity_type=person", nil)
	if list["count"] != float64(1) || list["user_id"] != u.ID {
		t.Fatalf("entities = %v", list)
	}
	if w.must(u, http.StatusOK, "GET", base+"/entities?user_id="+u.ID+"&limit=1", nil)["count"] != float64(1) {
		t.Fatal("limit=1 with the caller's own user_id")
	}

	del := w.must(u, http.StatusOK, "DELETE", base+"/entities/marco%20silva?cascade=true", nil)
	if del["cascade"] != true || del["edges_removed"] != float64(3) || del["memories_removed"] != float64(1) {
		t.Fatalf("delete = %v", del)
	}
	w.refused(w.do(u, "GET", base+"/graph/Marco%20Silva", nil), http.StatusNotFound, "", "")
	if ids := w.recall(u, "Kubernetes migration plan", nil); contains(ids, mem) {
		t.Fatalf("cascade left the memory recallable: %v", ids)
	}
}

func TestDeleteWithoutCascadeKeepsTheMemories(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	mem := w.remember(u, "Lena Fischer reviewed the Terraform modules.", nil)["memory_id"].(string)
	del := w.must(u, http.StatusOK, "DELETE", base+"/entities/Lena%20Fischer", nil)
	if del["cascade"] != false || del["memories_removed"] != float64(0) {
		t.Fatalf("delete = %v", del)
	}
	if ids := w.recall(u, "Terraform modules review", nil); !contains(ids, mem) {
		t.Fatalf("recall = %v, want the memory kept", ids)
	}
}

// Recall as_of reads a memory as it read then: a phrasing merged into it
// later, which raised its importance, is not part of it yet.
func TestAsOfRecallReadsAMemoryAsItReadThen(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	first := w.remember(u, "Marta Silva loves ramen and always orders it at team lunches.",
		map[string]any{"occurred_at": "2024-02-01T09:00:00Z", "importance": 0.2})["memory_id"].(string)
	again := w.remember(u, "At team lunches Marta Silva always orders ramen and loves it.",
		map[string]any{"occurred_at": "2025-03-01T09:00:00Z", "importance": 0.9})["memory_id"].(string)
	if again != first {
		t.Fatalf("the restatement was stored as %s, not merged into %s", again, first)
	}
	importance := func(fields map[string]any) any {
		fields["query"] = "What does Marta Silva order at lunch?"
		res := w.must(u, http.StatusOK, "POST", base+"/recall", fields)["results"].([]any)
		if len(res) != 1 {
			t.Fatalf("recall %v = %v, want the one memory", fields, res)
		}
		return res[0].(map[string]any)["importance"]
	}
	if got := importance(map[string]any{"as_of": "2024-06-01T00:00:00Z"}); got != 0.2 {
		t.Errorf("importance as of 2024-06 = %v, want 0.2 (before the merge)", got)
	}
	if got := importance(map[string]any{}); got != 0.9 {
		t.Errorf("importance now = %v, want 0.9", got)
	}
}

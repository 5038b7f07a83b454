package mcpserver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/readapi/memory/mcpserver"
)

// exercise runs the tools end to end through sessions open returns (each
// call a new MCP session of the same user), whatever the transport and
// backend.
func exercise(t *testing.T, open func() *mcp.ClientSession) {
	s1 := open()
	var rem mcpserver.RememberResult
	call(t, s1, "remember", map[string]any{"content": "Priya Raman prefers PostgreSQL over MySQL for analytics work."}, &rem)
	if rem.MemoryID == "" || !strings.HasPrefix(rem.Namespace, "session:") || rem.MemoryType != "episodic" ||
		rem.Importance != 0.5 || rem.NextSteps.Action == "" {
		t.Fatalf("remember = %+v", rem)
	}

	t.Run("the session recalls what it remembered", func(t *testing.T) {
		var res mcpserver.RecallResult
		call(t, s1, "recall", map[string]any{"query": "which database does Priya like"}, &res)
		if res.Namespace != rem.Namespace || res.AllowCrossNamespace || res.Count == 0 || res.Results[0].MemoryID != rem.MemoryID {
			t.Fatalf("recall = %+v, want %s first in %s", res, rem.MemoryID, rem.Namespace)
		}
	})

	s2 := open()
	t.Run("another session sees it only across namespaces", func(t *testing.T) {
		q := "which database does Priya like"
		if ids := recallIDs(t, s2, map[string]any{"query": q}); contains(ids, rem.MemoryID) {
			t.Fatalf("a second session recalled %s by default: %v", rem.MemoryID, ids)
		}
		if ids := recallIDs(t, s2, map[string]any{"query": q, "allow_cross_namespace": true}); !contains(ids, rem.MemoryID) {
			t.Fatalf("allow_cross_namespace: %v lacks %s", ids, rem.MemoryID)
		}
		if ids := recallIDs(t, s2, map[string]any{"query": q, "namespace": rem.Namespace}); !contains(ids, rem.MemoryID) {
			t.Fatalf("explicit namespace: %v lacks %s", ids, rem.MemoryID)
		}
	})

	t.Run("relate then timeline, profile and reflect", func(t *testing.T) {
		var r1, r2 mcpserver.RelateResult
		call(t, s1, "relate", map[string]any{"subject": "Ada Lovelace", "predicate": "works_at",
			"object": "Analytical Engines", "valid_from": "2024-01-01T00:00:00Z"}, &r1)
		call(t, s1, "relate", map[string]any{"subject": "Ada Lovelace", "predicate": "works_at",
			"object": "Difference Engines Ltd", "valid_from": "2025-06-01T00:00:00Z"}, &r2)
		if !r1.Success || r1.EdgeID == "" || !r2.Exclusive || len(r2.Superseded) != 1 || r2.Superseded[0] != r1.EdgeID {
			t.Fatalf("relate = %+v then %+v", r1, r2)
		}
		var tl mcpserver.Timeline
		call(t, s2, "timeline", map[string]any{"entity_id": "ada lovelace"}, &tl)
		if tl.Name != "Ada Lovelace" || len(tl.Edges) != 2 {
			t.Fatalf("timeline = %+v", tl)
		}
		first, last := tl.Edges[0], tl.Edges[1]
		if first.Object != "Analytical Engines" || first.Status != "superseded" || first.ValidUntil == nil ||
			last.Object != "Difference Engines Ltd" || last.Status != "current" || last.ValidUntil != nil {
			t.Fatalf("timeline edges = %+v", tl.Edges)
		}
		var p mcpserver.Profile
		call(t, s1, "profile", map[string]any{"entity_id": tl.EntityID}, &p)
		if p.Name != "Ada Lovelace" || len(p.CurrentFacts) != 1 || p.CurrentFacts[0].Object != "Difference Engines Ltd" ||
			len(p.PastFacts) != 1 {
			t.Fatalf("profile = %+v", p)
		}
		var rf mcpserver.Reflection
		call(t, s1, "reflect", map[string]any{"entity_id": "Ada Lovelace"}, &rf)
		if rf.EntityID != tl.EntityID || !strings.Contains(rf.Reflection, "Difference Engines Ltd") {
			t.Fatalf("reflect = %+v", rf)
		}
		refused(t, s1, "timeline", map[string]any{"entity_id": "Nobody Atall"}, "not_found")
	})

	t.Run("merge_entities makes two entities one", func(t *testing.T) {
		var ada mcpserver.Timeline
		call(t, s1, "timeline", map[string]any{"entity_id": "Ada Lovelace"}, &ada)
		var r mcpserver.RelateResult
		call(t, s1, "relate", map[string]any{"subject": "Augusta King", "predicate": "works_at",
			"object": "Babbage Labs", "valid_from": "2025-09-01T00:00:00Z"}, &r)
		if r.SubjectID == ada.EntityID {
			t.Fatalf("Augusta King is Ada Lovelace already: %+v", r)
		}
		var m mcpserver.MergeResult
		call(t, s1, "merge_entities", map[string]any{"entity_id": "augusta king", "into": "Ada Lovelace"}, &m)
		if m.EntityID != ada.EntityID || m.Name != "Ada Lovelace" || len(m.Merged) != 1 || m.Merged[0] != r.SubjectID ||
			m.FactsSuperseded != 1 || !slices.Contains(m.Aliases, "Augusta King") {
			t.Fatalf("merge_entities = %+v", m)
		}
		var tl mcpserver.Timeline
		call(t, s2, "timeline", map[string]any{"entity_id": r.SubjectID}, &tl)
		if tl.EntityID != ada.EntityID || len(tl.Edges) != 3 || tl.Edges[1].Status != "superseded" ||
			tl.Edges[1].ValidUntil == nil || !tl.Edges[1].ValidUntil.Equal(r.ValidFrom) ||
			tl.Edges[2].Object != "Babbage Labs" || tl.Edges[2].Status != "current" {
			t.Fatalf("timeline of the merged id = %+v", tl)
		}
		refused(t, s1, "merge_entities", map[string]any{"entity_id": "Augusta King", "into": "ada lovelace"},
			"into", "distinct")
		refused(t, s1, "merge_entities", map[string]any{"entity_id": "Nobody Atall", "into": "Ada Lovelace"}, "not_found")
		refused(t, s1, "merge_entities", map[string]any{"entity_id": "Ada Lovelace", "into": ""}, "into", "required")
	})

	t.Run("context stays within max_tokens", func(t *testing.T) {
		for _, c := range []string{"Priya Raman leads the analytics team at Acme and reviews every database migration.",
			"The analytics team at Acme moved its warehouse from MySQL to PostgreSQL last spring.",
			"Priya Raman asked for weekly reports on query latency in the analytics warehouse."} {
			var r mcpserver.RememberResult
			call(t, s1, "remember", map[string]any{"content": c, "namespace": "global"}, &r)
		}
		var full, small mcpserver.ContextResult
		call(t, s1, "context", map[string]any{"query": "What does Priya do with databases?", "max_tokens": 2000}, &full)
		call(t, s1, "context", map[string]any{"query": "What does Priya do with databases?", "max_tokens": 40,
			"synthesis_style": "bullet"}, &small)
		if len(full.Sources) < 2 || full.TokenCount > 2000 || full.Style != "narrative" {
			t.Fatalf("context = %+v", full)
		}
		if small.TokenCount == 0 || small.TokenCount > 40 || len(small.Sources) == 0 || len(small.Sources) >= len(full.Sources) {
			t.Fatalf("context within 40 tokens = %+v (full had %d sources)", small, len(full.Sources))
		}
	})

	t.Run("forget then recall misses it", func(t *testing.T) {
		var f mcpserver.ForgetResult
		call(t, s1, "forget", map[string]any{"memory_id": rem.MemoryID}, &f)
		if !f.Success || f.MemoryID != rem.MemoryID {
			t.Fatalf("forget = %+v", f)
		}
		ids := recallIDs(t, s1, map[string]any{"query": "which database does Priya like", "allow_cross_namespace": true})
		if contains(ids, rem.MemoryID) {
			t.Fatalf("recall after forget still finds %s: %v", rem.MemoryID, ids)
		}
	})

	t.Run("bad input is a tool error naming the field and rule", func(t *testing.T) {
		refused(t, s1, "remember", map[string]any{"content": "Something worth keeping.", "importance": 1.5},
			"importance", "range:0-1")
		refused(t, s1, "remember", map[string]any{"content": "  "}, "content", "required")
		refused(t, s1, "remember", map[string]any{"content": "x", "namespace": "team:7"}, "namespace")
		refused(t, s1, "recall", map[string]any{"query": "anything", "limit": 0}, "limit", "range:1-100")
		refused(t, s1, "recall", map[string]any{"query": "anything", "as_of": "last tuesday"}, "as_of", "datetime")
		refused(t, s1, "context", map[string]any{"query": "anything", "synthesis_style": "poem"}, "synthesis_style", "enum")
		refused(t, s1, "relate", map[string]any{"subject": "Ada", "predicate": "knows", "object": "Ada"}, "object", "distinct")
		refused(t, s1, "forget", map[string]any{"memory_id": ""}, "memory_id", "required")
		refused(t, s1, "recall", map[string]any{}, "query")
	})
}

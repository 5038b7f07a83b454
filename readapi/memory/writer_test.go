package memory_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/llm/llmtest"
)

// With STRATA_LLM_URL, context and reflect are written by the model from
// what the extractive synthesis selected, within max_tokens; when the model
// fails, the extractive text stands.
func TestContextAndReflectCanBeWrittenByAModel(t *testing.T) {
	srv := llmtest.Start(t)
	writer, err := llm.New(llm.Config{URL: srv.URL + "/v1", Model: "test-writer"})
	if err != nil {
		t.Fatal(err)
	}
	w := startWithWriter(t, writer)
	u := w.register("Ada")
	w.remember(u, "Noor Haddad works at Initech Systems.", map[string]any{"occurred_at": "2025-01-10T09:00:00Z"})
	w.remember(u, "Noor Haddad prefers async standups over meetings.", map[string]any{"occurred_at": "2025-02-10T09:00:00Z"})

	res := w.must(u, http.StatusOK, "POST", base+"/context", map[string]any{"query": "What do I know about Noor Haddad?",
		"synthesis_style": "bullet", "max_tokens": 300})
	text := res["context"].(string)
	if res["synthesized_by"] != "llm:test-writer" || !strings.HasPrefix(text, llmtest.Prefix) ||
		!strings.Contains(text, "Initech Systems") {
		t.Fatalf("context = %v", res)
	}
	system, prompt, maxTokens := srv.Last()
	if maxTokens != 300 || !strings.Contains(system, "bulleted list") || !strings.Contains(prompt, "What do I know about Noor Haddad?") {
		t.Fatalf("the model was asked %q / %q with max_tokens %d", system, prompt, maxTokens)
	}
	if n := len(res["sources"].([]any)); n != 2 {
		t.Fatalf("%d sources, want the 2 memories the model was given", n)
	}

	srv.Pad.Store(true) // a model that ignores the budget is cut to it
	res = w.must(u, http.StatusOK, "POST", base+"/context", map[string]any{"query": "Noor Haddad", "max_tokens": 50})
	if res["token_count"].(float64) > 50 || res["synthesized_by"] != "llm:test-writer" {
		t.Fatalf("padded answer: token_count %v (max 50), by %v", res["token_count"], res["synthesized_by"])
	}
	srv.Pad.Store(false)

	ref := w.must(u, http.StatusOK, "POST", base+"/reflect", map[string]any{"entity_id": "Noor Haddad"})
	if ref["synthesized_by"] != "llm:test-writer" || !strings.HasPrefix(ref["reflection"].(string), llmtest.Prefix) {
		t.Fatalf("reflect = %v", ref)
	}

	srv.Fail.Store(true)
	res = w.must(u, http.StatusOK, "POST", base+"/context", map[string]any{"query": "Noor Haddad"})
	if res["synthesized_by"] != "extractive" || !strings.Contains(res["context"].(string), "Initech Systems") {
		t.Fatalf("context during a model outage = %v, want the extractive text", res)
	}
	ref = w.must(u, http.StatusOK, "POST", base+"/reflect", map[string]any{"entity_id": "Noor Haddad"})
	if ref["synthesized_by"] != "extractive" || ref["reflection"].(string) == "" {
		t.Fatalf("reflect during a model outage = %v", ref)
	}
}

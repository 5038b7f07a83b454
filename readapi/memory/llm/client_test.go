package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/llm/llmtest"
)

func TestCompleteSpeaksChatCompletions(t *testing.T) {
	srv := llmtest.Start(t)
	c, err := llm.New(llm.Config{URL: srv.URL + "/v1/", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Complete(context.Background(), "be brief", "1. first line\n2. second line", 64)
	if err != nil || got != llmtest.Prefix+" 1. first line | 2. second line" {
		t.Fatalf("Complete = %q, %v", got, err)
	}
	if system, _, maxTokens := srv.Last(); system != "be brief" || maxTokens != 64 {
		t.Fatalf("sent system %q, max_tokens %d", system, maxTokens)
	}
	srv.Fail.Store(true)
	if _, err := c.Complete(context.Background(), "s", "u", 8); err == nil || !strings.Contains(err.Error(), "overloaded") {
		t.Fatalf("outage: err = %v, want the endpoint's message", err)
	}
	if _, err := llm.New(llm.Config{URL: "localhost:8000"}); err == nil {
		t.Fatal("a URL without a scheme was accepted")
	}
}

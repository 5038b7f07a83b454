package embeddings_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/embeddings"
	"github.com/strata-platform/strata/readapi/memory/embeddings/embedtest"
)

func TestEmbedManyBatchesOrdersAndCaches(t *testing.T) {
	srv := embedtest.Start(t, "sk-test")
	c, err := embeddings.New(embeddings.Config{URL: srv.URL + "/v1/", APIKey: "sk-test", Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"a corgi", "team lunch", "a vacation", "the dog", "plain words"}
	vs, err := c.EmbedMany(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if !slices.Equal(vs[i], embedtest.Vector(text)) {
			t.Fatalf("vector %d (%q) = %v, want %v: answers out of order?", i, text, vs[i], embedtest.Vector(text))
		}
	}
	if srv.Requests.Load() != 3 || srv.Inputs.Load() != 5 {
		t.Fatalf("%d requests carrying %d inputs, want 3 carrying 5 (batches of 2)", srv.Requests.Load(), srv.Inputs.Load())
	}
	// Cached texts are not asked again; a new one is.
	if _, err := c.EmbedMany(context.Background(), []string{"the dog", "a cat"}); err != nil {
		t.Fatal(err)
	}
	if srv.Requests.Load() != 4 || srv.Inputs.Load() != 6 {
		t.Fatalf("after a second call: %d requests, %d inputs; want 4 and 6", srv.Requests.Load(), srv.Inputs.Load())
	}
}

func TestEndpointFailuresAreErrorsAndEmbedGoesOn(t *testing.T) {
	srv := embedtest.Start(t, "sk-right")
	wrong, err := embeddings.New(embeddings.Config{URL: srv.URL + "/v1", APIKey: "sk-wrong"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wrong.EmbedMany(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "Incorrect API key") {
		t.Fatalf("wrong key: err = %v, want the endpoint's message", err)
	}
	c, _ := embeddings.New(embeddings.Config{URL: srv.URL + "/v1", APIKey: "sk-right"})
	srv.Fail.Store(true)
	if v := c.Embed("a corgi"); v != nil {
		t.Fatalf("Embed during an outage = %v, want nil (recall goes on without)", v)
	}
	srv.Fail.Store(false)
	if v := c.Embed("a corgi"); !slices.Equal(v, embedtest.Vector("a corgi")) {
		t.Fatalf("Embed after the outage = %v", v)
	}
	if _, err := embeddings.New(embeddings.Config{URL: "ftp://example"}); err == nil {
		t.Fatal("an ftp URL was accepted")
	}
}

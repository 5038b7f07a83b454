package memory_test

import (
	"testing"

	"github.com/strata-platform/strata/readapi/memory/embeddings"
	"github.com/strata-platform/strata/readapi/memory/embeddings/embedtest"
)

// With an embeddings endpoint (STRATA_EMBEDDINGS_URL), recall finds what
// shares no word with the question: "animals" finds the corgi. Without it
// the offline similarity cannot, and an outage of the endpoint leaves
// recall working.
func TestRecallUsesAnEmbeddingsEndpoint(t *testing.T) {
	memories := []struct {
		content string
		imp     float64
	}{
		{"Kai Moreno adopted a corgi named Truffle last month.", 0.3},
		{"Kai Moreno tweaked a knee playing tennis on Monday.", 0.9},
		{"Kai Moreno is leading the Falcon project this quarter.", 0.9},
		{"Kai Moreno asked about the Q3 planning offsite agenda.", 0.9},
	}
	run := func(w *world) (string, []string) {
		u := w.register("Ada")
		var corgi string
		for i, m := range memories {
			id := w.remember(u, m.content, map[string]any{"importance": m.imp})["memory_id"].(string)
			if i == 0 {
				corgi = id
			}
		}
		return corgi, w.recall(u, "Tell me about Kai Moreno's animals.", nil)
	}

	corgi, plain := run(start(t))
	if len(plain) > 0 && plain[0] == corgi {
		t.Fatalf("the offline similarity already ranks the corgi first (%v): the test proves nothing", plain)
	}

	srv := embedtest.Start(t, "sk-test")
	emb, err := embeddings.New(embeddings.Config{URL: srv.URL + "/v1", APIKey: "sk-test", Model: "test-embed"})
	if err != nil {
		t.Fatal(err)
	}
	w := startWith(t, emb)
	corgi, dense := run(w)
	if len(dense) == 0 || dense[0] != corgi {
		t.Fatalf("with embeddings recall = %v, want the corgi %s first", dense, corgi)
	}
	if srv.Inputs.Load() < int64(len(memories)) {
		t.Fatalf("the endpoint embedded %d texts, want at least the %d memories", srv.Inputs.Load(), len(memories))
	}

	srv.Fail.Store(true)
	u := w.register("Bo")
	id := w.remember(u, "Bo Lind keeps a hamster named Pip.", nil)["memory_id"].(string)
	if got := w.recall(u, "Bo Lind hamster", nil); len(got) == 0 || got[0] != id {
		t.Fatalf("during an endpoint outage recall = %v, want %s by its words", got, id)
	}
}

package builder_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/kernel"
)

// A model's artifact is checked against its view's schema: an answer
// that does not match gets one repair request with the complaint; a
// second mismatch is 502 schema_mismatch, never patched up.
func TestModelWriterRepairsOnce(t *testing.T) {
	basis, err := artifacts.IdeaBasis("book yoga classes at my studio")
	if err != nil {
		t.Fatal(err)
	}
	valid, _ := json.Marshal(artifacts.DeriveDataModel(basis))
	var calls atomic.Int32
	var second string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		content := "Sure! Here is the data model."
		if calls.Add(1) == 2 {
			b, _ := json.Marshal(req.Messages[len(req.Messages)-1].Content)
			second = string(b)
			content = "```json\n" + string(valid) + "\n```"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "served-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}})
	}))
	defer srv.Close()
	w, err := cmdbuilder.NewModelWriter(cmdbuilder.NewModelGenerator(cmdbuilder.ModelConfig{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"}))
	if err != nil {
		t.Fatal(err)
	}
	in := cmdbuilder.ArtifactInput{Request: artifacts.Request{View: artifacts.ViewDataModel, Idea: "book yoga classes at my studio", Track: "app"}, Basis: basis}
	d, err := w.Write(context.Background(), in)
	if err != nil || calls.Load() != 2 || string(d.Content) != string(valid) || !strings.Contains(string(d.DerivedFrom), `"repaired":true`) ||
		!strings.Contains(second, "does not match the schema") {
		t.Fatalf("%v calls %d %s %s", err, calls.Load(), d.DerivedFrom, second)
	}
	// The development upstream never answers JSON: two requests, then 502.
	dev, base := devupstream.Start(t)
	w, _ = cmdbuilder.NewModelWriter(cmdbuilder.NewModelGenerator(cmdbuilder.ModelConfig{BaseURL: base + "/v1", APIKey: "k", Model: "m"}))
	_, err = w.Write(context.Background(), in)
	var ke *kernel.Error
	if ke, _ = err.(*kernel.Error); ke == nil || ke.Kind != kernel.KindBadGateway || ke.Rule != "schema_mismatch" || len(dev.Requests()) != 2 {
		t.Fatalf("%v after %d requests", err, len(dev.Requests()))
	}
	// Ask with the model: the answer is the model's, the sources the facts'.
	a := cmdbuilder.NewModelAnswerer(cmdbuilder.NewModelGenerator(cmdbuilder.ModelConfig{BaseURL: base + "/v1", APIKey: "k", Model: "m"}))
	reply, err := a.Answer(context.Background(), cmdbuilder.AskRequest{Question: artifacts.Question{Question: "how many versions?", Idea: "x"}}, artifacts.Facts{})
	if err != nil || !strings.HasPrefix(reply.Text, "You said: ") || !strings.Contains(reply.Text, "how many versions?") {
		t.Fatalf("%+v %v", reply, err)
	}
}

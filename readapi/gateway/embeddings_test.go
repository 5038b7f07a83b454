package gateway_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
	"github.com/strata-platform/strata/readapi/memory/embeddings"
)

// POST /v1/embeddings through the official Go SDK: floats and base64 (the
// SDK decodes it), the vectors the upstream computed, the usage recorded
// once before the answer, and the format's errors.
func TestEmbeddings(t *testing.T) {
	rec := &recorder{records: map[string][]readgateway.ChatUsage{}}
	c := startChatWith(t, cmdgateway.FormatOpenAI, true, rec)
	client := c.openai("/v1/")
	ctx := context.Background()
	inputs := []string{"Hello, world!", "the checkout bug was fixed"}
	for i, enc := range []sdk.EmbeddingNewParamsEncodingFormat{sdk.EmbeddingNewParamsEncodingFormatFloat, sdk.EmbeddingNewParamsEncodingFormatBase64} {
		var raw *http.Response
		res, err := client.Embeddings.New(ctx, sdk.EmbeddingNewParams{Model: "strata-dev-embed", EncodingFormat: enc,
			Input: sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: inputs}}, ooption.WithResponseInto(&raw))
		if err != nil {
			t.Fatal(err)
		}
		if res.Object != "list" || res.Model != "strata-dev-embed" || len(res.Data) != 2 || res.Usage.PromptTokens != 4+5 ||
			res.Usage.TotalTokens != 9 || !strings.HasPrefix(raw.Header.Get("x-request-id"), "req_") {
			t.Fatalf("%s: %+v", enc, res)
		}
		for j, d := range res.Data {
			want := devupstream.Embed(inputs[j], devupstream.EmbeddingDimensions)
			if d.Index != int64(j) || d.Object != "embedding" || len(d.Embedding) != len(want) {
				t.Fatalf("%s: data[%d] %d dims", enc, j, len(d.Embedding))
			}
			for k := range want {
				if math.Abs(d.Embedding[k]-float64(want[k])) > 1e-6 {
					t.Fatalf("%s: data[%d][%d] = %v, want %v", enc, j, k, d.Embedding[k], want[k])
				}
			}
		}
		got := rec.wait(t, i+1)
		var u readgateway.ChatUsage
		for _, r := range got {
			if r.RequestID == raw.Header.Get("x-request-id") {
				u = r
			}
		}
		if u.Model != "strata-dev-embed" || u.Usage.InputTokens != 9 || u.Usage.OutputTokens != 0 || u.Status != 200 || u.Upstream != "dev" {
			t.Fatalf("recorded %+v", u)
		}
	}
	// One string, and dimensions passed through.
	res, err := client.Embeddings.New(ctx, sdk.EmbeddingNewParams{Model: "strata-dev-embed", Dimensions: sdk.Int(16),
		Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("pets")}})
	if err != nil || len(res.Data) != 1 || len(res.Data[0].Embedding) != 16 {
		t.Fatalf("%+v %v", res, err)
	}
	// Refusals in the format's shape: a chat model, an unknown one, bad input.
	for _, tc := range []struct {
		params sdk.EmbeddingNewParams
		status int
		code   string
		param  string
	}{
		{sdk.EmbeddingNewParams{Model: "strata-dev-frontier", Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("x")}}, 400, catalog.CodeKindUnsupported, "model"},
		{sdk.EmbeddingNewParams{Model: "nope", Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("x")}}, 404, catalog.CodeModelNotFound, "model"},
		{sdk.EmbeddingNewParams{Model: "strata-dev-embed", Input: sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"a", ""}}}, 400, "nonempty", "input[1]"},
		{sdk.EmbeddingNewParams{Model: "strata-dev-embed", Input: sdk.EmbeddingNewParamsInputUnion{OfArrayOfTokens: []int64{1, 2}}}, 400, "text", "input[0]"},
	} {
		_, err := client.Embeddings.New(ctx, tc.params)
		var apiErr *sdk.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || apiErr.Code != tc.code || apiErr.Param != tc.param {
			t.Errorf("%+v: %v", tc.params.Model, err)
		}
	}
	// The upstream's 503 after its retries, in the format's shape with Retry-After.
	_, err = client.Embeddings.New(ctx, sdk.EmbeddingNewParams{Model: "strata-dev-embed",
		Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("[[fail:503 retry-after=0]]")}})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Type != "service_unavailable_error" {
		t.Fatalf("%v", err)
	}
}

// A messages-format upstream has no embeddings endpoint: 503 naming it,
// and the upstream is never called.
func TestEmbeddingsMessagesUpstream(t *testing.T) {
	c := startChat(t, cmdgateway.FormatMessages, true)
	client := c.openai("/v1/")
	_, err := client.Embeddings.New(context.Background(), sdk.EmbeddingNewParams{Model: "strata-dev-embed",
		Input: sdk.EmbeddingNewParamsInputUnion{OfString: sdk.String("x")}})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || !strings.Contains(apiErr.Message, "messages format") {
		t.Fatalf("%v", err)
	}
	if len(c.dev.Embedded()) != 0 {
		t.Fatal("the upstream was called")
	}
}

// Memory recall's embeddings client (STRATA_EMBEDDINGS_URL) can use the
// gateway itself as its endpoint: Strata's own sk_ key and catalog model.
func TestEmbeddingsForMemoryRecall(t *testing.T) {
	c := startChat(t, cmdgateway.FormatOpenAI, true)
	client, err := embeddings.New(embeddings.Config{URL: c.api.URL + "/v1", Model: "strata-dev-embed", APIKey: c.u.Key})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := client.EmbedMany(context.Background(), []string{"adopted a corgi", "pets"})
	if err != nil || len(vs) != 2 || len(vs[0]) != devupstream.EmbeddingDimensions {
		t.Fatalf("%v %v", len(vs), err)
	}
	if got := c.dev.Embedded(); len(got) != 1 || got[0].Model != "strata-dev-embed" || len(got[0].Input) != 2 {
		t.Fatalf("%+v", got)
	}
}

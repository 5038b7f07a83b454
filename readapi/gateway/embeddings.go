package gateway

import (
	"net/http"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
)

// Embeddings serves POST /v1/embeddings (the OpenAI format) for the
// catalog's embeddings models: the same callers, scope, credits and
// upstreams as chat, answered in the OpenAI format. The model is required
// (no tier default: vectors of different models cannot be compared, so a
// caller names the one its index holds). Usage is the input's tokens as
// the upstream counted them, priced at the model's input price and
// recorded before the answer is written.
func (a *ChatAPI) Embeddings() http.Handler {
	f := openaiFormat
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := newRequestID()
		w.Header().Set("x-request-id", id)
		w.Header().Set("request-id", id)
		p, body, ok := a.open(w, r, f)
		if !ok {
			return
		}
		req, err := openai.DecodeEmbeddingsRequest(body)
		if err != nil {
			a.fail(w, f, err)
			return
		}
		res, err := a.cfg.Catalog.Resolve(p, req.Model, catalog.Features{Kind: catalog.KindEmbeddings})
		if err != nil {
			a.fail(w, f, err)
			return
		}
		record := func(ChatUsage) {}
		if a.cfg.Credits != nil {
			if record, err = a.cfg.Credits.Admit(r.Context(), p, res.Model, id); err != nil {
				a.fail(w, f, err)
				return
			}
		}
		u := ChatUsage{RequestID: id, Model: res.Model.ID}
		defer func() {
			u.Latency = time.Since(start)
			record(u)
		}()
		target := cmdgateway.Target{Model: res.Model.ID, UpstreamID: res.Model.Upstream.ID, UpstreamModel: res.Model.Upstream.Model}
		w.Header().Set(ProviderHeader, res.Model.Provider) // the catalog's provider of the model that serves the request
		out, served, err := a.cfg.Upstreams.Embed(r.Context(), target, req)
		u.Upstream = served.Upstream
		if err != nil {
			u.Status = a.fail(w, f, err)
			return
		}
		out.Model = res.Model.ID
		b, err := openai.EncodeEmbeddingsResponse(out, req.Encoding)
		if err != nil {
			u.Status = a.fail(w, f, err)
			return
		}
		u.Usage = chat.Usage{InputTokens: out.PromptTokens}
		u.Status = http.StatusOK
		u.Latency = time.Since(start)
		record(u) // durable before the client can read its answer
		record = func(ChatUsage) {}
		extendWrite(w)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b)
	})
}

package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
)

// Embed asks for the vectors of req.Input, with the retries and fallbacks
// of a chat reply. Only upstreams of the openai format serve embeddings
// (POST {base_url}/embeddings): the messages format has no such endpoint,
// so such an upstream is passed over (503 naming it when it is the only
// one). An answer whose vectors do not match the request (a vector
// missing, of another length than the dimensions asked for) is a 502,
// never passed on.
func (u *Upstreams) Embed(ctx context.Context, t Target, req openai.EmbeddingsRequest) (openai.EmbeddingsResponse, Served, error) {
	encode := func(c candidate) (string, []byte, error) {
		if c.up.Format != FormatOpenAI {
			return "/embeddings", nil, errSkip
		}
		r := req
		r.Model = c.model
		b, err := openai.EncodeEmbeddingsRequest(r)
		return "/embeddings", b, err
	}
	var out openai.EmbeddingsResponse
	served, err := u.try(ctx, t, encode, func(_ context.CancelFunc, c candidate, resp *http.Response) error {
		bad := func(what string) error {
			return &UpstreamError{Status: http.StatusBadGateway, Chat: chat.Error{Kind: kernel.KindUnavailable,
				Code: CodeUpstreamUnavailable, Message: "upstream " + c.up.ID + " " + what}}
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return bad("broke off its answer")
		}
		if out, err = openai.DecodeEmbeddingsResponse(body, len(req.Input)); err != nil {
			return bad("answered embeddings the gateway cannot use: " + err.Error())
		}
		if req.Dimensions > 0 && len(out.Vectors[0]) != req.Dimensions {
			return bad(fmt.Sprintf("answered %d dimensions for the %d asked", len(out.Vectors[0]), req.Dimensions))
		}
		return nil
	}, false)
	return out, served, err
}

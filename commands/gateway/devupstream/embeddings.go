package devupstream

import (
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
)

// EmbeddingsPath is the development upstream's embeddings endpoint (the
// OpenAI format's; the messages format has none).
const EmbeddingsPath = "/v1/embeddings"

// EmbeddingDimensions is the length of the development upstream's vectors
// when a request does not ask for another.
const EmbeddingDimensions = 256

// Embed is the development upstream's vector of text: feature hashing of
// its lower-cased tokens (the one token rule) and of their adjacent pairs
// into dims buckets, each with a hashed sign, scaled to unit length. It is
// no language model: texts sharing words are close, paraphrases with no
// word in common are not. It is deterministic, so tests can compute the
// vector a request must get.
func Embed(text string, dims int) []float32 {
	v := make([]float64, dims)
	add := func(feature string, weight float64) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(feature))
		x := h.Sum64()
		sign := 1.0
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(dims)] += sign * weight
	}
	lower := strings.ToLower(text)
	toks := make([]string, 0, 16)
	for _, ix := range chat.TokenIndex(lower) {
		toks = append(toks, lower[ix[0]:ix[1]])
	}
	for i, t := range toks {
		add(t, 1)
		if i > 0 {
			add(toks[i-1]+" "+t, 0.5)
		}
	}
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, dims)
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out
}

// embeddings serves POST /v1/embeddings: one Embed vector per input,
// prompt_tokens by the one token rule. A fail directive in an input
// ([[fail:503 times=1]]) fails the request as it fails a chat request;
// other directives are text here.
func (h *Handler) embeddings(w http.ResponseWriter, r *http.Request) {
	c := codecs[OpenAIPath]
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.fail(w, c, http.StatusMethodNotAllowed, chat.Error{Kind: kernel.KindMethodNotAllowed, Message: "use POST"})
		return
	}
	if h.Key != "" && r.Header.Get("Authorization") != "Bearer "+h.Key {
		h.fail(w, c, http.StatusUnauthorized, chat.Error{Kind: kernel.KindUnauthenticated, Message: "invalid API key"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 32<<20))
	if err != nil {
		h.fail(w, c, http.StatusBadRequest, chat.Error{Kind: kernel.KindInvalid, Message: "unreadable body: " + err.Error()})
		return
	}
	req, err := openai.DecodeEmbeddingsRequest(body)
	if err != nil {
		ce := chat.ErrorFrom(err)
		h.fail(w, c, statusOf(ce.Kind), ce)
		return
	}
	h.mu.Lock()
	h.embedded = append(h.embedded, req)
	h.mu.Unlock()
	if s, err := ParseScript(strings.Join(req.Input, "\n")); err == nil && s.Fail != 0 && h.failNow(s) {
		if s.RetryAfter != "" {
			w.Header().Set("Retry-After", s.RetryAfter)
		}
		h.fail(w, c, s.Fail, chat.Error{Kind: kindOf(s.Fail), Message: "development upstream: scripted " + failStatusText(s.Fail)})
		return
	}
	dims := req.Dimensions
	if dims == 0 {
		dims = EmbeddingDimensions
	}
	resp := openai.EmbeddingsResponse{Model: req.Model, Vectors: make([][]float32, len(req.Input))}
	for i, in := range req.Input {
		resp.Vectors[i] = Embed(in, dims)
		resp.PromptTokens += CountTokens(in)
	}
	out, err := openai.EncodeEmbeddingsResponse(resp, req.Encoding)
	if err != nil {
		h.fail(w, c, http.StatusInternalServerError, chat.Error{Kind: kernel.KindInternal, Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// Embedded returns the embeddings requests the upstream took, in order.
func (h *Handler) Embedded() []openai.EmbeddingsRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]openai.EmbeddingsRequest(nil), h.embedded...)
}

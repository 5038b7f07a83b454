// Package embeddings is a client of an OpenAI-compatible embeddings
// endpoint (POST {base}/embeddings with {model, input[]}, answered with
// {data[] {index, embedding[]}}), the optional dense part of the memory
// service's recall (STRATA_EMBEDDINGS_URL). Strata runs without it: the
// built-in offline similarity needs no model. Vectors are cached by text,
// so a memory is embedded once per process however often indexes reload.
package embeddings

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/strata-platform/strata/readapi/memory/openaiapi"
)

// Defaults of Config.
const (
	DefaultModel     = "text-embedding-3-small"
	DefaultBatch     = 128
	DefaultTimeout   = 30 * time.Second
	DefaultCacheSize = 200_000
	// maxInput bounds one input's characters (the memory service's own
	// limit on content is 16,000).
	maxInput = 16_000
)

// Config configures a Client.
type Config struct {
	// URL is the API base, e.g. "https://api.openai.com/v1" or
	// "http://127.0.0.1:11434/v1"; requests go to URL + "/embeddings".
	URL string
	// Model is sent as "model"; DefaultModel when empty.
	Model string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// Batch is how many texts one request carries; DefaultBatch when <= 0.
	Batch int
	// Timeout bounds one request; DefaultTimeout when <= 0.
	Timeout time.Duration
	// CacheSize bounds the cached vectors; DefaultCacheSize when <= 0.
	CacheSize int
	// HTTP is the client used; a new one when nil.
	HTTP *http.Client
	// Logger receives failures (recall then goes on without dense vectors).
	Logger *slog.Logger
}

// Client embeds texts through the endpoint. It is safe for concurrent use.
type Client struct {
	cfg   Config
	url   string
	cache *lru.Cache[[32]byte, []float32]
	log   *slog.Logger
}

// New returns a client for cfg; cfg.URL must be an http(s) URL.
func New(cfg Config) (*Client, error) {
	url, err := openaiapi.Endpoint("embeddings", cfg.URL, "embeddings")
	if err != nil {
		return nil, err
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cache, err := lru.New[[32]byte, []float32](cfg.CacheSize)
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, url: url, cache: cache, log: log}, nil
}

// Embed returns text's vector, or nil when the endpoint fails (the failure
// is logged; recall then scores without the dense part). It implements
// search.Embedder.
func (c *Client) Embed(text string) []float32 {
	vs, err := c.EmbedMany(context.Background(), []string{text})
	if err != nil {
		c.log.Warn("embeddings endpoint failed; recall goes on without dense vectors", "err", err)
		return nil
	}
	return vs[0]
}

// EmbedMany returns the vectors of texts in order, asking the endpoint only
// for texts not cached, Batch at a time.
func (c *Client) EmbedMany(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	keys := make([][32]byte, len(texts))
	var missing []int
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(c.cfg.Model + "\x00" + t))
		if v, ok := c.cache.Get(keys[i]); ok {
			out[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	for lo := 0; lo < len(missing); lo += c.cfg.Batch {
		part := missing[lo:min(len(missing), lo+c.cfg.Batch)]
		input := make([]string, len(part))
		for k, i := range part {
			input[k] = truncate(texts[i])
		}
		vs, err := c.request(ctx, input)
		if err != nil {
			return nil, err
		}
		for k, i := range part {
			out[i] = vs[k]
			c.cache.Add(keys[i], vs[k])
		}
	}
	return out, nil
}

// request is one call of the endpoint.
func (c *Client) request(ctx context.Context, input []string) ([][]float32, error) {
	var ans struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	body := map[string]any{"model": c.cfg.Model, "input": input, "encoding_format": "float"}
	if err := openaiapi.Post(ctx, c.cfg.HTTP, "embeddings", c.url, c.cfg.APIKey, c.cfg.Timeout, body, &ans); err != nil {
		return nil, err
	}
	out := make([][]float32, len(input))
	dim := -1
	for _, d := range ans.Data {
		if d.Index < 0 || d.Index >= len(out) || out[d.Index] != nil || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embeddings: answer has a bad or repeated index %d", d.Index)
		}
		if dim >= 0 && len(d.Embedding) != dim {
			return nil, errors.New("embeddings: answer mixes vector sizes")
		}
		dim = len(d.Embedding)
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if v == nil {
			return nil, fmt.Errorf("embeddings: answer lacks input %d", i)
		}
	}
	return out, nil
}

func truncate(s string) string {
	if r := []rune(s); len(r) > maxInput {
		return string(r[:maxInput])
	}
	return s
}

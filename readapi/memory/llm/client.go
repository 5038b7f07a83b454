// Package llm is a client of an OpenAI-compatible chat completions endpoint
// (POST {base}/chat/completions), the optional writer of the memory
// service's context and reflections (STRATA_LLM_URL). Strata runs without
// it: both are then extractive and deterministic. The model only rewrites
// what recall found; the caller keeps the token budget and falls back to
// the extractive text when the endpoint fails.
package llm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/readapi/memory/openaiapi"
)

// Defaults of Config.
const (
	DefaultModel   = "gpt-4o-mini"
	DefaultTimeout = 30 * time.Second
)

// Config configures a Client.
type Config struct {
	// URL is the API base, e.g. "https://api.openai.com/v1"; requests go to
	// URL + "/chat/completions".
	URL string
	// Model is sent as "model"; DefaultModel when empty.
	Model string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// Timeout bounds one request; DefaultTimeout when <= 0.
	Timeout time.Duration
	// HTTP is the client used; a new one when nil.
	HTTP *http.Client
}

// Client asks the endpoint for completions. It is safe for concurrent use.
type Client struct {
	cfg Config
	url string
}

// New returns a client for cfg; cfg.URL must be an http(s) URL.
func New(cfg Config) (*Client, error) {
	url, err := openaiapi.Endpoint("LLM", cfg.URL, "chat/completions")
	if err != nil {
		return nil, err
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	return &Client{cfg: cfg, url: url}, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.cfg.Model }

// Complete sends a system and a user message and returns the first
// choice's text, at temperature 0, asking for at most maxTokens tokens.
func (c *Client) Complete(ctx context.Context, system, user string, maxTokens int) (string, error) {
	body := map[string]any{
		"model":       c.cfg.Model,
		"messages":    []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}},
		"max_tokens":  maxTokens,
		"temperature": 0,
	}
	var ans struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := openaiapi.Post(ctx, c.cfg.HTTP, "llm", c.url, c.cfg.APIKey, c.cfg.Timeout, body, &ans); err != nil {
		return "", err
	}
	if len(ans.Choices) == 0 || strings.TrimSpace(ans.Choices[0].Message.Content) == "" {
		return "", fmt.Errorf("llm: the answer has no text")
	}
	return strings.TrimSpace(ans.Choices[0].Message.Content), nil
}

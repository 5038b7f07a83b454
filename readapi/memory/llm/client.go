// Package llm is a client of an OpenAI-compatible chat completions endpoint
// (POST {base}/chat/completions), the optional writer of the memory
// service's context and reflections (STRATA_LLM_URL). Strata runs without
// it: both are then extractive and deterministic. The model only rewrites
// what recall found; the caller keeps the token budget and falls back to
// the extractive text when the endpoint fails.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
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
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		return nil, fmt.Errorf("LLM URL %q: want an http or https URL", cfg.URL)
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
	return &Client{cfg: cfg, url: strings.TrimRight(cfg.URL, "/") + "/chat/completions"}, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.cfg.Model }

// Complete sends a system and a user message and returns the first
// choice's text, at temperature 0, asking for at most maxTokens tokens.
func (c *Client) Complete(ctx context.Context, system, user string, maxTokens int) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model":       c.cfg.Model,
		"messages":    []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}},
		"max_tokens":  maxTokens,
		"temperature": 0,
	})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return "", fmt.Errorf("llm: read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		msg := strings.TrimSpace(string(raw))
		if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
			msg = e.Error.Message
		}
		return "", fmt.Errorf("llm: %s: %.200s", resp.Status, msg)
	}
	var ans struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return "", fmt.Errorf("llm: decode answer: %w", err)
	}
	if len(ans.Choices) == 0 || strings.TrimSpace(ans.Choices[0].Message.Content) == "" {
		return "", fmt.Errorf("llm: the answer has no text")
	}
	return strings.TrimSpace(ans.Choices[0].Message.Content), nil
}

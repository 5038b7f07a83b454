// Package openaiapi is the HTTP plumbing the memory service's optional
// OpenAI-compatible clients share (embeddings, chat completions): URL
// checks, a JSON POST with an optional bearer key, and the API's error body.
package openaiapi

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

// Endpoint returns base + "/" + path after checking base is an http(s) URL;
// what names the setting in the error.
func Endpoint(what, base, path string) (string, error) {
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return "", fmt.Errorf("%s URL %q: want an http or https URL", what, base)
	}
	return strings.TrimRight(base, "/") + "/" + path, nil
}

// Post sends body as JSON to url (with key as a bearer token when set),
// within timeout, and decodes a 200 answer into out. Another status is an
// error carrying the API's message ({"error": {"message"}}) or the body's
// start; what prefixes every error.
func Post(ctx context.Context, hc *http.Client, what, url, key string, timeout time.Duration, body, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	ans, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return fmt.Errorf("%s: read answer: %w", what, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", what, resp.Status, errorMessage(ans))
	}
	if err := json.Unmarshal(ans, out); err != nil {
		return fmt.Errorf("%s: decode answer: %w", what, err)
	}
	return nil
}

// errorMessage is the message of an OpenAI-style error body, or its start.
func errorMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

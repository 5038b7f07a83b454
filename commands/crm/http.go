package crm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// HTTP is the adapter that posts contacts as JSON to a URL.
type HTTP struct {
	url    string
	token  string
	client *http.Client
}

// NewHTTP returns the HTTP adapter for cfg.URL (an absolute http(s) URL).
// Redirects are not followed: a CRM endpoint answers where it is
// configured, and the bearer token goes nowhere else.
func NewHTTP(cfg Config) (*HTTP, error) {
	if err := checkURL(strings.TrimSpace(cfg.URL)); err != nil {
		return nil, fmt.Errorf("crm: %w", err)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := cfg.Client
	if c == nil {
		c = &http.Client{Timeout: timeout}
	}
	cc := *c
	if cc.Timeout <= 0 || cc.Timeout > timeout {
		cc.Timeout = timeout
	}
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &HTTP{url: strings.TrimSpace(cfg.URL), token: cfg.Token, client: &cc}, nil
}

// Name implements Adapter.
func (*HTTP) Name() string { return "http" }

// Sync implements Adapter: one POST of c as JSON, with an Idempotency-Key
// naming the contact's source and account (a retried call repeats it, so a
// CRM that honours the header keeps one record). A 2xx answer is success;
// any other answer is a *StatusError (see Permanent), a failure to reach
// the CRM the transport's error.
func (h *HTTP) Sync(ctx context.Context, c Contact) error {
	body, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("crm: encode contact: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("crm: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "strata-crm/1")
	if c.AccountID != "" {
		req.Header.Set("Idempotency-Key", c.Source+":"+c.AccountID)
	}
	if h.token != "" {
		req.Header.Set("Authorization", "Bearer "+h.token)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return fmt.Errorf("crm: post contact: %w", err)
	}
	defer resp.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // keep the connection reusable
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return &StatusError{Status: resp.StatusCode, Body: printable(head)}
}

// printable keeps the valid UTF-8 of b on one line, for an error message.
func printable(b []byte) string {
	s := strings.ToValidUTF8(string(b), "")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

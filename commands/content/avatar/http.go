package avatar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
)

// maxBody bounds a response body read from a provider and a webhook body.
const maxBody = 1 << 20

// api is what both adapters share: the base URL, the client, the
// credentials and the error classification.
type api struct {
	name string
	cfg  Config
	base string
	hc   *http.Client
	auth func(http.Header)
}

func newAPI(name string, cfg Config, auth func(key string, h http.Header)) api {
	a := api{name: name, cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), hc: cfg.HTTPClient}
	if a.hc == nil {
		a.hc = http.DefaultClient
	}
	a.auth = func(h http.Header) { auth(cfg.APIKey, h) }
	return a
}

func (a api) configured() bool { return a.base != "" && a.cfg.APIKey != "" }

func (a api) now() time.Time {
	if a.cfg.Clock != nil {
		return a.cfg.Clock()
	}
	return time.Now()
}

// call sends in (JSON; nil: no body) to base+path and returns a 2xx
// answer's body; other answers are *Refused, *Transient or an error.
func (a api) call(ctx context.Context, method, path string, in any) ([]byte, error) {
	if !a.configured() {
		return nil, ErrNotConfigured
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, body)
	if err != nil {
		return nil, fmt.Errorf("avatar: %s: %w", a.name, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	a.auth(req.Header)
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, a.sendErr(ctx, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, a.sendErr(ctx, err)
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("avatar: %s: %s %s: response body over %d bytes", a.name, method, path, maxBody)
	}
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return b, nil
	case c == http.StatusRequestTimeout || c == http.StatusTooManyRequests || c >= 500:
		return nil, &Transient{Provider: a.name, Status: c, Message: message(b, c),
			RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	case c >= 400:
		return nil, &Refused{Provider: a.name, Status: c, Message: message(b, c)}
	default:
		return nil, fmt.Errorf("avatar: %s: %s %s: unexpected status %d", a.name, method, path, c)
	}
}

// sendErr classifies a transport error: the caller's cancellation and the
// outbound client's refusals and limits are permanent, the rest
// (connection errors, timeouts) transient.
func (a api) sendErr(ctx context.Context, err error) error {
	var ref *outbound.Refused
	if ctx.Err() != nil || errors.As(err, &ref) || errors.Is(err, outbound.ErrTooLarge) ||
		errors.Is(err, outbound.ErrTooManyRedirects) {
		return fmt.Errorf("avatar: %s: %w", a.name, err)
	}
	return &Transient{Provider: a.name, Err: err}
}

// decode reads a 2xx body into out.
func (a api) decode(b []byte, out any) error {
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("avatar: %s: unreadable response: %w", a.name, err)
	}
	return nil
}

// missing is the error for a response without a required field.
func (a api) missing(field string) error {
	return fmt.Errorf("avatar: %s: response has no %s", a.name, field)
}

// message finds the provider's message in an error body: HeyGen's
// {error:{code,message}} or {message}, D-ID's {kind, description}; the
// status text when there is none.
func message(b []byte, status int) string {
	var e struct {
		Error       json.RawMessage `json:"error"`
		Message     string          `json:"message"`
		Kind        string          `json:"kind"`
		Description string          `json:"description"`
	}
	if json.Unmarshal(b, &e) == nil {
		var inner struct {
			Message string `json:"message"`
			Detail  string `json:"detail"`
		}
		var s string
		switch {
		case json.Unmarshal(e.Error, &inner) == nil && inner.Message != "":
			return join(inner.Message, inner.Detail)
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			return s
		case e.Description != "":
			return join(e.Kind, e.Description)
		case e.Message != "":
			return e.Message
		case e.Kind != "":
			return e.Kind
		}
	}
	if t := strings.TrimSpace(string(b)); t != "" && len(t) <= 200 && !strings.ContainsAny(t, "{<") {
		return t
	}
	return http.StatusText(status)
}

// join is "a: b", or the one that is set, or a alone when b repeats it.
func join(a, b string) string {
	switch {
	case a == "" || a == b:
		return b
	case b == "":
		return a
	}
	return a + ": " + b
}

// retryAfter reads a Retry-After given in seconds (0 otherwise).
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// seconds converts a provider's duration in seconds.
func seconds(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
}

// webhookBody checks a webhook's size before it is verified.
func webhookBody(name string, body []byte) error {
	if len(body) > maxBody {
		return fmt.Errorf("%w: %s webhook body over %d bytes", ErrInvalid, name, maxBody)
	}
	return nil
}

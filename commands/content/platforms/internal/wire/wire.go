// Package wire holds what the four platform adapters share: building
// requests, sending them through connections.Call with the platform's
// error body parsed into a Problem, reading JSON answers, and turning a
// token endpoint's answer into connections.Tokens.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// maxAnswer bounds a JSON answer read from a platform.
const maxAnswer = 4 << 20

// Problem is a platform's error body as an adapter parsed it.
type Problem struct {
	// Code is the platform's error code ("access_token_invalid",
	// "DUPLICATE_POST", "190", "quotaExceeded").
	Code string
	// Message is the platform's human text (never a token).
	Message string
	// Transient is set where the platform says so itself (the Graph API's
	// is_transient).
	Transient bool
}

// Reason is the text a CallError carries: the code and the message, short.
func (p Problem) Reason() string {
	s := p.Code
	if p.Message != "" {
		if s != "" {
			s += ": "
		}
		s += p.Message
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// Parser reads a platform's error body.
type Parser func(status int, body []byte) Problem

// Refiner may change ce's class (or reason) from the platform's own code.
type Refiner func(ce *connections.CallError, p Problem)

// Send sends req with connections.Call; for a failed answer the body is
// parsed with parse and the error's class refined with refine.
func Send(ctx context.Context, d connections.Doer, req *http.Request, idempotent bool, parse Parser, refine Refiner) (*http.Response, error) {
	var p Problem
	resp, err := connections.Call(ctx, d, req, idempotent, func(status int, body []byte) string {
		if parse != nil {
			p = parse(status, body)
		}
		return p.Reason()
	})
	if err != nil {
		var ce *connections.CallError
		if errors.As(err, &ce) && ce.Status != 0 && refine != nil {
			refine(ce, p)
		}
		return nil, err
	}
	return resp, nil
}

// NewRequest builds a request; a body that is url.Values is sent as a form,
// []byte or io.Reader as is, anything else as JSON.
func NewRequest(ctx context.Context, method, target string, body any) (*http.Request, error) {
	var r io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		r, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case []byte:
		r = bytes.NewReader(b)
	case io.Reader:
		r = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return nil, connections.Fail(connections.Refused, 0, "request not encodable: "+err.Error())
		}
		r, ctype = bytes.NewReader(raw), "application/json; charset=UTF-8"
	}
	req, err := http.NewRequestWithContext(ctx, method, target, r)
	if err != nil {
		return nil, connections.Fail(connections.Refused, 0, "bad endpoint URL in the settings")
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// Bearer sets the Authorization header.
func Bearer(req *http.Request, token string) *http.Request {
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// ReadJSON reads resp's body into v (when v is not nil) and closes it. An
// answer that cannot be read is Unconfirmed for a request that was not
// idempotent (the platform may have acted), else Transient.
func ReadJSON(resp *http.Response, v any, idempotent bool) error {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	class := connections.Unconfirmed
	if idempotent {
		class = connections.Transient
	}
	if err != nil {
		return connections.Fail(class, resp.StatusCode, "answer not read: "+err.Error())
	}
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return connections.Fail(class, resp.StatusCode, "answer is not the expected JSON")
	}
	return nil
}

// Drain discards and closes resp's body.
func Drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	_ = resp.Body.Close()
}

// Seconds is a lifetime a token endpoint gives as a number or a string.
type Seconds int64

// UnmarshalJSON accepts 3600 and "3600".
func (s *Seconds) UnmarshalJSON(b []byte) error {
	str := strings.Trim(string(b), `"`)
	if str == "" || str == "null" {
		*s = 0
		return nil
	}
	n, err := strconv.ParseInt(str, 10, 64)
	if err != nil {
		return err
	}
	*s = Seconds(n)
	return nil
}

// TokenAnswer is a standard token endpoint answer (RFC 6749 5.1 with the
// platforms' additions).
type TokenAnswer struct {
	AccessToken           string  `json:"access_token"`
	RefreshToken          string  `json:"refresh_token"`
	TokenType             string  `json:"token_type"`
	Scope                 string  `json:"scope"`
	ExpiresIn             Seconds `json:"expires_in"`
	RefreshExpiresIn      Seconds `json:"refresh_expires_in"`
	RefreshTokenExpiresIn Seconds `json:"refresh_token_expires_in"`
}

// Tokens turns the answer into connections.Tokens, lifetimes counted from now.
func (a TokenAnswer) Tokens(now time.Time) connections.Tokens {
	t := connections.Tokens{AccessToken: a.AccessToken, RefreshToken: a.RefreshToken, TokenType: a.TokenType, Scope: a.Scope}
	if a.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	if r := max(a.RefreshExpiresIn, a.RefreshTokenExpiresIn); r > 0 {
		t.RefreshExpiry = now.Add(time.Duration(r) * time.Second)
	}
	return t
}

// OAuthProblem parses an RFC 6749 error body {error, error_description}.
func OAuthProblem(_ int, body []byte) Problem {
	var e struct {
		Error       any    `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil {
		return Problem{}
	}
	code, _ := e.Error.(string)
	return Problem{Code: code, Message: e.Description}
}

// RefineOAuth makes a token endpoint's invalid_grant (an expired, revoked
// or already used code or refresh token) Unauthorized.
func RefineOAuth(ce *connections.CallError, p Problem) {
	if p.Code == "invalid_grant" || p.Code == "invalid_token" {
		ce.Class = connections.Unauthorized
	}
}

// Days lists the UTC midnights from from through to, inclusive.
func Days(from, to time.Time) []time.Time {
	f := Midnight(from)
	t := Midnight(to)
	var out []time.Time
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

// Midnight is t's UTC date at midnight.
func Midnight(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Int returns a pointer to n.
func Int(n int64) *int64 { return &n }

// Wait sleeps d or until ctx is done (then it returns ctx's error).
func Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// NoRefresh is Refresh's answer when there is no refresh token.
func NoRefresh(label string) error {
	return connections.Fail(connections.Unauthorized, 0, label+" gave no refresh token: reconnect the account")
}

// Open reads a media item's bytes whole (for platforms whose upload needs
// the size when Media.Size is unknown, or that take it in one request).
func Open(ctx context.Context, open func(context.Context) (io.ReadCloser, error), limit int64) ([]byte, error) {
	if open == nil {
		return nil, connections.Fail(connections.Refused, 0, "the media cannot be read (no Open)")
	}
	rc, err := open(ctx)
	if err != nil {
		return nil, connections.Fail(connections.Transient, 0, "media not read: "+err.Error())
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, connections.Fail(connections.Transient, 0, "media not read: "+err.Error())
	}
	if int64(len(b)) > limit {
		return nil, connections.Fail(connections.Refused, 0, "the media is larger than "+strconv.FormatInt(limit, 10)+" bytes")
	}
	return b, nil
}

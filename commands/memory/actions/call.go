package actions

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

// maxAnswer bounds how much of a provider's successful answer is read.
const maxAnswer = 4 << 20

// base holds what every adapter shares: its name, label, settings and the
// client its calls go through.
type base struct {
	name, label string
	s           connections.Settings
	d           connections.Doer
}

// Name implements connections.Provider.
func (b *base) Name() string { return b.name }

// Label implements connections.Provider.
func (b *base) Label() string { return b.label }

// Settings implements connections.Provider.
func (b *base) Settings() connections.Settings { return b.s }

// withDefaults fills the empty URLs of s with the real provider's.
func withDefaults(s connections.Settings, def connections.Settings) connections.Settings {
	if s.AuthURL == "" {
		s.AuthURL = def.AuthURL
	}
	if s.TokenURL == "" {
		s.TokenURL = def.TokenURL
	}
	if s.RevokeURL == "" {
		s.RevokeURL = def.RevokeURL
	}
	if s.APIBase == "" {
		s.APIBase = def.APIBase
	}
	s.APIBase = strings.TrimRight(s.APIBase, "/")
	if len(s.Scopes) == 0 {
		s.Scopes = def.Scopes
	}
	if s.Env == "" {
		s.Env = def.Env
	}
	return s
}

// authURL is the authorization endpoint u with the query q added.
func authURL(u string, q url.Values) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + q.Encode()
}

// newJSON builds a request with a JSON body (nil: none) and the bearer token.
func newJSON(ctx context.Context, method, u, token string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, nil
}

// newForm builds a form POST.
func newForm(ctx context.Context, u string, form url.Values) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// send makes one call through connections.Call and decodes a successful
// JSON answer into out (nil: the body is discarded). An answer that cannot
// be read is Unconfirmed for a call that may have acted (the provider said
// yes but we cannot tell what it did), Transient for an idempotent one.
func send(ctx context.Context, d connections.Doer, req *http.Request, idempotent bool,
	reason func(status int, body []byte) string, out any) (int, error) {
	resp, err := connections.Call(ctx, d, req, idempotent, reason)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err == nil && out != nil && resp.StatusCode != http.StatusNoContent {
		err = json.Unmarshal(body, out)
	}
	if err != nil {
		class := connections.Unconfirmed
		if idempotent {
			class = connections.Transient
		}
		return resp.StatusCode, connections.Fail(class, resp.StatusCode, "the answer could not be read")
	}
	return resp.StatusCode, nil
}

// oauthAnswer is a standard OAuth 2 token endpoint answer (RFC 6749 5.1,
// 5.2), with the fields providers add.
type oauthAnswer struct {
	AccessToken      string `json:"access_token"`
	RefreshToken     string `json:"refresh_token"`
	TokenType        string `json:"token_type"`
	ExpiresIn        int64  `json:"expires_in"`
	RefreshExpiresIn int64  `json:"refresh_token_expires_in"`
	Scope            string `json:"scope"`
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

// tokens converts the answer; prev's refresh token is kept when the
// provider did not rotate it.
func (a oauthAnswer) tokens(prev connections.Tokens) connections.Tokens {
	now := time.Now().UTC()
	t := connections.Tokens{AccessToken: a.AccessToken, RefreshToken: a.RefreshToken, TokenType: a.TokenType, Scope: a.Scope}
	if t.RefreshToken == "" {
		t.RefreshToken = prev.RefreshToken
		t.RefreshExpiry = prev.RefreshExpiry
	}
	if t.Scope == "" {
		t.Scope = prev.Scope
	}
	if a.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	if a.RefreshExpiresIn > 0 {
		t.RefreshExpiry = now.Add(time.Duration(a.RefreshExpiresIn) * time.Second)
	}
	return t
}

// oauthReason reads an RFC 6749 error answer ("invalid_grant: Bad Request").
func oauthReason(_ int, body []byte) string {
	var a oauthAnswer
	if json.Unmarshal(body, &a) != nil || a.Error == "" {
		return ""
	}
	return joinReason(a.Error, a.ErrorDescription)
}

func joinReason(code, desc string) string {
	if desc == "" || desc == code {
		return code
	}
	return code + ": " + desc
}

// tokenCall posts to a token endpoint and reads the standard answer. An
// answer without an access token is Refused with the provider's error (for
// providers that answer errors with 200); for a refresh, a refused grant
// (invalid_grant and the like) is Unauthorized: the account must be
// reconnected.
func tokenCall(ctx context.Context, d connections.Doer, req *http.Request, refresh bool, out *oauthAnswer) error {
	status, err := send(ctx, d, req, false, oauthReason, out)
	if err == nil && out.AccessToken == "" {
		reason := joinReason(out.Error, out.ErrorDescription)
		if reason == "" {
			reason = "the token endpoint answered without an access token"
		}
		err = connections.Fail(connections.Refused, status, reason)
	}
	tokenClass(asCallError(err), refresh)
	return err
}

// tokenClass settles a token endpoint failure's class: the operator's
// client credentials refused (invalid_client) is Refused, never a reason
// to reconnect an account; a refused refresh is Unauthorized (the grant
// is gone: reconnect); a refused code exchange is Refused.
func tokenClass(ce *connections.CallError, refresh bool) {
	switch {
	case ce == nil:
	case strings.HasPrefix(ce.Reason, "invalid_client") || strings.HasPrefix(ce.Reason, "incorrect_client_credentials") ||
		strings.HasPrefix(ce.Reason, "bad_client_secret"):
		ce.Class = connections.Refused
	case refresh && ce.Class == connections.Refused:
		ce.Class = connections.Unauthorized
	case !refresh && ce.Class == connections.Unauthorized:
		ce.Class = connections.Refused
	}
}

// asCallError returns err's *connections.CallError, or nil.
func asCallError(err error) *connections.CallError {
	var ce *connections.CallError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// retryAfterHeader reads a Retry-After of seconds.
func retryAfterHeader(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

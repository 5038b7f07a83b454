package connections

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
)

// What every adapter shares on top of Call: building requests, sending
// them with the provider's error body parsed into a Problem, reading JSON
// answers, and turning a token endpoint's answer into Tokens.

// maxAnswer bounds a JSON answer read from a provider.
const maxAnswer = 4 << 20

// Problem is a provider's error body as an adapter parsed it.
type Problem struct {
	// Code is the provider's error code ("access_token_invalid",
	// "DUPLICATE_POST", "190", "quotaExceeded", "invalid_grant").
	Code string
	// Message is the provider's human text (never a token).
	Message string
	// Transient is set where the provider says so itself (the Graph API's
	// is_transient).
	Transient bool
}

// Reason is the text a CallError carries: the code and the message
// (JoinReason), at most 300 bytes.
func (p Problem) Reason() string {
	s := JoinReason(p.Code, p.Message)
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// JoinReason is "code: description", or either alone when the other is
// empty (or the description repeats the code).
func JoinReason(code, desc string) string {
	switch {
	case desc == "" || desc == code:
		return code
	case code == "":
		return desc
	}
	return code + ": " + desc
}

// Parser reads a provider's error body.
type Parser func(status int, body []byte) Problem

// Refiner may change ce's class (or reason) from the provider's own code.
type Refiner func(ce *CallError, p Problem)

// AsCallError returns err's *CallError, or nil.
func AsCallError(err error) *CallError {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// Send sends req with Call; for a failed answer the body is parsed with
// parse (nil: no reason but the status text) and the error's class refined
// with refine (nil: as Call classified it).
func Send(ctx context.Context, d Doer, req *http.Request, idempotent bool, parse Parser, refine Refiner) (*http.Response, error) {
	var p Problem
	resp, err := Call(ctx, d, req, idempotent, func(status int, body []byte) string {
		if parse != nil {
			p = parse(status, body)
		}
		return p.Reason()
	})
	if err != nil {
		if ce := AsCallError(err); ce != nil && ce.Status != 0 && refine != nil {
			refine(ce, p)
		}
		return nil, err
	}
	return resp, nil
}

// NewRequest builds a request that asks for JSON; a body that is
// url.Values is sent as a form, []byte or io.Reader as is, anything else
// (but nil) as JSON. A body that cannot be encoded or a bad URL is Refused.
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
			return nil, Fail(Refused, 0, "request not encodable: "+err.Error())
		}
		r, ctype = bytes.NewReader(raw), "application/json; charset=utf-8"
	}
	req, err := http.NewRequestWithContext(ctx, method, target, r)
	if err != nil {
		return nil, Fail(Refused, 0, "bad endpoint URL in the settings")
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// Bearer sets the Authorization header to token ("" leaves it unset).
func Bearer(req *http.Request, token string) *http.Request {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// ReadJSON reads resp's body into v (when v is not nil and the answer is
// not 204 No Content) and closes it. An answer that cannot be read is
// Unconfirmed for a request that was not idempotent (the provider may
// have acted), else Transient.
func ReadJSON(resp *http.Response, v any, idempotent bool) error {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return unread(resp.StatusCode, idempotent, "answer not read: "+err.Error())
	}
	if v == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return unread(resp.StatusCode, idempotent, "answer is not the expected JSON")
	}
	return nil
}

// unread is the failure of an answer that could not be read.
func unread(status int, idempotent bool, reason string) *CallError {
	if idempotent {
		return Fail(Transient, status, reason)
	}
	return Fail(Unconfirmed, status, reason)
}

// Drain discards and closes resp's body.
func Drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	_ = resp.Body.Close()
}

// AuthURL is the authorization endpoint u with the query q added (after
// u's own query, if it has one).
func AuthURL(u string, q url.Values) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + q.Encode()
}

// WithDefaults fills the empty URLs, scopes and Env of s with def's, and
// trims the trailing slash of APIBase.
func (s Settings) WithDefaults(def Settings) Settings {
	fill := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	fill(&s.AuthURL, def.AuthURL)
	fill(&s.TokenURL, def.TokenURL)
	fill(&s.RevokeURL, def.RevokeURL)
	fill(&s.APIBase, def.APIBase)
	fill(&s.Env, def.Env)
	s.APIBase = strings.TrimRight(s.APIBase, "/")
	if len(s.Scopes) == 0 {
		s.Scopes = def.Scopes
	}
	return s
}

// Seconds is a lifetime a token endpoint gives as a number or a string.
type Seconds int64

// UnmarshalJSON accepts 3600, "3600" and null.
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

// TokenAnswer is a standard token endpoint answer (RFC 6749 5.1 and 5.2,
// with the lifetimes of refresh tokens providers add).
type TokenAnswer struct {
	AccessToken  string  `json:"access_token"`
	RefreshToken string  `json:"refresh_token"`
	TokenType    string  `json:"token_type"`
	Scope        string  `json:"scope"`
	ExpiresIn    Seconds `json:"expires_in"`
	// RefreshExpiresIn (TikTok) and RefreshTokenExpiresIn (LinkedIn,
	// GitHub) are the refresh token's lifetime.
	RefreshExpiresIn      Seconds `json:"refresh_expires_in"`
	RefreshTokenExpiresIn Seconds `json:"refresh_token_expires_in"`
	// Error and ErrorDescription are an error answer's (some providers
	// answer errors with HTTP 200).
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

// Tokens turns the answer into Tokens, lifetimes counted from now.
func (a TokenAnswer) Tokens(now time.Time) Tokens {
	t := Tokens{AccessToken: a.AccessToken, RefreshToken: a.RefreshToken, TokenType: a.TokenType, Scope: a.Scope}
	if a.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	if r := max(a.RefreshExpiresIn, a.RefreshTokenExpiresIn); r > 0 {
		t.RefreshExpiry = now.Add(time.Duration(r) * time.Second)
	}
	return t
}

// Renewed is a refresh's answer as Tokens: prev's refresh token (and its
// expiry) and scope are kept where the provider did not send new ones.
func (a TokenAnswer) Renewed(now time.Time, prev Tokens) Tokens {
	t := a.Tokens(now)
	if t.RefreshToken == "" {
		t.RefreshToken, t.RefreshExpiry = prev.RefreshToken, prev.RefreshExpiry
	}
	if t.Scope == "" {
		t.Scope = prev.Scope
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

// RefineOAuth makes a token endpoint's invalid_grant or invalid_token (an
// expired, revoked or already used code or token) Unauthorized.
func RefineOAuth(ce *CallError, p Problem) {
	if p.Code == "invalid_grant" || p.Code == "invalid_token" {
		ce.Class = Unauthorized
	}
}

// NoRefresh is Refresh's answer when there is no refresh token.
func NoRefresh(label string) error {
	return Fail(Unauthorized, 0, label+" gave no refresh token: reconnect the account")
}

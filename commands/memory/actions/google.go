package actions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
)

// google is Google's OAuth 2 dialect, shared by the mail (Gmail) and
// calendar (Google Calendar) providers, which are separate connections
// with their own scopes: authorization with PKCE (S256),
// access_type=offline and prompt=consent (so a refresh token is always
// issued), token exchange and refresh at oauth2.googleapis.com/token,
// revocation at oauth2.googleapis.com/revoke.
type google struct{ base }

const (
	googleAuth   = "https://accounts.google.com/o/oauth2/v2/auth"
	googleToken  = "https://oauth2.googleapis.com/token"
	googleRevoke = "https://oauth2.googleapis.com/revoke"
)

// PKCE implements connections.Provider.
func (*google) PKCE() bool { return true }

// AuthCodeURL implements connections.Provider.
func (g *google) AuthCodeURL(state, redirectURI, challenge string) string {
	q := url.Values{"client_id": {g.s.ClientID}, "redirect_uri": {redirectURI}, "response_type": {"code"},
		"scope": {strings.Join(g.s.Scopes, " ")}, "state": {state}, "access_type": {"offline"},
		"prompt": {"consent"}, "include_granted_scopes": {"true"}}
	if challenge != "" {
		q.Set("code_challenge", challenge)
		q.Set("code_challenge_method", "S256")
	}
	return authURL(g.s.AuthURL, q)
}

// Exchange implements connections.Provider.
func (g *google) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	if verifier != "" {
		form.Set("code_verifier", verifier)
	}
	return g.token(ctx, form, connections.Tokens{}, false)
}

// Refresh implements connections.Provider: Google keeps the refresh token
// (the answer has none), and answers invalid_grant once it is revoked or
// expired (Unauthorized).
func (g *google) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	if t.RefreshToken == "" {
		return connections.Tokens{}, connections.Fail(connections.Unauthorized, 0, "no refresh token: reconnect")
	}
	return g.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}}, t, true)
}

func (g *google) token(ctx context.Context, form url.Values, prev connections.Tokens, refresh bool) (connections.Tokens, error) {
	form.Set("client_id", g.s.ClientID)
	form.Set("client_secret", g.s.ClientSecret)
	req, err := newForm(ctx, g.s.TokenURL, form)
	if err != nil {
		return connections.Tokens{}, err
	}
	var a oauthAnswer
	if err := tokenCall(ctx, g.d, req, refresh, &a); err != nil {
		return connections.Tokens{}, err
	}
	return a.tokens(prev), nil
}

// Revoke implements connections.Provider: the refresh token when there is
// one (it revokes the grant), else the access token. A token Google no
// longer knows (invalid_token) is as good as revoked.
func (g *google) Revoke(ctx context.Context, t connections.Tokens) error {
	tok := t.RefreshToken
	if tok == "" {
		tok = t.AccessToken
	}
	req, err := newForm(ctx, g.s.RevokeURL, url.Values{"token": {tok}})
	if err != nil {
		return err
	}
	_, err = send(ctx, g.d, req, true, oauthReason, nil)
	if ce := asCallError(err); ce != nil && ce.Status == http.StatusBadRequest && strings.HasPrefix(ce.Reason, "invalid_token") {
		return nil
	}
	return err
}

// api makes a Google API call and decodes its answer into out.
func (g *google) api(ctx context.Context, method, u, token string, body any, idempotent bool, out any) error {
	req, err := newJSON(ctx, method, u, token, body)
	if err != nil {
		return err
	}
	_, err = send(ctx, g.d, req, idempotent, googleReason, out)
	if ce := asCallError(err); ce != nil {
		ce.Class = googleClass(ce)
	}
	return err
}

// googleError is the error shape of Google's APIs.
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Errors  []struct {
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"errors"`
	} `json:"error"`
}

// googleReason reads "reason: message" from a Google API error.
func googleReason(_ int, body []byte) string {
	var e googleError
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	code := e.Error.Status
	if len(e.Error.Errors) > 0 && e.Error.Errors[0].Reason != "" {
		code = e.Error.Errors[0].Reason
	}
	if code == "" {
		return e.Error.Message
	}
	return joinReason(code, e.Error.Message)
}

// googleClass refines a Google API failure: a 403 for missing scopes is
// Unauthorized (reconnecting grants them), a 403 for rate limits is
// Transient.
func googleClass(ce *connections.CallError) connections.Class {
	if ce.Status != http.StatusForbidden {
		return ce.Class
	}
	switch r := ce.Reason; {
	case strings.HasPrefix(r, "rateLimitExceeded"), strings.HasPrefix(r, "userRateLimitExceeded"),
		strings.HasPrefix(r, "quotaExceeded"):
		return connections.Transient
	case strings.HasPrefix(r, "insufficientPermissions"), strings.HasPrefix(r, "ACCESS_TOKEN_SCOPE_INSUFFICIENT"),
		strings.Contains(r, "insufficient authentication scopes"):
		return connections.Unauthorized
	}
	return ce.Class
}

package actions

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
)

// google is Google's OAuth 2 dialect (connections.Google), shared by the
// mail (Gmail) and calendar (Google Calendar) providers, which are
// separate connections with their own scopes.
type google struct{ base }

// oauth is the dialect over the provider's settings.
func (g *google) oauth() *connections.OAuth2 { return connections.Google(g.s, g.d, g.label) }

// PKCE implements connections.Provider.
func (*google) PKCE() bool { return true }

// AuthCodeURL implements connections.Provider.
func (g *google) AuthCodeURL(state, redirectURI, challenge string) string {
	return g.oauth().AuthCodeURL(state, redirectURI, challenge)
}

// Exchange implements connections.Provider.
func (g *google) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	return g.oauth().Exchange(ctx, code, redirectURI, verifier)
}

// Refresh implements connections.Provider: Google keeps the refresh token
// (the answer has none), and answers invalid_grant once it is revoked or
// expired (Unauthorized).
func (g *google) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	return g.oauth().Refresh(ctx, t)
}

// Revoke implements connections.Provider: the refresh token when there is
// one (it revokes the grant), else the access token. A token Google no
// longer knows (invalid_token) is as good as revoked.
func (g *google) Revoke(ctx context.Context, t connections.Tokens) error {
	return g.oauth().RevokeGrant(ctx, t)
}

// api makes a Google API call and decodes its answer into out.
func (g *google) api(ctx context.Context, method, u, token string, body any, idempotent bool, out any) error {
	req, err := newJSON(ctx, method, u, token, body)
	if err != nil {
		return err
	}
	_, err = send(ctx, g.d, req, idempotent, googleReason, out)
	if ce := connections.AsCallError(err); ce != nil {
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
	return connections.JoinReason(code, e.Error.Message)
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

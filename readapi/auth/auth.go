// Package auth is what every context's HTTP layer needs to know about the
// caller: the Principal an Authenticator found behind the request's
// credentials, and the middleware that requires one. The identity context
// provides the Authenticator; other contexts import only this package.
package auth

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// How the caller authenticated.
const (
	MethodJWT    = "jwt"
	MethodAPIKey = "api_key"
	MethodOAuth  = "oauth" // an access token issued to an OAuth client
)

// Principal is an authenticated caller.
type Principal struct {
	UserID         string
	Email          string
	Role           string
	Plan           string
	OrganizationID string // the organization the request acts in (the tenant)
	ProjectID      string
	Method         string    // MethodJWT or MethodAPIKey
	KeyID          string    // the API key record id (MethodAPIKey)
	KeyPrefix      string    // "sk_live", "tmp", ... (MethodAPIKey)
	TokenID        string    // the jti (MethodJWT, MethodOAuth)
	ClientID       string    // the OAuth client the token was issued to (MethodOAuth)
	Scopes         []string  // the scopes granted to the client (MethodOAuth)
	ExpiresAt      time.Time // the token's or key's expiry
	Temporary      bool      // a tmp_ key's trial identity
}

// Authenticator finds the principal behind a request's credentials:
// `Authorization: Bearer <JWT>`, `X-API-Key: <key>` or
// `Authorization: Bearer <key>`. Missing or bad credentials are a kernel
// unauthenticated error.
type Authenticator interface {
	Authenticate(r *http.Request) (Principal, error)
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// From returns the request's principal, if Require put one there.
func From(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// HasScope reports whether the principal may act with scope: an OAuth
// token must carry it; the user's own session tokens and API keys are not
// limited by scopes.
func (p Principal) HasScope(scope string) bool {
	if p.Method != MethodOAuth {
		return true
	}
	return slices.Contains(p.Scopes, scope)
}

// Challenger is implemented by authenticators that know the
// WWW-Authenticate challenge of their 401s (with the RFC 9728
// resource_metadata URL that agents discover the authorization server by).
type Challenger interface {
	Challenge() string
}

func challenge(a Authenticator) string {
	if c, ok := a.(Challenger); ok {
		return c.Challenge()
	}
	return `Bearer realm="strata"`
}

// Require answers 401 (in the surface's error shape, with a
// WWW-Authenticate challenge) unless a authenticates the request, and
// otherwise serves next with the principal in the request's context. An
// OAuth access token is refused (403 insufficient_scope): no scope grants
// a route that does not name one; use RequireScope for those that do.
func Require(a Authenticator, next http.Handler) http.Handler {
	return require(a, "", next)
}

// RequireScope is Require for a route that OAuth clients may call with
// scope (for example memory:read); other credentials pass as in Require.
func RequireScope(a Authenticator, scope string, next http.Handler) http.Handler {
	return require(a, scope, next)
}

func require(a Authenticator, scope string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.Authenticate(r)
		if err != nil {
			if kernel.KindOf(err) == kernel.KindUnauthenticated {
				w.Header().Set("WWW-Authenticate", challenge(a))
			}
			httpx.WriteError(w, r, err)
			return
		}
		if p.Method == MethodOAuth && (scope == "" || !p.HasScope(scope)) {
			msg := "this access token's scopes do not allow this operation; it needs scope " + scope
			if scope == "" {
				msg = "OAuth access tokens cannot be used here; sign in or use an API key"
			}
			h := challenge(a) + `, error="insufficient_scope"`
			if scope != "" {
				h += `, scope="` + scope + `"`
			}
			w.Header().Set("WWW-Authenticate", h)
			httpx.WriteError(w, r, httpx.WithMembers(kernel.Forbidden(msg), map[string]any{"required_scope": scope}))
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}

// Package auth is what every context's HTTP layer needs to know about the
// caller: the Principal an Authenticator found behind the request's
// credentials, and the middleware that requires one. The identity context
// provides the Authenticator; other contexts import only this package.
package auth

import (
	"context"
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// How the caller authenticated.
const (
	MethodJWT    = "jwt"
	MethodAPIKey = "api_key"
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
	TokenID        string    // the jti (MethodJWT)
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

// Require answers 401 (in the surface's error shape, with a
// WWW-Authenticate challenge) unless a authenticates the request, and
// otherwise serves next with the principal in the request's context.
func Require(a Authenticator, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.Authenticate(r)
		if err != nil {
			if kernel.KindOf(err) == kernel.KindUnauthenticated {
				w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			}
			httpx.WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}

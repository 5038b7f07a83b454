// Package oauth serves the platform's OAuth 2.1 / OpenID Connect provider:
// discovery (RFC 8414, OIDC Discovery, RFC 9728), dynamic client
// registration (RFC 7591), the authorization endpoint with its sign-in and
// consent pages, the token endpoint (authorization code with PKCE, refresh
// with rotation), userinfo, revocation (RFC 7009) and introspection (RFC 7662).
package oauth

import (
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/readapi/identity"
)

// Routes adds the provider's routes to the platform API's router.
func Routes(r *mux.Router, svc *cmd.Service, a *identity.Authenticator) {
	h := &handlers{svc: svc, auth: a, issuer: svc.Tokens().Issuer()}
	r.Handle("/.well-known/openid-configuration", http.HandlerFunc(h.discovery)).Methods(http.MethodGet)
	r.Handle("/.well-known/oauth-authorization-server", http.HandlerFunc(h.discovery)).Methods(http.MethodGet)
	r.Handle("/.well-known/oauth-protected-resource", http.HandlerFunc(h.protectedResource)).Methods(http.MethodGet)
	r.PathPrefix("/.well-known/oauth-protected-resource/").Handler(http.HandlerFunc(h.protectedResource)).Methods(http.MethodGet)
	r.Handle("/oauth/clients/register", http.HandlerFunc(h.register)).Methods(http.MethodPost)
	r.Handle("/oauth/authorize", http.HandlerFunc(h.authorize)).Methods(http.MethodGet)
	r.Handle("/oauth/login", http.HandlerFunc(h.login)).Methods(http.MethodPost)
	r.Handle("/oauth/consent", http.HandlerFunc(h.consent)).Methods(http.MethodPost)
	r.Handle("/api/v1/oauth/token", http.HandlerFunc(h.token)).Methods(http.MethodPost)
	r.Handle("/v1/oauth/token", http.HandlerFunc(h.token)).Methods(http.MethodPost)
	r.Handle("/oauth/userinfo", http.HandlerFunc(h.userinfo)).Methods(http.MethodGet, http.MethodPost)
	r.Handle("/oauth/revoke", http.HandlerFunc(h.revoke)).Methods(http.MethodPost)
	r.Handle("/oauth/introspect", http.HandlerFunc(h.introspect)).Methods(http.MethodPost)
}

type handlers struct {
	svc    *cmd.Service
	auth   *identity.Authenticator
	issuer string
}

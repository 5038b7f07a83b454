package identity

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/readapi/auth"
)

// Options switch optional routes on.
type Options struct {
	TestAuth bool // the /api/v1/test-auth routes (STRATA_ENABLE_TEST_AUTH=true)
	// Social configures sign-in with the code-hosting provider and the
	// professional network (STRATA_CODEHOST_*, STRATA_NETWORK_*); a provider
	// without client credentials answers 503 naming the missing settings.
	Social cmd.SocialConfig
	// Credits, when set, reads an account's credits from the gateway's
	// credit ledger for key verification (credits_total: the credits
	// granted in its current period; credits_remaining: its balance in
	// whole credits, rounded up, so 0 or less exactly when it is not
	// positive) and /auth/me (credits). The composition root gives it, so
	// identity does not import the gateway. nil: identity's own legacy
	// balance (the tests of identity alone).
	Credits func(ctx context.Context, accountID string) (total, remaining int64, err error)
}

// Routes adds the identity routes to the platform API's router.
func Routes(r *mux.Router, svc *cmd.Service, a *Authenticator, opts Options) {
	h := &handlers{svc: svc, auth: a, credits: opts.Credits}
	need := func(f http.HandlerFunc) http.Handler { return auth.Require(a, f) }
	// session routes act for a signed-in user: an API key is refused (403).
	session := func(f http.HandlerFunc) http.Handler { return auth.Require(a, sessionOnly(f)) }
	r.Handle("/.well-known/jwks.json", http.HandlerFunc(h.jwks)).Methods(http.MethodGet)
	r.Handle("/api/v1/auth/register", http.HandlerFunc(h.register)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/login", http.HandlerFunc(h.login)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/login-json", http.HandlerFunc(h.loginJSON)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/me", need(h.me)).Methods(http.MethodGet)
	r.Handle("/api/v1/auth/refresh", http.HandlerFunc(h.refresh)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/logout", http.HandlerFunc(h.logout)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/forgot-password", http.HandlerFunc(h.forgotPassword)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/reset-password", http.HandlerFunc(h.resetPassword)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/change-password", session(h.changePassword)).Methods(http.MethodPost)
	r.Handle("/api/v1/auth/merge-identity", session(h.mergeIdentity)).Methods(http.MethodPost)
	social := newSocialHandlers(svc, opts.Social)
	for _, p := range []string{cmd.ProviderCodehost, cmd.ProviderNetwork} {
		r.Handle("/api/v1/auth/"+p+"/start", social.start(p)).Methods(http.MethodGet)
		r.Handle("/api/v1/auth/"+p+"/callback", social.callback(p)).Methods(http.MethodPost)
	}
	r.Handle("/api/v1/api-keys", session(h.createKey)).Methods(http.MethodPost)
	r.Handle("/api/v1/api-keys", need(h.listKeys)).Methods(http.MethodGet)
	r.Handle("/api/v1/api-keys/{key_id}", session(h.revokeKey)).Methods(http.MethodDelete)
	r.Handle("/api/v1/organizations", need(h.listOrganizations)).Methods(http.MethodGet)
	r.Handle("/api/v1/organizations", session(h.createOrganization)).Methods(http.MethodPost)
	r.Handle("/api/v1/organizations/{id}/members", need(h.listMembers)).Methods(http.MethodGet)
	r.Handle("/api/v1/organizations/{id}/members", session(h.invite)).Methods(http.MethodPost)
	r.Handle("/api/v1/organizations/{id}/invitations", need(h.listInvitations)).Methods(http.MethodGet)
	r.Handle("/api/v1/organizations/{id}/invitations/{invitation_id}", session(h.revokeInvitation)).Methods(http.MethodDelete)
	r.Handle("/api/v1/organizations/invitations/accept", session(h.acceptInvitation)).Methods(http.MethodPost)
	r.Handle("/api/v1/organizations/{id}/members/{user_id}", session(h.removeMember)).Methods(http.MethodDelete)
	r.Handle("/api/v1/public/api-keys/verify", http.HandlerFunc(h.verifyKey)).Methods(http.MethodPost)
	r.Handle("/api/v1/admin/events", session(h.adminEvents)).Methods(http.MethodGet)
	if opts.TestAuth {
		r.Handle("/api/v1/test-auth/auth-status", http.HandlerFunc(h.testAuthStatus)).Methods(http.MethodGet)
		r.Handle("/api/v1/test-auth/create-test-user", http.HandlerFunc(h.createTestUser)).Methods(http.MethodPost)
		r.Handle("/api/v1/test-auth/test-login", http.HandlerFunc(h.testLogin)).Methods(http.MethodPost)
	}
	r.Handle("/api/v1/public/api-keys/temporary", http.HandlerFunc(h.createTemporaryKey)).Methods(http.MethodPost)
}

// Package identity serves the identity context over HTTP (the platform API's
// /api/v1/auth, /api/v1/api-keys and JWKS routes) and provides the
// Authenticator every other context uses.
package identity

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Authenticator checks the platform's credentials against the in-memory
// directory: `Authorization: Bearer <JWT>`, `X-API-Key: <key>` or
// `Authorization: Bearer <key>`. A JWT must verify (RS256, a current key,
// issuer, audience, expiry), not be logged out, belong to an active user,
// and carry the user's current security stamp.
type Authenticator struct {
	svc *cmd.Service
}

// NewAuthenticator returns the platform authenticator.
func NewAuthenticator(svc *cmd.Service) *Authenticator { return &Authenticator{svc: svc} }

var _ auth.Authenticator = (*Authenticator)(nil)

func unauthenticated() error {
	return kernel.Unauthenticated("missing credentials: send Authorization: Bearer <token> or X-API-Key: <key>")
}

// Authenticate implements auth.Authenticator. The request acts in the
// caller's default organization, or in the one X-Organization-ID names if
// the caller belongs to it (403 otherwise); an API key acts only in its own
// project's organization.
func (a *Authenticator) Authenticate(r *http.Request) (auth.Principal, error) {
	if r.URL.Query().Has("access_token") {
		return auth.Principal{}, kernel.Invalid("access_token", "header_only",
			"access tokens are not accepted in the query string (they leak into logs and Referer headers); send Authorization: Bearer <token>")
	}
	p, err := a.credentials(r)
	if err != nil {
		return p, err
	}
	return a.actIn(p, strings.TrimSpace(r.Header.Get("X-Organization-ID")))
}

// credentials authenticates X-API-Key or Authorization: Bearer. With both,
// each must verify and name the same account (it acts as the key); two
// different accounts are refused with 400 rather than one silently taken.
func (a *Authenticator) credentials(r *http.Request) (auth.Principal, error) {
	cred, hasBearer := bearer(r)
	key := strings.TrimSpace(r.Header.Get("X-API-Key"))
	if key == "" {
		if !hasBearer {
			return auth.Principal{}, unauthenticated()
		}
		return a.bearerCredential(cred, r.URL.Path)
	}
	p, err := a.key(key, false)
	if err != nil || !hasBearer || cred == key {
		return p, err
	}
	other, err := a.bearerCredential(cred, r.URL.Path)
	if err != nil {
		return auth.Principal{}, err
	}
	if other.UserID != p.UserID {
		return auth.Principal{}, kernel.Invalid("X-API-Key", "one_identity",
			"X-API-Key and Authorization: Bearer name different accounts; send the credential of one account")
	}
	return p, nil
}

// bearerCredential authenticates an Authorization: Bearer credential: an
// API key, an OAuth access token bound to path, or a session JWT.
func (a *Authenticator) bearerCredential(cred, path string) (auth.Principal, error) {
	if ident.LooksLikeKey(cred) {
		return a.key(cred, false)
	}
	if cmd.IsAccessToken(cred) {
		return a.OAuth(cred, path)
	}
	p, _, err := a.JWT(cred)
	return p, err
}

// Challenge implements auth.Challenger: the bearer challenge names the
// protected resource metadata (RFC 9728), where agents find the
// authorization server.
func (a *Authenticator) Challenge() string {
	return `Bearer realm="strata", resource_metadata="` + a.svc.Tokens().Issuer() + `/.well-known/oauth-protected-resource"`
}

// OAuth authenticates an OAuth access token used on the API path: it must
// verify, be bound to an audience covering path (RFC 8707), and still be
// active (user, security stamp, token and grant not revoked).
func (a *Authenticator) OAuth(token, path string) (auth.Principal, error) {
	c, err := a.svc.Tokens().VerifyAccess(token)
	if err != nil {
		return auth.Principal{}, err
	}
	if !ident.AudienceCovers(c.Audience[0], a.svc.Tokens().Issuer(), path) {
		return auth.Principal{}, kernel.Unauthenticated("the access token is bound to another resource (" + c.Audience[0] + ")")
	}
	u, ok := a.svc.ActiveAccess(c)
	if !ok {
		return auth.Principal{}, kernel.Unauthenticated("the access token is invalid, revoked or has expired")
	}
	return auth.Principal{UserID: u.ID, Email: u.Email, Role: u.Role, Plan: u.Plan, OrganizationID: u.OrganizationID,
		ProjectID: u.ProjectID, Method: auth.MethodOAuth, TokenID: c.ID, ClientID: c.ClientID,
		Scopes: strings.Fields(c.Scope), ExpiresAt: c.ExpiresAt.Time}, nil
}

func (a *Authenticator) actIn(p auth.Principal, orgID string) (auth.Principal, error) {
	if orgID == "" || orgID == p.OrganizationID {
		return p, nil
	}
	if p.Method == auth.MethodAPIKey {
		return auth.Principal{}, kernel.Forbidden("an API key acts only in its own project's organization")
	}
	dir := a.svc.Directory()
	if dir.Role(orgID, p.UserID) == "" {
		return auth.Principal{}, kernel.Forbidden("you are not a member of the organization named by X-Organization-ID")
	}
	org, _ := dir.Organization(orgID)
	p.OrganizationID, p.ProjectID = org.ID, ""
	if len(org.Projects) > 0 {
		p.ProjectID = org.Projects[0].ID
	}
	return p, nil
}

// bearer returns the credential of an `Authorization: Bearer` header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(cred) == "" {
		return "", false
	}
	return strings.TrimSpace(cred), true
}

// JWT authenticates an access token and returns its claims too.
func (a *Authenticator) JWT(token string) (auth.Principal, *cmd.Claims, error) {
	c, err := a.svc.Tokens().Verify(token)
	if err != nil {
		return auth.Principal{}, nil, err
	}
	dir := a.svc.Directory()
	u, ok := dir.User(c.Subject)
	if !ok { // a validly signed token for an account registered through another process a moment ago
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if dir.Refresh(ctx) == nil {
			u, ok = dir.User(c.Subject)
		}
		cancel()
	}
	if !ok || !u.Active || c.SV < u.SecurityStamp || dir.Revoked(c.ID) {
		return auth.Principal{}, nil, kernel.Unauthenticated("the access token is invalid or has expired; log in again")
	}
	return auth.Principal{UserID: u.ID, Email: u.Email, Role: u.Role, Plan: u.Plan, OrganizationID: u.OrganizationID,
		ProjectID: u.ProjectID, Method: auth.MethodJWT, TokenID: c.ID, ExpiresAt: c.ExpiresAt.Time}, c, nil
}

// PresentedKey returns the API key a request carries (X-API-Key, or a
// bearer credential shaped like a key).
func PresentedKey(r *http.Request) (string, bool) {
	if key := strings.TrimSpace(r.Header.Get("X-API-Key")); key != "" {
		return key, true
	}
	cred, ok := bearer(r)
	if !ok || !ident.LooksLikeKey(cred) {
		return "", false
	}
	return cred, true
}

func (a *Authenticator) key(presented string, expiredTrial bool) (auth.Principal, error) {
	ka, err := a.svc.AuthenticateKey(presented, expiredTrial)
	var claimed *cmd.Claimed
	if errors.As(err, &claimed) {
		return auth.Principal{}, httpx.WithMembers(err, map[string]any{"workspace_name": claimed.WorkspaceName,
			"suggested_api_key": map[string]string{"id": claimed.SuggestedID, "prefix": claimed.SuggestedPfx}})
	}
	if err != nil {
		return auth.Principal{}, err
	}
	return principalOfKey(ka), nil
}

func principalOfKey(ka cmd.KeyAuth) auth.Principal {
	return auth.Principal{UserID: ka.User.ID, Email: ka.User.Email, Role: ka.User.Role, Plan: ka.User.Plan,
		OrganizationID: ka.Key.OrganizationID, ProjectID: ka.Key.ProjectID, Method: auth.MethodAPIKey,
		KeyID: ka.Key.ID, KeyPrefix: ka.Key.Prefix, ExpiresAt: ka.Key.ExpiresAt, Temporary: ka.Key.Temporary()}
}

package identity

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// AuthorizeRequest holds the parameters of GET /oauth/authorize.
type AuthorizeRequest struct {
	ResponseType        string
	ClientID            string
	RedirectURI         string
	Scope               string
	State               string
	CodeChallenge       string
	CodeChallengeMethod string
	Resources           []string // RFC 8707; at most one
	Nonce               string
	Prompt              string
}

// Authorization is a checked authorization request.
type Authorization struct {
	Client      ident.OAuthClient
	RedirectURI string
	Scope       string // sorted, space separated
	State       string
	Challenge   string
	Resource    string // the access tokens' audience
	Nonce       string
	Prompt      string
}

// Limits on free-text authorization parameters.
const (
	maxStateLen = 1024
	maxNonceLen = 512
)

// CheckAuthorize validates an authorization request. The client and the
// redirect URI are checked first: when either is wrong the error comes with
// an empty Authorization.RedirectURI and must be shown to the user, never
// redirected (an open-redirect guard). Every later error is an
// *ident.OAuthError to send back to the returned RedirectURI.
func (s *Service) CheckAuthorize(r AuthorizeRequest) (Authorization, error) {
	if r.ClientID == "" {
		return Authorization{}, kernel.Invalid("client_id", "required", "client_id is required")
	}
	c, ok := s.dir.OAuthClient(r.ClientID)
	if !ok {
		return Authorization{}, kernel.Invalid("client_id", "registered_client", "unknown client_id: no client is registered under it")
	}
	if r.RedirectURI == "" {
		return Authorization{}, kernel.Invalid("redirect_uri", "required", "redirect_uri is required")
	}
	if !ident.MatchRedirectURI(c.RedirectURIs, r.RedirectURI) {
		return Authorization{}, kernel.Invalid("redirect_uri", "registered_redirect_uri",
			"redirect_uri does not match any redirect URI registered for this client")
	}
	a := Authorization{Client: c, RedirectURI: r.RedirectURI, State: r.State, Nonce: r.Nonce, Prompt: r.Prompt}
	bad := func(code, desc string) (Authorization, error) {
		return a, &ident.OAuthError{Code: code, Description: desc}
	}
	if len(r.State) > maxStateLen {
		a.State = ""
		return bad("invalid_request", "state is longer than 1024 characters")
	}
	switch r.ResponseType {
	case "code":
	case "":
		return bad("invalid_request", "response_type is required (code)")
	default:
		return bad("unsupported_response_type", "only response_type=code is supported (no implicit or hybrid flows)")
	}
	if err := ident.CheckCodeChallenge(r.CodeChallenge, r.CodeChallengeMethod); err != nil {
		return a, err
	}
	a.Challenge = r.CodeChallenge
	scope := r.Scope
	if strings.TrimSpace(scope) == "" {
		scope = c.Scope
	}
	scopes, err := ident.ParseScope(scope)
	if err != nil {
		return a, err
	}
	if !c.AllowsScope(scopes) {
		return bad("invalid_scope", "the client did not register every requested scope (registered: "+c.Scope+")")
	}
	a.Scope = strings.Join(scopes, " ")
	if len(r.Resources) > 1 {
		return bad("invalid_target", "give at most one resource")
	}
	resource := ""
	if len(r.Resources) == 1 {
		resource = r.Resources[0]
	}
	if a.Resource, err = ident.CheckResource(resource, s.cfg.Issuer); err != nil {
		return a, err
	}
	if len(r.Nonce) > maxNonceLen {
		return bad("invalid_request", "nonce is longer than 512 characters")
	}
	switch r.Prompt {
	case "", "login", "consent", "none", "select_account":
	default:
		return bad("invalid_request", "prompt must be none, login, consent or select_account")
	}
	return a, nil
}

// GrantAuthorization records the user's consent to a and issues an
// authorization code (single use, valid ten minutes), returned once.
func (s *Service) GrantAuthorization(ctx context.Context, a Authorization, userID string, authTime time.Time) (string, error) {
	u, ok := s.dir.User(userID)
	if !ok || !u.Active || u.Temporary {
		return "", kernel.Unauthenticated("the account is not active; sign in again")
	}
	code := randomURLSafe(32)
	now := s.clock.Now()
	id := uuid.NewString()
	ev := &ident.OAuthAuthorizationGranted{GrantID: id, ClientID: a.Client.ID, UserID: u.ID, Scope: a.Scope,
		Resource: a.Resource, RedirectURI: a.RedirectURI, CodeHash: sha256Hex(code), CodeChallenge: a.Challenge,
		Nonce: a.Nonce, AuthTime: authTime.UTC().Truncate(time.Second), SecurityStamp: u.SecurityStamp,
		CodeExpiresAt: now.Add(ident.OAuthCodeTTL), At: now}
	err := s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthGrant, ID: id}, eventstore.NoStream, ev)
	})
	return code, err
}

// DenyAuthorization records that the user refused consent.
func (s *Service) DenyAuthorization(ctx context.Context, a Authorization, userID string) error {
	ev := &ident.OAuthConsentDenied{ClientID: a.Client.ID, UserID: userID, Scope: a.Scope, At: s.clock.Now()}
	return s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthClient, ID: a.Client.ID}, eventstore.AnyVersion, ev)
	})
}

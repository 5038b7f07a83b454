package identity

import (
	"context"
	"errors"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// TokenResponse is the token endpoint's answer (RFC 6749 section 5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
	IDToken      string `json:"id_token,omitempty"`
}

// grantStep is one decision on a grant: the events to append at the
// grant's version and what to answer once they are stored (an error
// answer may still come with events: a reuse revokes the grant).
type grantStep struct {
	events []kernel.Event
	answer TokenResponse
	err    error
}

// onGrant decides on the grant find returns and appends the decision's
// events at the grant's version. A version clash means another request
// moved the grant (a concurrent use of the same code or refresh token):
// the directory catches up and the decision is made again on the new
// state, where that use is now a reuse.
func (s *Service) onGrant(ctx context.Context, find func() (ident.Grant, bool), decide func(g ident.Grant) grantStep) (TokenResponse, error) {
	for attempt := 0; ; attempt++ {
		g, ok := find()
		if !ok {
			return TokenResponse{}, &ident.OAuthError{Code: "invalid_grant", Description: "the code or refresh token is invalid or has expired"}
		}
		step := decide(g)
		if len(step.events) == 0 {
			return step.answer, step.err
		}
		err := s.write(ctx, func(t *txn) error {
			return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthGrant, ID: g.ID}, g.Version, step.events...)
		})
		if errors.Is(err, kernel.ErrConflict) && attempt < 3 {
			if err := s.dir.CatchUp(ctx); err != nil {
				return TokenResponse{}, err
			}
			continue
		}
		if err != nil {
			return TokenResponse{}, err
		}
		return step.answer, step.err
	}
}

func revoke(g ident.Grant, reason string, s *Service, err error) grantStep {
	return grantStep{events: []kernel.Event{&ident.OAuthGrantRevoked{GrantID: g.ID, Reason: reason, At: s.clock.Now()}}, err: err}
}

// ExchangeCode redeems an authorization code for client c (RFC 6749 4.1.3
// with PKCE). A second use of a code revokes every token the first issued.
func (s *Service) ExchangeCode(ctx context.Context, c ident.OAuthClient, code, redirectURI, verifier, resource string) (TokenResponse, error) {
	if code == "" {
		return TokenResponse{}, &ident.OAuthError{Code: "invalid_request", Description: "code is required"}
	}
	hash := sha256Hex(code)
	return s.onGrant(ctx, func() (ident.Grant, bool) { return s.dir.GrantByCode(hash) }, func(g ident.Grant) grantStep {
		now := s.clock.Now()
		decision, err := g.RedeemCode(c.ID, redirectURI, verifier, now)
		switch decision {
		case ident.CodeReused:
			return revoke(g, ident.RevokeCodeReused, s, err)
		case ident.CodeRefused:
			return grantStep{err: err}
		}
		if err := checkTarget(g, resource, s.cfg.Issuer); err != nil {
			return grantStep{err: err}
		}
		u, err := s.grantUser(g)
		if err != nil {
			return grantStep{err: err}
		}
		resp, jti, err := s.tokensFor(g, u, g.Scope, true)
		if err != nil {
			return grantStep{err: err}
		}
		ev := &ident.OAuthCodeExchanged{GrantID: g.ID, TokenID: jti, AccessExpiresAt: now.Add(ident.OAuthAccessTokenTTL), At: now}
		if c.MayRefresh() {
			resp.RefreshToken = "srt_" + randomURLSafe(32)
			ev.RefreshHash, ev.RefreshExpiresAt = sha256Hex(resp.RefreshToken), now.Add(ident.OAuthRefreshTTL)
		}
		return grantStep{events: []kernel.Event{ev}, answer: resp}
	})
}

// RefreshGrant rotates a refresh token for client c: the presented token
// is spent, a new access and refresh token are issued. Presenting a spent
// token revokes the whole grant (reuse detection, OAuth 2.1 section 4.3.1).
func (s *Service) RefreshGrant(ctx context.Context, c ident.OAuthClient, refresh, scope, resource string) (TokenResponse, error) {
	if refresh == "" {
		return TokenResponse{}, &ident.OAuthError{Code: "invalid_request", Description: "refresh_token is required"}
	}
	if !c.MayRefresh() {
		return TokenResponse{}, &ident.OAuthError{Code: "unauthorized_client", Description: "the client did not register the refresh_token grant type"}
	}
	hash := sha256Hex(refresh)
	return s.onGrant(ctx, func() (ident.Grant, bool) { return s.dir.GrantByRefresh(hash) }, func(g ident.Grant) grantStep {
		u, uerr := s.grantUser(g)
		decision, granted, err := g.UseRefresh(c.ID, hash, scope, u.SecurityStamp, s.clock.Now())
		switch decision {
		case ident.RefreshReused:
			return revoke(g, ident.RevokeRefreshReused, s, err)
		case ident.RefreshRefused:
			return grantStep{err: err}
		}
		if uerr != nil {
			return grantStep{err: uerr}
		}
		if err := checkTarget(g, resource, s.cfg.Issuer); err != nil {
			return grantStep{err: err}
		}
		resp, jti, err := s.tokensFor(g, u, granted, false)
		if err != nil {
			return grantStep{err: err}
		}
		now := s.clock.Now()
		resp.RefreshToken = "srt_" + randomURLSafe(32)
		ev := &ident.OAuthTokenRefreshed{GrantID: g.ID, PreviousHash: hash, RefreshHash: sha256Hex(resp.RefreshToken),
			RefreshExpiresAt: now.Add(ident.OAuthRefreshTTL), TokenID: jti, AccessExpiresAt: now.Add(ident.OAuthAccessTokenTTL),
			Scope: granted, At: now}
		return grantStep{events: []kernel.Event{ev}, answer: resp}
	})
}

// grantUser returns the grant's user if it may still hold tokens.
func (s *Service) grantUser(g ident.Grant) (ident.User, error) {
	u, ok := s.dir.User(g.UserID)
	if !ok || !u.Active {
		return u, &ident.OAuthError{Code: "invalid_grant", Description: "the account is no longer active"}
	}
	if u.SecurityStamp > g.SecurityStamp {
		return u, &ident.OAuthError{Code: "invalid_grant", Description: "the password changed since this authorization; sign in again"}
	}
	return u, nil
}

// checkTarget refuses a token-request resource other than the grant's.
func checkTarget(g ident.Grant, resource, apiBase string) error {
	if resource == "" {
		return nil
	}
	r, err := ident.CheckResource(resource, apiBase)
	if err != nil {
		return err
	}
	if r != g.Resource {
		return &ident.OAuthError{Code: "invalid_target", Description: "resource differs from the one authorized"}
	}
	return nil
}

// tokensFor signs the access token (and, with openid in scope and withID,
// the ID token) of grant g.
func (s *Service) tokensFor(g ident.Grant, u ident.User, scope string, withID bool) (TokenResponse, string, error) {
	now := s.clock.Now()
	at, jti, _, err := s.tokens.issueAccess(g, scope, now)
	if err != nil {
		return TokenResponse{}, "", err
	}
	resp := TokenResponse{AccessToken: at, TokenType: "Bearer", ExpiresIn: int64(ident.OAuthAccessTokenTTL.Seconds()), Scope: scope}
	if withID && ident.HasScope(scope, "openid") {
		if resp.IDToken, err = s.tokens.issueID(g, u, scope, at, now); err != nil {
			return TokenResponse{}, "", err
		}
	}
	return resp, jti, nil
}

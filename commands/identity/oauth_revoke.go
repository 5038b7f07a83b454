package identity

import (
	"context"
	"strings"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// ActiveAccess reports whether a verified OAuth access token is still good:
// its user is active with the same security stamp, the token was not
// revoked on its own, and its grant was not revoked.
func (s *Service) ActiveAccess(c *AccessClaims) (ident.User, bool) {
	u, ok := s.dir.User(c.Subject)
	if _, known := s.dir.Grant(c.GrantID); !ok || !known {
		// A token signed by us for a grant or account this process has not
		// seen yet: issued through another process a moment ago.
		ctx, cancel := context.WithTimeout(context.Background(), refreshWait)
		if s.dir.Refresh(ctx) == nil {
			u, ok = s.dir.User(c.Subject)
		}
		cancel()
	}
	if !ok || !u.Active || c.SV < u.SecurityStamp || s.dir.Revoked(c.ID) || !s.dir.GrantActive(c.GrantID) {
		return ident.User{}, false
	}
	return u, true
}

// isRefreshToken tells the two token kinds apart without a hint: refresh
// tokens are opaque "srt_" strings, access tokens are JWTs.
func isRefreshToken(token, hint string) bool {
	return strings.HasPrefix(token, "srt_") || (hint == "refresh_token" && !strings.Contains(token, "."))
}

// RevokeToken revokes a token issued to client c (RFC 7009): a refresh
// token revokes its whole grant, an access token only itself. A token that
// is unknown, already revoked or issued to another client changes nothing;
// the answer is the same, so it reveals nothing.
func (s *Service) RevokeToken(ctx context.Context, c ident.OAuthClient, token, hint string) error {
	now := s.clock.Now()
	if isRefreshToken(token, hint) {
		g, ok := s.dir.GrantByRefresh(sha256Hex(token))
		if !ok || g.ClientID != c.ID || g.Revoked {
			return nil
		}
		ev := &ident.OAuthGrantRevoked{GrantID: g.ID, Reason: ident.RevokeByClient, At: now}
		return s.write(ctx, func(t *txn) error {
			return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthGrant, ID: g.ID}, eventstore.AnyVersion, ev)
		})
	}
	claims, err := s.tokens.VerifyAccess(token)
	if err != nil || claims.ClientID != c.ID || s.dir.Revoked(claims.ID) {
		return nil
	}
	ev := &ident.TokenRevoked{UserID: claims.Subject, TokenID: claims.ID, ExpiresAt: claims.ExpiresAt.Time, At: now}
	return s.appendUser(ctx, claims.Subject, eventstore.AnyVersion, ev)
}

// Introspection is an RFC 7662 answer; only Active is set for an inactive token.
type Introspection struct {
	Active    bool     `json:"active"`
	Scope     string   `json:"scope,omitempty"`
	ClientID  string   `json:"client_id,omitempty"`
	Username  string   `json:"username,omitempty"`
	TokenType string   `json:"token_type,omitempty"`
	Exp       int64    `json:"exp,omitempty"`
	Iat       int64    `json:"iat,omitempty"`
	Nbf       int64    `json:"nbf,omitempty"`
	Sub       string   `json:"sub,omitempty"`
	Aud       []string `json:"aud,omitempty"`
	Iss       string   `json:"iss,omitempty"`
	Jti       string   `json:"jti,omitempty"`
}

// Introspect describes a token issued to client c (RFC 7662). Tokens of
// other clients are reported inactive, so a client cannot probe them.
func (s *Service) Introspect(c ident.OAuthClient, token, hint string) Introspection {
	if isRefreshToken(token, hint) {
		hash := sha256Hex(token)
		g, ok := s.dir.GrantByRefresh(hash)
		if !ok || g.ClientID != c.ID || g.Revoked || g.Refresh != hash || !s.clock.Now().Before(g.RefreshExpiresAt) {
			return Introspection{}
		}
		u, err := s.grantUser(g)
		if err != nil {
			return Introspection{}
		}
		return Introspection{Active: true, Scope: g.RefreshScope, ClientID: c.ID, Username: u.Email, TokenType: "refresh_token",
			Exp: g.RefreshExpiresAt.Unix(), Sub: u.ID, Iss: s.tokens.Issuer()}
	}
	claims, err := s.tokens.VerifyAccess(token)
	if err != nil || claims.ClientID != c.ID {
		return Introspection{}
	}
	u, ok := s.ActiveAccess(claims)
	if !ok {
		return Introspection{}
	}
	return Introspection{Active: true, Scope: claims.Scope, ClientID: c.ID, Username: u.Email, TokenType: "Bearer",
		Exp: claims.ExpiresAt.Unix(), Iat: claims.IssuedAt.Unix(), Nbf: claims.IssuedAt.Unix(), Sub: u.ID,
		Aud: claims.Audience, Iss: claims.Issuer, Jti: claims.ID}
}

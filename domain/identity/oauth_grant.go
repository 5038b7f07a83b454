package identity

import (
	"time"
)

// Grant is one authorization of a client by a user, folded from its stream:
// the code, then the refresh tokens descending from it. Every refresh token
// ever issued is remembered, so that presenting a spent one is recognised as
// reuse (and revokes the grant) rather than as an unknown token.
type Grant struct {
	ID            string
	ClientID      string
	UserID        string
	Scope         string // granted at consent
	Resource      string
	RedirectURI   string
	CodeHash      string
	CodeChallenge string
	Nonce         string
	AuthTime      time.Time
	SecurityStamp int64
	CodeExpiresAt time.Time
	CodeUsed      bool
	// Refresh is the current refresh token's hash; Spent holds the earlier ones.
	Refresh          string
	RefreshScope     string
	RefreshExpiresAt time.Time
	Spent            []string
	Revoked          bool
	RevokedReason    string
	Version          int64
}

// Apply folds one event of the grant's stream into g.
func (g *Grant) Apply(e any) {
	g.Version++
	switch ev := e.(type) {
	case *OAuthAuthorizationGranted:
		*g = Grant{ID: ev.GrantID, ClientID: ev.ClientID, UserID: ev.UserID, Scope: ev.Scope, Resource: ev.Resource,
			RedirectURI: ev.RedirectURI, CodeHash: ev.CodeHash, CodeChallenge: ev.CodeChallenge, Nonce: ev.Nonce,
			AuthTime: ev.AuthTime, SecurityStamp: ev.SecurityStamp, CodeExpiresAt: ev.CodeExpiresAt, Version: g.Version}
	case *OAuthCodeExchanged:
		g.CodeUsed = true
		g.Refresh, g.RefreshExpiresAt, g.RefreshScope = ev.RefreshHash, ev.RefreshExpiresAt, g.Scope
	case *OAuthTokenRefreshed:
		if g.Refresh != "" {
			g.Spent = append(g.Spent, g.Refresh)
		}
		g.Refresh, g.RefreshExpiresAt, g.RefreshScope = ev.RefreshHash, ev.RefreshExpiresAt, ev.Scope
	case *OAuthGrantRevoked:
		g.Revoked, g.RevokedReason = true, ev.Reason
	}
}

func invalidGrant(desc string) error { return oauthErr("invalid_grant", desc) }

// CodeDecision is what redeeming the grant's code leads to.
type CodeDecision int

// Outcomes of RedeemCode.
const (
	CodeOK      CodeDecision = iota // issue tokens
	CodeReused                      // refuse, and revoke the grant (a second use)
	CodeRefused                     // refuse
)

// RedeemCode decides on redeeming the grant's code by clientID with the
// redirect URI and PKCE verifier presented, at now. A code is single use,
// valid for ten minutes, bound to its client, redirect URI and challenge.
func (g *Grant) RedeemCode(clientID, redirectURI, verifier string, now time.Time) (CodeDecision, error) {
	if g.ClientID != clientID {
		return CodeRefused, invalidGrant("the code was not issued to this client")
	}
	if g.CodeUsed {
		if g.Revoked {
			return CodeRefused, invalidGrant("the code was already used")
		}
		return CodeReused, invalidGrant("the code was already used; every token issued for it is now revoked")
	}
	if g.Revoked {
		return CodeRefused, invalidGrant("the authorization was revoked")
	}
	if !now.Before(g.CodeExpiresAt) {
		return CodeRefused, invalidGrant("the code has expired (codes are valid for 10 minutes)")
	}
	if redirectURI != g.RedirectURI {
		return CodeRefused, invalidGrant("redirect_uri does not match the one of the authorization request")
	}
	if err := VerifyPKCE(verifier, g.CodeChallenge); err != nil {
		return CodeRefused, err
	}
	return CodeOK, nil
}

// RefreshDecision is what presenting a refresh token leads to.
type RefreshDecision int

// Outcomes of UseRefresh.
const (
	RefreshOK      RefreshDecision = iota // rotate
	RefreshReused                         // refuse, and revoke the grant
	RefreshRefused                        // refuse
)

// UseRefresh decides on a refresh token (its hash) presented by clientID at
// now, asking for scope (empty: the current scope). Only the newest token of
// the grant is valid; a spent one is reuse. The requested scope may narrow,
// never widen, what was granted.
func (g *Grant) UseRefresh(clientID, hash, scope string, stamp int64, now time.Time) (RefreshDecision, string, error) {
	if g.ClientID != clientID {
		return RefreshRefused, "", invalidGrant("the refresh token was not issued to this client")
	}
	if g.Revoked {
		return RefreshRefused, "", invalidGrant("the refresh token was revoked")
	}
	if hash != g.Refresh {
		for _, s := range g.Spent {
			if s == hash {
				return RefreshReused, "", invalidGrant("the refresh token was already used; the whole grant is now revoked")
			}
		}
		return RefreshRefused, "", invalidGrant("unknown refresh token")
	}
	if !now.Before(g.RefreshExpiresAt) {
		return RefreshRefused, "", invalidGrant("the refresh token has expired")
	}
	if stamp > g.SecurityStamp {
		return RefreshRefused, "", invalidGrant("the password changed since this authorization; sign in again")
	}
	if scope == "" {
		return RefreshOK, g.RefreshScope, nil
	}
	requested, err := ParseScope(scope)
	if err != nil {
		return RefreshRefused, "", err
	}
	for _, s := range requested {
		if !HasScope(g.Scope, s) {
			return RefreshRefused, "", oauthErr("invalid_scope", "scope "+strconvQuote(s)+" was not granted")
		}
	}
	return RefreshOK, joinScopes(requested), nil
}

func joinScopes(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}

package identity

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

// AccessTokenType is the typ header of OAuth access tokens (RFC 9068); the
// platform's own session tokens carry "JWT", so neither passes for the other.
const AccessTokenType = "at+jwt"

// AccessClaims are the claims of an OAuth access token (RFC 9068): the
// audience is the resource it is bound to (RFC 8707), scope the granted
// scopes, gid the grant it descends from (revoking the grant revokes it),
// sv the user's security stamp at consent.
type AccessClaims struct {
	jwt.RegisteredClaims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	GrantID  string `json:"gid"`
	SV       int64  `json:"sv"`
	AuthTime int64  `json:"auth_time,omitempty"`
}

// IDClaims are the claims of an OpenID Connect ID token.
type IDClaims struct {
	jwt.RegisteredClaims
	AuthTime int64  `json:"auth_time"`
	Nonce    string `json:"nonce,omitempty"`
	AtHash   string `json:"at_hash,omitempty"`
	Azp      string `json:"azp"`
	ident.ProfileClaims
}

// issueAccess signs an access token for grant g with scope, valid for
// OAuthAccessTokenTTL; it returns the token, its jti and its expiry.
func (t *Tokens) issueAccess(g ident.Grant, scope string, now time.Time) (string, string, time.Time, error) {
	exp := now.Add(ident.OAuthAccessTokenTTL)
	jti := newTokenID()
	c := AccessClaims{RegisteredClaims: jwt.RegisteredClaims{Subject: g.UserID, Issuer: t.issuer,
		Audience: jwt.ClaimStrings{g.Resource}, IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(exp), ID: jti},
		ClientID: g.ClientID, Scope: scope, GrantID: g.ID, SV: g.SecurityStamp, AuthTime: g.AuthTime.Unix()}
	s, err := t.sign(c, AccessTokenType)
	return s, jti, exp.Truncate(time.Second), err
}

// issueID signs the ID token of grant g for u, bound to the access token
// (at_hash) and the authorization request's nonce.
func (t *Tokens) issueID(g ident.Grant, u ident.User, scope, accessToken string, now time.Time) (string, error) {
	sum := sha256.Sum256([]byte(accessToken))
	c := IDClaims{RegisteredClaims: jwt.RegisteredClaims{Subject: u.ID, Issuer: t.issuer,
		Audience: jwt.ClaimStrings{g.ClientID}, IssuedAt: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ident.OAuthAccessTokenTTL))},
		AuthTime: g.AuthTime.Unix(), Nonce: g.Nonce, AtHash: base64.RawURLEncoding.EncodeToString(sum[:16]),
		Azp: g.ClientID, ProfileClaims: ident.Profile(u, scope)}
	return t.sign(c, "JWT")
}

// VerifyAccess checks an OAuth access token's signature (RS256, a current
// key), typ, issuer, expiry and issue time. The audience, the grant and the
// user are the caller's to check.
func (t *Tokens) VerifyAccess(token string) (*AccessClaims, error) {
	if err := t.refresh(); err != nil {
		return nil, err
	}
	now := t.clock.Now()
	if c, ok := t.accesses.get(token, now); ok {
		return &c, nil
	}
	var c AccessClaims
	_, err := t.accessParser.ParseWithClaims(token, &c, t.keyFor(AccessTokenType))
	if err != nil || c.Subject == "" || c.ID == "" || c.GrantID == "" || len(c.Audience) != 1 {
		return nil, kernel.Unauthenticated("the access token is invalid or has expired")
	}
	t.accesses.put(token, c, c.ExpiresAt.Time, now)
	return &c, nil
}

// IsAccessToken reports whether a bearer credential is an OAuth access
// token (a JWT whose header says typ at+jwt), without verifying it.
func IsAccessToken(token string) bool {
	head, _, ok := strings.Cut(token, ".")
	if !ok || len(head) > 512 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return false
	}
	var h struct {
		Typ string `json:"typ"`
	}
	return json.Unmarshal(raw, &h) == nil && strings.EqualFold(h.Typ, AccessTokenType)
}

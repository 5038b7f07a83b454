package captable

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/strata-platform/strata/domain/kernel"
)

// audience is the aud of every cap-table access token: they are good for
// the cap table only.
const audience = "strata-captable"

// Tokens is what a sign-in or refresh returns.
type Tokens struct {
	AccessToken  string    `json:"accessToken"`
	RefreshToken string    `json:"refreshToken"`
	TokenType    string    `json:"tokenType"`
	ExpiresIn    int       `json:"expiresIn"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

// claims of a cap-table access token.
type claims struct {
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

// Caller is an authenticated caller of the cap table: an account, and for
// an agent key, the one company and role the key is limited to.
type Caller struct {
	AccountID string
	SessionID string
	KeyID     string
	CompanyID string // agent keys only
	Role      string // agent keys only
}

func (s *Service) issue(accountID, sessionID, refresh string, now time.Time) (Tokens, error) {
	exp := now.Add(s.cfg.AccessTTL)
	c := claims{SessionID: sessionID, RegisteredClaims: jwt.RegisteredClaims{
		Subject: accountID, Issuer: s.cfg.Issuer, Audience: jwt.ClaimStrings{audience},
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp), ID: s.ids.NewID()}}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.cfg.TokenKey)
	if err != nil {
		return Tokens{}, fmt.Errorf("sign access token: %w", err)
	}
	return Tokens{AccessToken: signed, RefreshToken: refresh, TokenType: "Bearer",
		ExpiresIn: int(s.cfg.AccessTTL / time.Second), ExpiresAt: exp}, nil
}

// VerifyAccess checks a cap-table access token: HS256 under the cap
// table's key, its issuer and audience, unexpired. Platform tokens and
// tokens of other realms are refused.
func (s *Service) VerifyAccess(token string) (Caller, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.cfg.TokenKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(s.cfg.Issuer),
		jwt.WithAudience(audience), jwt.WithTimeFunc(s.clock.Now), jwt.WithExpirationRequired())
	if err != nil || c.Subject == "" {
		return Caller{}, kernel.Unauthenticated("the access token is invalid or expired")
	}
	return Caller{AccountID: c.Subject, SessionID: c.SessionID}, nil
}

// newSecret returns 32 random bytes, base64url without padding.
func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func sameHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// Opaque credentials: "<prefix>.<account id>.<session or key id>.<secret>".
const (
	refreshPrefix = "ctr"
	keyPrefix     = "ctk"
)

func opaque(prefix, account, id, secret string) string {
	return prefix + "." + account + "." + id + "." + secret
}

func parseOpaque(prefix, token string) (account, id, secret string, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 || parts[0] != prefix || parts[1] == "" || parts[2] == "" || parts[3] == "" {
		return "", "", "", false
	}
	return parts[1], parts[2], parts[3], true
}

// IsAgentKey reports whether a bearer credential is an agent key.
func IsAgentKey(token string) bool { return strings.HasPrefix(token, keyPrefix+".") }

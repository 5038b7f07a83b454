package captable

import (
	"context"
	"fmt"

	"github.com/coreos/go-oidc/v3/oidc"
)

// JWKSVerifier verifies platform access tokens with go-oidc against the
// platform's published keys (fetched from its JWKS URL and refetched when a
// token names an unknown key): RS256 signature, issuer, expiry.
type JWKSVerifier struct {
	v *oidc.IDTokenVerifier
}

// NewJWKSVerifier returns a verifier for tokens issued by issuer whose keys
// are published at jwksURL. ctx bounds the key fetches.
func NewJWKSVerifier(ctx context.Context, issuer, jwksURL string) *JWKSVerifier {
	keys := oidc.NewRemoteKeySet(ctx, jwksURL)
	return &JWKSVerifier{v: oidc.NewVerifier(issuer, keys, &oidc.Config{SkipClientIDCheck: true, SupportedSigningAlgs: []string{oidc.RS256}})}
}

// VerifyPlatformToken implements PlatformVerifier.
func (j *JWKSVerifier) VerifyPlatformToken(ctx context.Context, token string) (PlatformUser, error) {
	t, err := j.v.Verify(ctx, token)
	if err != nil {
		return PlatformUser{}, fmt.Errorf("verify platform token: %w", err)
	}
	var c struct {
		Email         string `json:"email"`
		EmailVerified bool   `json:"email_verified"`
		Name          string `json:"name"`
	}
	if err := t.Claims(&c); err != nil {
		return PlatformUser{}, fmt.Errorf("platform token claims: %w", err)
	}
	return PlatformUser{ID: t.Subject, Email: c.Email, EmailVerified: c.EmailVerified, Name: c.Name}, nil
}

package oauth_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// TestFullFlow runs discovery, registration, authorization code with PKCE,
// ID token verification, userinfo, a scoped API call, refresh with
// rotation, introspection and revocation with golang.org/x/oauth2 and
// coreos/go-oidc, as a third-party application would.
func TestFullFlow(t *testing.T) {
	e := newEnv(t)
	provider, err := oidc.NewProvider(ctx(), e.URL) // checks that discovery's issuer is e.URL
	if err != nil {
		t.Fatal(err)
	}
	var disc struct {
		Token, Registration, Revocation, Introspection string
		ISS                                            bool     `json:"authorization_response_iss_parameter_supported"`
		Methods                                        []string `json:"code_challenge_methods_supported"`
	}
	if err := provider.Claims(&disc); err != nil || !disc.ISS || len(disc.Methods) != 1 || disc.Methods[0] != "S256" {
		t.Fatalf("discovery: %+v %v", disc, err)
	}
	id, secret := e.client(nil)
	cfg := e.config(id, secret, oidc.ScopeOpenID, "profile", "email", "memory:read")
	cfg.Endpoint = provider.Endpoint()
	cfg.Endpoint.AuthStyle = oauth2.AuthStyleInHeader
	verifier := oauth2.GenerateVerifier()
	code := e.code(cfg, verifier, oidc.Nonce("n-0S6_WzA2Mj"))
	tok, err := cfg.Exchange(ctx(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if tok.RefreshToken == "" || tok.TokenType != "Bearer" || tok.Extra("scope") != "email memory:read openid profile" {
		t.Fatalf("token response: %+v scope=%v", tok, tok.Extra("scope"))
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := provider.Verifier(&oidc.Config{ClientID: id, Now: e.Clock.Now}).Verify(ctx(), raw)
	if err != nil {
		t.Fatal(err)
	}
	if idt.Nonce != "n-0S6_WzA2Mj" || idt.Subject != e.userID {
		t.Fatalf("id token: nonce %q sub %q", idt.Nonce, idt.Subject)
	}
	if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
		t.Fatalf("at_hash: %v", err)
	}
	var idClaims struct {
		AuthTime int64  `json:"auth_time"`
		Email    string `json:"email"`
	}
	if err := idt.Claims(&idClaims); err != nil || idClaims.AuthTime == 0 || idClaims.Email != e.email {
		t.Fatalf("id token claims %+v %v", idClaims, err)
	}
	info, err := provider.UserInfo(ctx(), oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		Name, GivenName, FamilyName, Plan string
	}
	_ = info.Claims(&struct {
		Name       *string `json:"name"`
		GivenName  *string `json:"given_name"`
		FamilyName *string `json:"family_name"`
		Plan       *string `json:"plan"`
	}{&claims.Name, &claims.GivenName, &claims.FamilyName, &claims.Plan})
	if info.Subject != e.userID || info.Email != e.email || claims.GivenName != "Ada" || claims.FamilyName != "Lovelace" || claims.Plan != "free" {
		t.Fatalf("userinfo %+v %+v", info, claims)
	}

	// The access token works where memory:read applies, not elsewhere.
	if st, _ := e.getWith("/api/v1/test/memory", tok.AccessToken); st != http.StatusOK {
		t.Fatalf("scoped route: %d", st)
	}
	if st, h := e.getWith("/api/v1/api-keys", tok.AccessToken); st != http.StatusForbidden || h.Get("WWW-Authenticate") == "" {
		t.Fatalf("unscoped route: %d %v", st, h)
	}

	// Refresh rotates the refresh token.
	e.Clock.Advance(time.Minute)
	next, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	if next.RefreshToken == "" || next.RefreshToken == tok.RefreshToken || next.AccessToken == tok.AccessToken {
		t.Fatal("refresh did not rotate")
	}

	// Introspection sees the new refresh token active and the old one not.
	for _, tc := range []struct {
		token  string
		active bool
	}{{next.AccessToken, true}, {next.RefreshToken, true}, {tok.RefreshToken, false}, {"garbage", false}} {
		st, body, _ := e.form("/oauth/introspect", id, secret, url.Values{"token": {tc.token}})
		if st != http.StatusOK || body["active"] != tc.active {
			t.Errorf("introspect %.12s: %d %v", tc.token, st, body)
		}
	}
	st, body, _ := e.form("/oauth/introspect", id, secret, url.Values{"token": {next.AccessToken}})
	if body["client_id"] != id || body["sub"] != e.userID || body["scope"] != "email memory:read openid profile" || st != 200 {
		t.Fatalf("introspection: %v", body)
	}

	// Revoking the access token ends it alone; revoking the refresh token ends the grant.
	if st, _, _ := e.form("/oauth/revoke", id, secret, url.Values{"token": {next.AccessToken}}); st != http.StatusOK {
		t.Fatalf("revoke: %d", st)
	}
	if st, _ := e.getWith("/api/v1/test/memory", next.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("revoked access token: %d", st)
	}
	if st, _ := e.getWith("/api/v1/test/memory", tok.AccessToken); st != http.StatusOK {
		t.Fatalf("sibling access token: %d", st)
	}
	if st, _, _ := e.form("/oauth/revoke", id, secret, url.Values{"token": {next.RefreshToken}, "token_type_hint": {"refresh_token"}}); st != http.StatusOK {
		t.Fatalf("revoke refresh: %d", st)
	}
	if st, _ := e.getWith("/api/v1/test/memory", tok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("access token of a revoked grant: %d", st)
	}
	if _, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: next.RefreshToken}).Token(); err == nil {
		t.Fatal("revoked refresh token still works")
	}
}

// TestPublicClientAndClientSecretPost covers token_endpoint_auth_method
// none (PKCE only) and client_secret_post.
func TestPublicClientAndClientSecretPost(t *testing.T) {
	e := newEnv(t)
	for _, method := range []string{"none", "client_secret_post"} {
		t.Run(method, func(t *testing.T) {
			id, secret := e.client(map[string]any{"token_endpoint_auth_method": method})
			if (method == "none") != (secret == "") {
				t.Fatalf("secret %q for %s", secret, method)
			}
			cfg := e.config(id, secret, "openid")
			cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
			verifier := oauth2.GenerateVerifier()
			tok, err := cfg.Exchange(ctx(), e.code(cfg, verifier), oauth2.VerifierOption(verifier))
			if err != nil || tok.AccessToken == "" {
				t.Fatalf("exchange: %v", err)
			}
			// Basic auth for a client registered otherwise is refused.
			st, body, h := e.form("/api/v1/oauth/token", id, secret, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
			if st != http.StatusUnauthorized || body["error"] != "invalid_client" || h.Get("WWW-Authenticate") == "" {
				t.Fatalf("wrong method: %d %v", st, body)
			}
		})
	}
}

// TestSigningKeyRotation: tokens issued before a rotation keep verifying,
// and both keys are in the JWKS.
func TestSigningKeyRotation(t *testing.T) {
	e := newEnv(t)
	id, secret := e.client(nil)
	cfg := e.config(id, secret, "openid", "memory:read")
	verifier := oauth2.GenerateVerifier()
	tok, err := cfg.Exchange(ctx(), e.code(cfg, verifier), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.RotateSigningKey(ctx()); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.getWith("/api/v1/test/memory", tok.AccessToken); st != http.StatusOK {
		t.Fatalf("old token after rotation: %d", st)
	}
	provider, err := oidc.NewProvider(ctx(), e.URL)
	if err != nil {
		t.Fatal(err)
	}
	next, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	verifier2 := oauth2.GenerateVerifier()
	tok2, err := cfg.Exchange(ctx(), e.code(cfg, verifier2), oauth2.VerifierOption(verifier2))
	if err != nil {
		t.Fatal(err)
	}
	v := provider.Verifier(&oidc.Config{ClientID: id, Now: e.Clock.Now})
	if _, err := v.Verify(ctx(), tok.Extra("id_token").(string)); err != nil {
		t.Fatalf("old id token: %v", err)
	}
	if _, err := v.Verify(ctx(), tok2.Extra("id_token").(string)); err != nil {
		t.Fatalf("new id token: %v", err)
	}
	if st, _ := e.getWith("/api/v1/test/memory", next.AccessToken); st != http.StatusOK {
		t.Fatalf("new token: %d", st)
	}
}

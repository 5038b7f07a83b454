package identity

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

func oauthCode(err error) string {
	var oe *OAuthError
	if errors.As(err, &oe) {
		return oe.Code
	}
	return ""
}

func TestCheckRedirectURI(t *testing.T) {
	for _, tc := range []struct {
		uri  string
		code string
	}{
		{"https://app.example.com/cb", ""},
		{"http://127.0.0.1:9999/cb", ""},
		{"http://[::1]/cb", ""},
		{"http://localhost:3000/cb", ""},
		{"http://app.example.com/cb", "invalid_redirect_uri"},
		{"https://app.example.com/cb#frag", "invalid_redirect_uri"},
		{"https://app.example.com/cb#", "invalid_redirect_uri"},
		{"/relative", "invalid_redirect_uri"},
		{"javascript:alert(1)", "invalid_redirect_uri"},
		{"https://user:pw@app.example.com/cb", "invalid_redirect_uri"},
		{"ftp://app.example.com/cb", "invalid_redirect_uri"},
	} {
		if got := oauthCode(CheckRedirectURI(tc.uri)); got != tc.code {
			t.Errorf("%s: got %q, want %q", tc.uri, got, tc.code)
		}
	}
}

func TestMatchRedirectURI(t *testing.T) {
	reg := []string{"https://app.example.com/cb", "http://127.0.0.1/cb"}
	for _, tc := range []struct {
		uri  string
		want bool
	}{
		{"https://app.example.com/cb", true},
		{"https://app.example.com/cb/", false},
		{"https://app.example.com/cb?x=1", false},
		{"https://app.example.com:8443/cb", false},
		{"https://evil.example.com/cb", false},
		{"http://127.0.0.1:51234/cb", true},
		{"http://127.0.0.1:51234/other", false},
		{"http://localhost:51234/cb", false},
	} {
		if got := MatchRedirectURI(reg, tc.uri); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.uri, got, tc.want)
		}
	}
}

func challengeOf(v string) string {
	s := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(s[:])
}

func TestPKCE(t *testing.T) {
	v := strings.Repeat("a", 43)
	if err := CheckCodeChallenge(challengeOf(v), "S256"); err != nil {
		t.Fatal(err)
	}
	if oauthCode(CheckCodeChallenge(v, "plain")) != "invalid_request" {
		t.Error("plain accepted")
	}
	if oauthCode(CheckCodeChallenge("", "S256")) != "invalid_request" {
		t.Error("missing challenge accepted")
	}
	if err := VerifyPKCE(v, challengeOf(v)); err != nil {
		t.Fatal(err)
	}
	if oauthCode(VerifyPKCE(strings.Repeat("b", 43), challengeOf(v))) != "invalid_grant" {
		t.Error("wrong verifier accepted")
	}
	if oauthCode(VerifyPKCE("short", challengeOf("short"))) != "invalid_grant" {
		t.Error("short verifier accepted")
	}
}

func TestClientMetadataNormalize(t *testing.T) {
	m, err := ClientMetadata{RedirectURIs: []string{"https://a.example/cb"}}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if m.TokenEndpointAuthMethod != AuthSecretBasic || len(m.GrantTypes) != 1 || m.Scope != "agent:read agent:write email memory:read memory:write openid profile vector:search vector:write" {
		t.Fatalf("defaults: %+v", m)
	}
	for _, bad := range []ClientMetadata{
		{},
		{RedirectURIs: []string{"http://a.example/cb"}},
		{RedirectURIs: []string{"https://a.example/cb"}, GrantTypes: []string{"password"}},
		{RedirectURIs: []string{"https://a.example/cb"}, GrantTypes: []string{"implicit"}},
		{RedirectURIs: []string{"https://a.example/cb"}, ResponseTypes: []string{"token"}},
		{RedirectURIs: []string{"https://a.example/cb"}, TokenEndpointAuthMethod: "private_key_jwt"},
		{RedirectURIs: []string{"https://a.example/cb"}, Scope: "openid admin"},
	} {
		if _, err := bad.Normalize(); oauthCode(err) == "" {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestResource(t *testing.T) {
	base := "https://api.strata.test"
	if r, err := CheckResource("", base); err != nil || r != base {
		t.Fatal(r, err)
	}
	if r, err := CheckResource(base+"/api/v1/public/memory/v2/", base); err != nil || r != base+"/api/v1/public/memory/v2" {
		t.Fatal(r, err)
	}
	for _, bad := range []string{"https://other.test", "https://api.strata.test.evil.com", "urn:x", base + "#f"} {
		if _, err := CheckResource(bad, base); oauthCode(err) != "invalid_target" {
			t.Errorf("%s accepted", bad)
		}
	}
	if !AudienceCovers(base, base, "/api/v1/auth/me") || !AudienceCovers(base+"/api/v1/public/memory/v2", base, "/api/v1/public/memory/v2/recall") {
		t.Error("audience should cover")
	}
	if AudienceCovers(base+"/api/v1/public/memory/v2", base, "/api/v1/auth/me") || AudienceCovers(base+"/api/v1/public/memory/v2", base, "/api/v1/public/memory/v20") {
		t.Error("audience should not cover")
	}
}

func TestGrantCodeAndRefresh(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v := strings.Repeat("v", 50)
	g := &Grant{}
	g.Apply(&OAuthAuthorizationGranted{GrantID: "g", ClientID: "c", UserID: "u", Scope: "email openid", RedirectURI: "https://a/cb",
		CodeHash: "h", CodeChallenge: challengeOf(v), CodeExpiresAt: now.Add(OAuthCodeTTL)})
	if d, err := g.RedeemCode("other", "https://a/cb", v, now); d != CodeRefused || err == nil {
		t.Fatal("other client")
	}
	if d, _ := g.RedeemCode("c", "https://a/cb2", v, now); d != CodeRefused {
		t.Fatal("redirect mismatch")
	}
	if d, _ := g.RedeemCode("c", "https://a/cb", v, now.Add(OAuthCodeTTL)); d != CodeRefused {
		t.Fatal("expired")
	}
	if d, err := g.RedeemCode("c", "https://a/cb", v, now); d != CodeOK || err != nil {
		t.Fatal(d, err)
	}
	g.Apply(&OAuthCodeExchanged{GrantID: "g", RefreshHash: "r1", RefreshExpiresAt: now.Add(OAuthRefreshTTL)})
	if d, _ := g.RedeemCode("c", "https://a/cb", v, now); d != CodeReused {
		t.Fatal("second use must be reuse")
	}
	if d, sc, err := g.UseRefresh("c", "r1", "", 0, now); d != RefreshOK || sc != "email openid" || err != nil {
		t.Fatal(d, sc, err)
	}
	if d, _, _ := g.UseRefresh("c", "r1", "profile", 0, now); d != RefreshRefused {
		t.Fatal("widening scope")
	}
	if d, sc, _ := g.UseRefresh("c", "r1", "openid", 0, now); d != RefreshOK || sc != "openid" {
		t.Fatal("narrowing scope", sc)
	}
	g.Apply(&OAuthTokenRefreshed{GrantID: "g", PreviousHash: "r1", RefreshHash: "r2", RefreshExpiresAt: now.Add(OAuthRefreshTTL), Scope: "openid"})
	if d, _, _ := g.UseRefresh("c", "r1", "", 0, now); d != RefreshReused {
		t.Fatal("spent token must be reuse")
	}
	if d, _, _ := g.UseRefresh("c", "r2", "", 1, now); d != RefreshRefused {
		t.Fatal("password changed")
	}
	g.Apply(&OAuthGrantRevoked{GrantID: "g", Reason: RevokeRefreshReused})
	if d, _, _ := g.UseRefresh("c", "r2", "", 0, now); d != RefreshRefused {
		t.Fatal("revoked grant")
	}
}

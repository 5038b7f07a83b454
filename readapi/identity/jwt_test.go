package identity_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
)

// The harness's token settings.
const (
	testAudience = "strata"
	tokenTTL     = 28800 * time.Second
)

// send is e.call for subtests and goroutines: it fails t (not e.t), sends
// body as is with the given content type ("" for none) and also returns the
// raw body.
func send(t testing.TB, e *env, method, path, contentType string, body io.Reader, headers ...string) (int, map[string]any, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	out := map[string]any{}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	}
	return resp.StatusCode, out, resp.Header, raw
}

// postJSON sends v as a JSON body.
func postJSON(t testing.TB, e *env, path string, v any, headers ...string) (int, map[string]any, http.Header) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	st, out, h, _ := send(t, e, http.MethodPost, path, "application/json", bytes.NewReader(b), headers...)
	return st, out, h
}

// login signs in with the harness password and returns the access token.
func login(t testing.TB, e *env, email string) string {
	t.Helper()
	st, out, _ := postJSON(t, e, "/api/v1/auth/login", map[string]any{"email": email, "password": goodPassword})
	if st != http.StatusOK {
		t.Fatalf("login %s: %d %v", email, st, out)
	}
	return out["access_token"].(string)
}

// fetchJWKS reads the JWKS over HTTP and parses it with jwx.
func fetchJWKS(t testing.TB, e *env) jwk.Set {
	t.Helper()
	st, _, h, raw := send(t, e, http.MethodGet, "/.well-known/jwks.json", "", nil)
	if st != http.StatusOK {
		t.Fatalf("GET jwks: %d %s", st, raw)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("jwks Content-Type = %q", ct)
	}
	set, err := jwk.Parse(raw)
	if err != nil {
		t.Fatalf("jwk.Parse(%s): %v", raw, err)
	}
	for i := range set.Len() {
		k, _ := set.Key(i)
		kid, ok := k.KeyID()
		if !ok || kid == "" {
			t.Errorf("JWKS key %d has no kid: %s", i, raw)
		}
		if alg, ok := k.Algorithm(); !ok || alg.String() != "RS256" {
			t.Errorf("JWKS key %s: alg = %v, want RS256", kid, alg)
		}
		if use, ok := k.KeyUsage(); !ok || use != "sig" {
			t.Errorf("JWKS key %s: use = %q, want sig", kid, use)
		}
		if k.KeyType() != jwa.RSA() {
			t.Errorf("JWKS key %s: kty = %v, want RSA", kid, k.KeyType())
		}
		if priv, err := jwk.IsPrivateKey(k); err != nil || priv {
			t.Errorf("JWKS key %s is private (%v, %v): %s", kid, priv, err, raw)
		}
	}
	return set
}

// kidsOf lists the kids of set, sorted.
func kidsOf(set jwk.Set) []string {
	var out []string
	for i := range set.Len() {
		k, _ := set.Key(i)
		kid, _ := k.KeyID()
		out = append(out, kid)
	}
	slices.Sort(out)
	return out
}

// headerOf returns the protected header of a compact JWS, parsed by jwx.
func headerOf(t testing.TB, token string) jws.Headers {
	t.Helper()
	msg, err := jws.ParseString(token)
	if err != nil {
		t.Fatalf("jws.ParseString: %v", err)
	}
	sigs := msg.Signatures()
	if len(sigs) != 1 {
		t.Fatalf("token has %d signatures", len(sigs))
	}
	return sigs[0].ProtectedHeaders()
}

func kidOf(t testing.TB, token string) string {
	t.Helper()
	kid, ok := headerOf(t, token).KeyID()
	if !ok || kid == "" {
		t.Fatalf("token has no kid")
	}
	return kid
}

// verifyJWX parses and validates token with jwx against set as of the
// env's clock.
func verifyJWX(e *env, token string, set jwk.Set, opts ...jwt.ParseOption) (jwt.Token, error) {
	base := []jwt.ParseOption{jwt.WithKeySet(set), jwt.WithValidate(true), jwt.WithIssuer(e.url),
		jwt.WithAudience(testAudience), jwt.WithClock(jwt.ClockFunc(e.clock.Now))}
	return jwt.ParseString(token, append(base, opts...)...)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func b64JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b64(b)
}

// claimsOf decodes a token's payload without verifying it (numbers kept exact).
func claimsOf(t testing.TB, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// with returns a copy of claims with the changes applied (nil deletes).
func with(claims map[string]any, changes map[string]any) map[string]any {
	out := maps.Clone(claims)
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// signJWS signs claims with jwx (alg, key) and the given extra protected
// headers (typ JWT is always set).
func signJWS(t testing.TB, alg jwa.SignatureAlgorithm, key any, claims map[string]any, header map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	if err := h.Set(jws.TypeKey, "JWT"); err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if err := h.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	out, err := jws.Sign(payload, jws.WithKey(alg, key, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatalf("jws.Sign(%v): %v", alg, err)
	}
	return string(out)
}

// testMaster is the harness's master key, built the same way.
func testMaster(t testing.TB) *cmd.MasterKey {
	t.Helper()
	m, err := cmd.NewMasterKey(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// serverKey unseals the server's signing key kid from the directory, so a
// test can mint tokens the server's own key signed with claims of its choice.
func serverKey(t testing.TB, e *env, kid string) *rsa.PrivateKey {
	t.Helper()
	m := testMaster(t)
	for _, k := range e.svc.Directory().SigningKeys() {
		if k.KeyID != kid {
			continue
		}
		der, err := m.Open(k.SealedPrivate)
		if err != nil {
			t.Fatal(err)
		}
		priv, err := x509.ParsePKCS8PrivateKey(der)
		if err != nil {
			t.Fatal(err)
		}
		return priv.(*rsa.PrivateKey)
	}
	t.Fatalf("no signing key %s", kid)
	return nil
}

// expect401 asserts that token is refused with 401 and a Bearer challenge on
// both the test endpoint and /api/v1/auth/me.
func expect401(t *testing.T, e *env, headers ...string) {
	t.Helper()
	for _, path := range []string{"/test/whoami", "/api/v1/auth/me"} {
		st, body, h, raw := send(t, e, http.MethodGet, path, "", nil, headers...)
		if st != http.StatusUnauthorized {
			t.Errorf("GET %s: status %d, want 401: %s", path, st, raw)
			continue
		}
		if ch := h.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Bearer") {
			t.Errorf("GET %s: WWW-Authenticate = %q, want a Bearer challenge", path, ch)
		}
		if ct := h.Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("GET %s: Content-Type = %q", path, ct)
		}
		if body["status"] != float64(401) || body["code"] != "unauthenticated" {
			t.Errorf("GET %s: body %s", path, raw)
		}
	}
}

// expect200 asserts that token is accepted on both endpoints and returns the
// user id whoami saw.
func expect200(t *testing.T, e *env, token string) string {
	t.Helper()
	st, body, _, raw := send(t, e, http.MethodGet, "/test/whoami", "", nil, bearerH(token)...)
	if st != http.StatusOK {
		t.Fatalf("GET /test/whoami: %d %s", st, raw)
	}
	if body["method"] != "jwt" {
		t.Errorf("whoami method = %v", body["method"])
	}
	if st, _, _, raw := send(t, e, http.MethodGet, "/api/v1/auth/me", "", nil, bearerH(token)...); st != http.StatusOK {
		t.Errorf("GET /api/v1/auth/me: %d %s", st, raw)
	}
	return body["user_id"].(string)
}

func TestJWTVerifiesWithIndependentLibrary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	st, reg, _ := postJSON(t, e, "/api/v1/auth/register",
		map[string]any{"email": "jwks@example.com", "password": goodPassword, "full_name": "Jay Dub"})
	if st != http.StatusCreated {
		t.Fatalf("register: %d %v", st, reg)
	}
	token := reg["access_token"].(string)
	set := fetchJWKS(t, e)
	if set.Len() != 1 {
		t.Fatalf("JWKS has %d keys, want 1", set.Len())
	}

	tok, err := verifyJWX(e, token, set)
	if err != nil {
		t.Fatalf("jwx rejects the server's token: %v", err)
	}
	sub, _ := tok.Subject()
	if _, err := uuid.Parse(sub); err != nil || sub != reg["id"] {
		t.Errorf("sub = %q, want the register id %v (a UUID)", sub, reg["id"])
	}
	var email, role string
	if err := tok.Get("email", &email); err != nil || email != "jwks@example.com" {
		t.Errorf("email = %q (%v)", email, err)
	}
	if err := tok.Get("role", &role); err != nil || role != ident.RoleUser {
		t.Errorf("role = %q (%v)", role, err)
	}
	iat, okI := tok.IssuedAt()
	exp, okE := tok.Expiration()
	if !okI || !okE || exp.Sub(iat) != tokenTTL {
		t.Errorf("exp - iat = %v (iat %v, exp %v), want %v", exp.Sub(iat), iat, exp, tokenTTL)
	}
	if !iat.Equal(e.clock.Now()) {
		t.Errorf("iat = %v, want the clock's %v", iat, e.clock.Now())
	}
	if jti, ok := tok.JwtID(); !ok || jti == "" {
		t.Errorf("jti missing")
	}
	if iss, _ := tok.Issuer(); iss != e.url {
		t.Errorf("iss = %q", iss)
	}
	if aud, _ := tok.Audience(); !slices.Equal(aud, []string{testAudience}) {
		t.Errorf("aud = %v", aud)
	}
	var sv any
	if err := tok.Get("sv", &sv); err != nil {
		t.Errorf("sv missing: %v", err)
	}
	wantClaims := []string{"aud", "email", "exp", "iat", "iss", "jti", "role", "sub", "sv"}
	if got := slices.Sorted(maps.Keys(claimsOf(t, token))); !slices.Equal(got, wantClaims) {
		t.Errorf("claims = %v, want %v", got, wantClaims)
	}

	h := headerOf(t, token)
	if alg, ok := h.Algorithm(); !ok || alg != jwa.RS256() {
		t.Errorf("header alg = %v, want RS256", alg)
	}
	kid, ok := h.KeyID()
	if !ok {
		t.Fatal("header has no kid")
	}
	if _, found := set.LookupKeyID(kid); !found {
		t.Errorf("kid %q is not in the JWKS %v", kid, kidsOf(set))
	}

	// jwx's validation is really on: the same token fails a wrong audience,
	// a wrong issuer, and a clock past its expiry.
	if _, err := verifyJWX(e, token, set, jwt.WithAudience("someone-else")); err == nil {
		t.Error("jwx accepted a wrong audience; the check above proves nothing")
	}
	if _, err := verifyJWX(e, token, set, jwt.WithIssuer("http://evil.test")); err == nil {
		t.Error("jwx accepted a wrong issuer")
	}
	late := jwt.WithClock(jwt.ClockFunc(func() time.Time { return e.clock.Now().Add(tokenTTL + time.Minute) }))
	if _, err := verifyJWX(e, token, set, late); err == nil {
		t.Error("jwx accepted an expired token")
	}
	if got := expect200(t, e, token); got != reg["id"] {
		t.Errorf("whoami user_id = %v, want %v", got, reg["id"])
	}
}

func TestJWTForgeriesAreRejected(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	victimID, token := e.register("victim@example.com")
	otherID, _ := e.register("other@example.com")
	set := fetchJWKS(t, e)
	kid := kidOf(t, token)
	claims := claimsOf(t, token)
	parts := strings.Split(token, ".")

	// The server's public key, as published, in the forms an attacker would
	// try as an HMAC secret.
	pubJWK, _ := set.LookupKeyID(kid)
	var pub rsa.PublicKey
	if err := jwk.Export(pubJWK, &pub); err != nil {
		t.Fatal(err)
	}
	pkix, err := x509.MarshalPKIXPublicKey(&pub)
	if err != nil {
		t.Fatal(err)
	}
	pkixPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix})
	pkcs1PEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&pub)})
	jwkJSON, err := json.Marshal(pubJWK)
	if err != nil {
		t.Fatal(err)
	}

	foreign, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	server := serverKey(t, e, kid)
	now := e.clock.Now().Unix()

	// Positive controls: tokens this test mints with the server's own key
	// are accepted, so each refusal below is down to the one thing changed.
	t.Run("control: re-signed with the server key", func(t *testing.T) {
		if got := expect200(t, e, signJWS(t, jwa.RS256(), server, claims, map[string]any{"kid": kid})); got != victimID {
			t.Errorf("user_id = %s, want %s", got, victimID)
		}
		fresh := with(claims, map[string]any{"jti": "fresh-jti", "iat": now - 60, "exp": now + 600})
		expect200(t, e, signJWS(t, jwa.RS256(), server, fresh, map[string]any{"kid": kid}))
	})
	t.Run("control: the foreign-key forgery is otherwise valid", func(t *testing.T) {
		forged := signJWS(t, jwa.RS256(), foreign, claims, map[string]any{"kid": kid})
		if _, err := jwt.ParseString(forged, jwt.WithKey(jwa.RS256(), &foreign.PublicKey), jwt.WithIssuer(e.url),
			jwt.WithAudience(testAudience), jwt.WithClock(jwt.ClockFunc(e.clock.Now))); err != nil {
			t.Fatalf("forged token does not verify with its own key: %v", err)
		}
		if _, err := verifyJWX(e, forged, set); err == nil {
			t.Fatal("jwx accepts the forged token against the server's JWKS")
		}
	})

	admin := with(claims, map[string]any{"role": ident.RoleAdmin})
	noneHeader := b64JSON(t, map[string]any{"alg": "none", "typ": "JWT"})
	noneKidHeader := b64JSON(t, map[string]any{"alg": "none", "typ": "JWT", "kid": kid})
	hs := func(secret []byte) string {
		return signJWS(t, jwa.HS256(), secret, claims, map[string]any{"kid": kid})
	}
	cases := []struct {
		name    string
		headers []string
	}{
		// Payload changed, original header and signature kept.
		{"payload role ADMIN, signature kept", bearerH(parts[0] + "." + b64JSON(t, admin) + "." + parts[2])},
		{"payload sub of another user, signature kept", bearerH(parts[0] + "." + b64JSON(t, with(claims, map[string]any{"sub": otherID})) + "." + parts[2])},
		{"payload exp extended, signature kept", bearerH(parts[0] + "." + b64JSON(t, with(claims, map[string]any{"exp": now + 10*86400})) + "." + parts[2])},
		{"signature corrupted", bearerH(parts[0] + "." + parts[1] + "." + b64([]byte("not the signature")))},
		{"signature removed", bearerH(parts[0] + "." + parts[1] + ".")},
		{"signature of another token", bearerH(parts[0] + "." + parts[1] + "." + strings.Split(login(t, e, "other@example.com"), ".")[2])},

		// Signed by a key the server never had.
		{"foreign key, server's kid", bearerH(signJWS(t, jwa.RS256(), foreign, claims, map[string]any{"kid": kid}))},
		{"foreign key, server's kid, role ADMIN", bearerH(signJWS(t, jwa.RS256(), foreign, admin, map[string]any{"kid": kid}))},
		{"foreign key, unknown kid", bearerH(signJWS(t, jwa.RS256(), foreign, claims, map[string]any{"kid": "k-attacker"}))},
		{"foreign key, no kid", bearerH(signJWS(t, jwa.RS256(), foreign, claims, nil))},
		{"server key, unknown kid", bearerH(signJWS(t, jwa.RS256(), server, claims, map[string]any{"kid": "k-attacker"}))},
		{"server key, no kid", bearerH(signJWS(t, jwa.RS256(), server, claims, nil))},

		// alg none.
		{"alg none, trailing dot", bearerH(noneHeader + "." + parts[1] + ".")},
		{"alg none, no trailing dot", bearerH(noneHeader + "." + parts[1])},
		{"alg none with kid, trailing dot", bearerH(noneKidHeader + "." + parts[1] + ".")},
		{"alg none, original signature kept", bearerH(noneKidHeader + "." + parts[1] + "." + parts[2])},
		{"alg None", bearerH(b64JSON(t, map[string]any{"alg": "None", "typ": "JWT"}) + "." + parts[1] + ".")},
		{"alg NONE", bearerH(b64JSON(t, map[string]any{"alg": "NONE", "typ": "JWT"}) + "." + parts[1] + ".")},

		// Algorithm confusion: HMAC keyed with the public key.
		{"HS256 keyed with the public key PEM (PKIX)", bearerH(hs(pkixPEM))},
		{"HS256 keyed with the public key PEM without newline", bearerH(hs(bytes.TrimSpace(pkixPEM)))},
		{"HS256 keyed with the public key PEM (PKCS1)", bearerH(hs(pkcs1PEM))},
		{"HS256 keyed with the public key DER", bearerH(hs(pkix))},
		{"HS256 keyed with the JWK JSON", bearerH(hs(jwkJSON))},

		// Other algorithms with the server's own key.
		{"RS512 with the server key", bearerH(signJWS(t, jwa.RS512(), server, claims, map[string]any{"kid": kid}))},
		{"PS256 with the server key", bearerH(signJWS(t, jwa.PS256(), server, claims, map[string]any{"kid": kid}))},

		// Wrong issuer or audience.
		{"wrong issuer, foreign key", bearerH(signJWS(t, jwa.RS256(), foreign, with(claims, map[string]any{"iss": "http://evil.test"}), map[string]any{"kid": kid}))},
		{"wrong audience, foreign key", bearerH(signJWS(t, jwa.RS256(), foreign, with(claims, map[string]any{"aud": []string{"other"}}), map[string]any{"kid": kid}))},
		{"wrong issuer, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"iss": "http://evil.test"}), map[string]any{"kid": kid}))},
		{"wrong audience, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"aud": []string{"other"}}), map[string]any{"kid": kid}))},
		{"audience as a string, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"aud": "other"}), map[string]any{"kid": kid}))},
		{"no issuer, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"iss": nil}), map[string]any{"kid": kid}))},
		{"no audience, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"aud": nil}), map[string]any{"kid": kid}))},

		// Other claims the server must insist on, with its own key.
		{"no exp, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"exp": nil}), map[string]any{"kid": kid}))},
		{"exp in the past, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"iat": now - 3600, "exp": now - 60}), map[string]any{"kid": kid}))},
		{"iat in the future, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"iat": now + 3600, "exp": now + 7200}), map[string]any{"kid": kid}))},
		{"nbf in the future, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"nbf": now + 3600}), map[string]any{"kid": kid}))},
		{"no sub, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"sub": nil}), map[string]any{"kid": kid}))},
		{"no jti, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"jti": nil}), map[string]any{"kid": kid}))},
		{"unknown sub, server key", bearerH(signJWS(t, jwa.RS256(), server, with(claims, map[string]any{"sub": uuid.NewString()}), map[string]any{"kid": kid}))},

		// Garbage.
		{"garbage word", bearerH("garbage")},
		{"three garbage parts", bearerH("a.b.c")},
		{"only dots", bearerH("..")},
		{"header only", bearerH(parts[0])},
		{"truncated token", bearerH(token[:len(token)-10])},
		{"token with a suffix", bearerH(token + "x")},
		{"two tokens", bearerH(token + "." + token)},
		{"non-base64 bytes", bearerH("eyJ!!!.@@@.###")},
		{"JSON instead of a token", bearerH(`{"alg":"none"}`)},
		{"lookalike API key", bearerH("sk_live_" + strings.Repeat("A", 40))},

		// Missing credential.
		{"empty bearer", []string{"Authorization", "Bearer "}},
		{"bearer without credential", []string{"Authorization", "Bearer"}},
		{"no Authorization header", nil},
		{"token under another scheme", []string{"Authorization", "Basic " + token}},
		{"token without scheme", []string{"Authorization", token}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { expect401(t, e, c.headers...) })
	}

	// The genuine token still works after all that, until it expires.
	t.Run("expired", func(t *testing.T) {
		expect200(t, e, token)
		e.clock.Advance(tokenTTL - time.Second)
		expect200(t, e, token)
		e.clock.Advance(time.Minute + time.Second) // now 28800 s + 1 min after issue
		expect401(t, e, bearerH(token)...)
		if _, err := verifyJWX(e, token, set); err == nil {
			t.Error("jwx still accepts the expired token")
		}
	})
}

func TestSigningKeyRotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, oldTok := e.register("rotate@example.com")
	oldKid := kidOf(t, oldTok)
	if got := kidsOf(fetchJWKS(t, e)); !slices.Equal(got, []string{oldKid}) {
		t.Fatalf("JWKS kids before rotation = %v, want [%s]", got, oldKid)
	}

	newKid, err := e.svc.RotateSigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if newKid == oldKid || newKid == "" {
		t.Fatalf("rotation returned kid %q (old %q)", newKid, oldKid)
	}
	rotatedAt := e.clock.Now()

	// The old token keeps working; new tokens carry the new kid.
	expect200(t, e, oldTok)
	newTok := login(t, e, "rotate@example.com")
	if got := kidOf(t, newTok); got != newKid {
		t.Errorf("token after rotation has kid %q, want %q", got, newKid)
	}
	expect200(t, e, newTok)
	set := fetchJWKS(t, e)
	if got, want := kidsOf(set), slices.Sorted(slices.Values([]string{oldKid, newKid})); !slices.Equal(got, want) {
		t.Fatalf("JWKS kids after rotation = %v, want %v", got, want)
	}
	for name, tok := range map[string]string{"old": oldTok, "new": newTok} {
		if _, err := verifyJWX(e, tok, set); err != nil {
			t.Errorf("jwx rejects the %s token against the rotated JWKS: %v", name, err)
		}
	}
	oldKey := serverKey(t, e, oldKid)

	// Just inside the retirement window the old key is still published...
	e.clock.Advance(tokenTTL + time.Minute - time.Second)
	if got := kidsOf(fetchJWKS(t, e)); len(got) != 2 {
		t.Errorf("JWKS 1 s before the old key's retirement = %v, want both kids", got)
	}
	// ...and past it only the new key is.
	e.clock.Advance(2 * time.Second)
	if e.clock.Now().Sub(rotatedAt) <= tokenTTL+time.Minute {
		t.Fatalf("clock not past the window")
	}
	set = fetchJWKS(t, e)
	if got := kidsOf(set); !slices.Equal(got, []string{newKid}) {
		t.Errorf("JWKS kids after the old key's tokens expired = %v, want [%s]", got, newKid)
	}
	expect401(t, e, bearerH(oldTok)...)
	expect401(t, e, bearerH(newTok)...) // issued at the rotation, so expired as well

	// The retired key no longer verifies anything, even a freshly dated token.
	now := e.clock.Now().Unix()
	fresh := with(claimsOf(t, oldTok), map[string]any{"jti": "after-retirement", "iat": now, "exp": now + 600})
	expect401(t, e, bearerH(signJWS(t, jwa.RS256(), oldKey, fresh, map[string]any{"kid": oldKid}))...)

	// A fresh login is signed by the new key and verifies against the JWKS.
	latest := login(t, e, "rotate@example.com")
	if got := kidOf(t, latest); got != newKid {
		t.Errorf("latest token kid = %q, want %q", got, newKid)
	}
	expect200(t, e, latest)
	if _, err := verifyJWX(e, latest, set); err != nil {
		t.Errorf("jwx rejects the latest token: %v", err)
	}
}

package oauth_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// authURL builds an authorization URL by hand, so tests can break any part.
func (e *env) authURL(params map[string]string) string {
	q := url.Values{}
	for k, v := range params {
		if v != "" {
			q.Set(k, v)
		}
	}
	return e.URL + "/oauth/authorize?" + q.Encode()
}

func okParams(id string) map[string]string {
	return map[string]string{"response_type": "code", "client_id": id, "redirect_uri": callback, "scope": "openid",
		"state": "xyz", "code_challenge": oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier()), "code_challenge_method": "S256"}
}

func with(m map[string]string, kv ...string) map[string]string {
	c := map[string]string{}
	for k, v := range m {
		c[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i]] = kv[i+1]
	}
	return c
}

// TestAuthorizeRefusals: requests with a bad client or redirect URI get an
// error page and are never redirected; other errors go back to the client
// with error, state and iss.
func TestAuthorizeRefusals(t *testing.T) {
	e := newEnv(t)
	id, _ := e.client(nil)
	good := okParams(id)
	pages := map[string]map[string]string{
		"unknown client":                  with(good, "client_id", "cl_nobody"),
		"missing client":                  with(good, "client_id", ""),
		"redirect to another host":        with(good, "redirect_uri", "https://evil.example/callback"),
		"redirect with another path":      with(good, "redirect_uri", "http://127.0.0.1:9/callback/../evil"),
		"redirect with a fragment":        with(good, "redirect_uri", callback+"#x"),
		"redirect to a look-alike host":   with(good, "redirect_uri", "http://127.0.0.1.evil.example:9/callback"),
		"redirect with userinfo":          with(good, "redirect_uri", "http://evil.example@127.0.0.1:9/callback"),
		"redirect missing":                with(good, "redirect_uri", ""),
		"redirect with an added query":    with(good, "redirect_uri", callback+"?next=https://evil.example"),
		"redirect on localhost not 127.0": with(good, "redirect_uri", "http://localhost:9/callback"),
	}
	for name, p := range pages {
		t.Run(name, func(t *testing.T) {
			pg := e.browser().get(e.authURL(p))
			if pg.status != http.StatusBadRequest || pg.header.Get("Location") != "" || !strings.Contains(pg.body, "Invalid authorization request") {
				t.Fatalf("want an error page, got %d Location=%q", pg.status, pg.header.Get("Location"))
			}
		})
	}
	redirects := map[string]struct {
		params map[string]string
		code   string
	}{
		"missing PKCE":           {with(good, "code_challenge", "", "code_challenge_method", ""), "invalid_request"},
		"plain PKCE":             {with(good, "code_challenge", strings.Repeat("a", 43), "code_challenge_method", "plain"), "invalid_request"},
		"PKCE without a method":  {with(good, "code_challenge_method", ""), "invalid_request"},
		"implicit grant":         {with(good, "response_type", "token"), "unsupported_response_type"},
		"hybrid flow":            {with(good, "response_type", "code id_token"), "unsupported_response_type"},
		"unknown scope":          {with(good, "scope", "openid admin"), "invalid_scope"},
		"foreign resource":       {with(good, "resource", "https://evil.example/api"), "invalid_target"},
		"prompt none signed out": {with(good, "prompt", "none"), "login_required"},
	}
	for name, tc := range redirects {
		t.Run(name, func(t *testing.T) {
			loc := e.browser().get(e.authURL(tc.params)).location(t)
			q := loc.Query()
			if loc.Host != "127.0.0.1:9" || q.Get("error") != tc.code || q.Get("state") != "xyz" || q.Get("iss") != e.URL || q.Get("code") != "" {
				t.Fatalf("redirect %s", loc)
			}
		})
	}
	t.Run("repeated parameter", func(t *testing.T) {
		loc := e.browser().get(e.authURL(good) + "&scope=profile").location(t)
		if loc.Query().Get("error") != "invalid_request" {
			t.Fatalf("redirect %s", loc)
		}
	})
	t.Run("scope the client did not register", func(t *testing.T) {
		narrow, _ := e.client(map[string]any{"scope": "openid email"})
		loc := e.browser().get(e.authURL(with(okParams(narrow), "scope", "openid memory:write"))).location(t)
		if loc.Query().Get("error") != "invalid_scope" {
			t.Fatalf("redirect %s", loc)
		}
	})
}

// TestPagesAndForms: the pages forbid framing and caching, their forms need
// the CSRF token of the browser's own cookie, a tampered request in a form
// is checked again, and Deny answers access_denied.
func TestPagesAndForms(t *testing.T) {
	e := newEnv(t)
	id, _ := e.client(nil)
	b := e.browser()
	login := b.get(e.authURL(okParams(id)))
	if login.status != 200 || !strings.Contains(login.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
		login.header.Get("X-Frame-Options") != "DENY" || login.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("login page headers: %d %v", login.status, login.header)
	}
	for _, want := range []string{`<label for="email">Email</label>`, `<label for="password">Password</label>`, `type="submit">Sign in</button>`} {
		if !strings.Contains(login.body, want) {
			t.Fatalf("login page lacks %s", want)
		}
	}
	creds := func(f url.Values) url.Values {
		f.Set("email", e.email)
		f.Set("password", password)
		return f
	}
	t.Run("CSRF token missing", func(t *testing.T) {
		f := creds(login.hidden())
		f.Del("csrf_token")
		if p := b.post("/oauth/login", f); p.status != http.StatusForbidden || p.header.Get("Location") != "" {
			t.Fatalf("got %d", p.status)
		}
	})
	t.Run("CSRF token of another browser", func(t *testing.T) {
		other := e.browser().get(e.authURL(okParams(id))).hidden()
		f := creds(login.hidden())
		f.Set("csrf_token", other.Get("csrf_token"))
		if p := b.post("/oauth/login", f); p.status != http.StatusForbidden {
			t.Fatalf("got %d", p.status)
		}
	})
	t.Run("tampered redirect in the form", func(t *testing.T) {
		f := creds(login.hidden())
		q, _ := url.ParseQuery(f.Get("request"))
		q.Set("redirect_uri", "https://evil.example/cb")
		f.Set("request", q.Encode())
		if p := b.post("/oauth/login", f); p.status != http.StatusBadRequest || p.header.Get("Location") != "" {
			t.Fatalf("got %d %s", p.status, p.header.Get("Location"))
		}
	})
	t.Run("wrong password shows the page again", func(t *testing.T) {
		f := login.hidden()
		f.Set("email", e.email)
		f.Set("password", "Wr0ng-password")
		p := b.post("/oauth/login", f)
		if p.status != http.StatusUnauthorized || !strings.Contains(p.body, "Incorrect email or password") {
			t.Fatalf("got %d", p.status)
		}
	})
	consent := b.post("/oauth/login", creds(login.hidden()))
	if consent.status != 200 || !strings.Contains(consent.body, `value="deny"`) || !strings.Contains(consent.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Fatalf("consent page: %d", consent.status)
	}
	t.Run("consent without CSRF token", func(t *testing.T) {
		f := consent.hidden()
		f.Del("csrf_token")
		f.Set("decision", "allow")
		if p := b.post("/oauth/consent", f); p.status != http.StatusForbidden {
			t.Fatalf("got %d", p.status)
		}
	})
	t.Run("signed-in browser skips the sign-in page", func(t *testing.T) {
		if p := b.get(e.authURL(okParams(id))); !strings.Contains(p.body, `value="allow"`) {
			t.Fatalf("got %d", p.status)
		}
	})
	t.Run("deny", func(t *testing.T) {
		f := consent.hidden()
		f.Set("decision", "deny")
		q := b.post("/oauth/consent", f).location(t).Query()
		if q.Get("error") != "access_denied" || q.Get("state") != "xyz" || q.Get("iss") != e.URL || q.Get("code") != "" {
			t.Fatalf("deny: %v", q)
		}
	})
	t.Run("consent without a session goes back to sign-in", func(t *testing.T) {
		other := e.browser()
		f := other.get(e.authURL(okParams(id))).hidden()
		f.Set("decision", "allow")
		p := other.post("/oauth/consent", f)
		if p.status != http.StatusOK || !strings.Contains(p.body, `name="password"`) {
			t.Fatalf("got %d", p.status)
		}
	})
}

// TestTokenRefusals: one test per token-endpoint rule.
func TestTokenRefusals(t *testing.T) {
	e := newEnv(t)
	id, secret := e.client(nil)
	cfg := e.config(id, secret, "openid", "memory:read")
	exchange := func(code, verifier, redirect string) (int, map[string]any) {
		st, body, _ := e.form("/api/v1/oauth/token", id, secret, url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {verifier}, "redirect_uri": {redirect}})
		return st, body
	}
	fresh := func() (string, string) {
		v := oauth2.GenerateVerifier()
		return e.code(cfg, v), v
	}
	t.Run("wrong verifier", func(t *testing.T) {
		code, _ := fresh()
		if st, body := exchange(code, oauth2.GenerateVerifier(), callback); st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("missing verifier", func(t *testing.T) {
		code, _ := fresh()
		if st, body := exchange(code, "", callback); st != 400 || body["error"] != "invalid_request" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("mismatched redirect URI", func(t *testing.T) {
		code, v := fresh()
		if st, body := exchange(code, v, "http://127.0.0.1:9/other"); st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("expired code", func(t *testing.T) {
		code, v := fresh()
		e.Clock.Advance(10*time.Minute + time.Second)
		if st, body := exchange(code, v, callback); st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("reused code revokes the first tokens", func(t *testing.T) {
		code, v := fresh()
		st, first := exchange(code, v, callback)
		if st != 200 {
			t.Fatalf("%d %v", st, first)
		}
		at := first["access_token"].(string)
		if st, _ := e.getWith("/api/v1/test/memory", at); st != 200 {
			t.Fatalf("first token: %d", st)
		}
		if st, body := exchange(code, v, callback); st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("second use: %d %v", st, body)
		}
		if st, _ := e.getWith("/api/v1/test/memory", at); st != http.StatusUnauthorized {
			t.Fatalf("first token after reuse: %d", st)
		}
		if _, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: first["refresh_token"].(string)}).Token(); err == nil {
			t.Fatal("refresh token survived code reuse")
		}
	})
	t.Run("concurrent double redemption", func(t *testing.T) {
		code, v := fresh()
		var wg sync.WaitGroup
		results := make([]int, 2)
		for i := range results {
			wg.Add(1)
			go func() { defer wg.Done(); results[i], _ = exchange(code, v, callback) }()
		}
		wg.Wait()
		if results[0]+results[1] != 600 {
			t.Fatalf("want one 200 and one 400, got %v", results)
		}
	})
	t.Run("code of another client", func(t *testing.T) {
		code, v := fresh()
		other, otherSecret := e.client(nil)
		st, body, _ := e.form("/api/v1/oauth/token", other, otherSecret, url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {v}, "redirect_uri": {callback}})
		if st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("wrong secret", func(t *testing.T) {
		code, v := fresh()
		st, body, h := e.form("/api/v1/oauth/token", id, "cs_wrong", url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {v}, "redirect_uri": {callback}})
		if st != 401 || body["error"] != "invalid_client" || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Basic") {
			t.Fatalf("%d %v %v", st, body, h)
		}
	})
	t.Run("unknown client", func(t *testing.T) {
		st, body, _ := e.form("/api/v1/oauth/token", "cl_nobody", "x", url.Values{"grant_type": {"authorization_code"}, "code": {"x"}})
		if st != 401 || body["error"] != "invalid_client" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("password and client credentials grants", func(t *testing.T) {
		for _, gt := range []string{"password", "client_credentials", "implicit"} {
			st, body, _ := e.form("/api/v1/oauth/token", id, secret, url.Values{"grant_type": {gt}, "username": {e.email}, "password": {password}})
			if st != 400 || body["error"] != "unsupported_grant_type" {
				t.Fatalf("%s: %d %v", gt, st, body)
			}
		}
	})
	t.Run("parameters in the query string", func(t *testing.T) {
		st, body, _ := e.form("/api/v1/oauth/token?grant_type=authorization_code&code=x", id, secret, url.Values{})
		if st != 400 || body["error"] != "invalid_request" {
			t.Fatalf("%d %v", st, body)
		}
	})
	t.Run("reused refresh token revokes the grant", func(t *testing.T) {
		code, v := fresh()
		tok, err := cfg.Exchange(ctx(), code, oauth2.VerifierOption(v))
		if err != nil {
			t.Fatal(err)
		}
		next, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
		if err != nil {
			t.Fatal(err)
		}
		st, body, _ := e.form("/api/v1/oauth/token", id, secret, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
		if st != 400 || body["error"] != "invalid_grant" {
			t.Fatalf("reuse: %d %v", st, body)
		}
		if _, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: next.RefreshToken}).Token(); err == nil {
			t.Fatal("the newest refresh token survived the reuse")
		}
		if st, _ := e.getWith("/api/v1/test/memory", next.AccessToken); st != http.StatusUnauthorized {
			t.Fatalf("access token after reuse: %d", st)
		}
	})
	t.Run("refresh cannot widen the scope", func(t *testing.T) {
		code, v := fresh()
		tok, _ := cfg.Exchange(ctx(), code, oauth2.VerifierOption(v))
		st, body, _ := e.form("/api/v1/oauth/token", id, secret, url.Values{"grant_type": {"refresh_token"},
			"refresh_token": {tok.RefreshToken}, "scope": {"openid memory:write"}})
		if st != 400 || body["error"] != "invalid_scope" {
			t.Fatalf("%d %v", st, body)
		}
	})
}

// TestAccessTokenRules: tokens in the query string are refused, tokens are
// bound to their resource, and a password change ends every grant.
func TestAccessTokenRules(t *testing.T) {
	e := newEnv(t)
	id, secret := e.client(nil)
	cfg := e.config(id, secret, "openid", "memory:read")
	v := oauth2.GenerateVerifier()
	tok, err := cfg.Exchange(ctx(), e.code(cfg, v), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("token in a query string", func(t *testing.T) {
		resp, err := http.Get(e.URL + "/api/v1/test/memory?access_token=" + url.QueryEscape(tok.AccessToken))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("got %d", resp.StatusCode)
		}
		resp, _ = http.Get(e.URL + "/oauth/userinfo?access_token=" + url.QueryEscape(tok.AccessToken))
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("userinfo: got %d", resp.StatusCode)
		}
	})
	t.Run("401 names the protected resource metadata", func(t *testing.T) {
		st, h := e.getWith("/api/v1/test/memory", "not-a-token")
		if st != 401 || !strings.Contains(h.Get("WWW-Authenticate"), `resource_metadata="`+e.URL+`/.well-known/oauth-protected-resource"`) {
			t.Fatalf("%d %v", st, h)
		}
	})
	t.Run("audience binding", func(t *testing.T) {
		v := oauth2.GenerateVerifier()
		code := e.code(cfg, v, oauth2.SetAuthURLParam("resource", e.URL+"/api/v1/other"))
		bound, err := cfg.Exchange(ctx(), code, oauth2.VerifierOption(v))
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := e.getWith("/api/v1/test/memory", bound.AccessToken); st != http.StatusUnauthorized {
			t.Fatalf("token bound elsewhere: %d", st)
		}
	})
	t.Run("password change ends the grant", func(t *testing.T) {
		st, body := e.postJSON("/api/v1/auth/login", map[string]any{"email": e.email, "password": password})
		if st != 200 {
			t.Fatal(st, body)
		}
		req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/auth/change-password",
			strings.NewReader(`{"current_password":"`+password+`","new_password":"N3w-password!"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+body["access_token"].(string))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("change password: %v %v", err, resp.StatusCode)
		}
		resp.Body.Close()
		if st, _ := e.getWith("/api/v1/test/memory", tok.AccessToken); st != http.StatusUnauthorized {
			t.Fatalf("access token after password change: %d", st)
		}
		if _, err := cfg.TokenSource(ctx(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
			t.Fatal("refresh after password change")
		}
	})
}

// TestRegistrationRefusals: RFC 7591 errors name the broken rule.
func TestRegistrationRefusals(t *testing.T) {
	e := newEnv(t)
	for name, tc := range map[string]struct {
		meta map[string]any
		code string
	}{
		"no redirect URIs":      {map[string]any{"client_name": "x"}, "invalid_redirect_uri"},
		"http on a public host": {map[string]any{"redirect_uris": []string{"http://app.example/cb"}}, "invalid_redirect_uri"},
		"fragment":              {map[string]any{"redirect_uris": []string{"https://app.example/cb#x"}}, "invalid_redirect_uri"},
		"implicit grant":        {map[string]any{"redirect_uris": []string{"https://app.example/cb"}, "grant_types": []string{"implicit"}}, "invalid_client_metadata"},
		"password grant":        {map[string]any{"redirect_uris": []string{"https://app.example/cb"}, "grant_types": []string{"password"}}, "invalid_client_metadata"},
		"unknown auth method":   {map[string]any{"redirect_uris": []string{"https://app.example/cb"}, "token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata"},
		"unknown scope":         {map[string]any{"redirect_uris": []string{"https://app.example/cb"}, "scope": "openid root"}, "invalid_client_metadata"},
		"wrong JSON type":       {map[string]any{"redirect_uris": "https://app.example/cb"}, "invalid_client_metadata"},
	} {
		t.Run(name, func(t *testing.T) {
			st, body := e.postJSON("/oauth/clients/register", tc.meta)
			if st != 400 || body["error"] != tc.code || body["error_description"] == "" {
				t.Fatalf("%d %v", st, body)
			}
		})
	}
}

package identity_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/identity"
)

// appRedirect is the front end's page the providers send the browser back to.
const appRedirect = "http://127.0.0.1:5173/auth/callback"

// socialEnv is the platform API with both providers configured.
type socialEnv struct {
	*env
	gh *codehostProvider
	li *networkProvider
}

func newSocialEnv(t *testing.T) *socialEnv {
	gh, li := newCodehostProvider(t), newNetworkProvider(t)
	e := newEnvWith(t, identity.Options{Social: cmd.SocialConfig{Codehost: gh.config(), Network: li.config()}})
	return &socialEnv{env: e, gh: gh, li: li}
}

// browser is a user agent with a cookie jar that does not follow redirects.
type browser struct {
	t testing.TB
	c *http.Client
}

func newBrowser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) get(u string) *http.Response {
	b.t.Helper()
	resp, err := b.c.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func (b *browser) postJSON(u string, body any) (int, map[string]any, http.Header) {
	b.t.Helper()
	raw, _ := json.Marshal(body)
	resp, err := b.c.Post(u, "application/json", bytes.NewReader(raw))
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	if err := json.Unmarshal(data, &out); err != nil {
		b.t.Fatalf("POST %s: %d %q", u, resp.StatusCode, data)
	}
	return resp.StatusCode, out, resp.Header
}

// authorize starts a sign-in with provider in b and lets the provider
// approve it: it returns the code and state the provider sent back.
func (e *socialEnv) authorize(b *browser, provider string) (code, state string) {
	e.t.Helper()
	start := b.get(e.url + "/api/v1/auth/" + provider + "/start?redirect_uri=" + url.QueryEscape(appRedirect))
	if start.StatusCode != http.StatusFound {
		e.t.Fatalf("start %s: %d", provider, start.StatusCode)
	}
	back := b.get(start.Header.Get("Location"))
	if back.StatusCode != http.StatusFound {
		e.t.Fatalf("provider authorization page: %d", back.StatusCode)
	}
	loc, err := url.Parse(back.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), appRedirect+"?") {
		e.t.Fatalf("provider sent the browser to %q", back.Header.Get("Location"))
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func (e *socialEnv) callback(b *browser, provider string, body map[string]any) (int, map[string]any, http.Header) {
	e.t.Helper()
	return b.postJSON(e.url+"/api/v1/auth/"+provider+"/callback", body)
}

// signIn runs a whole sign-in with provider in a fresh browser.
func (e *socialEnv) signIn(provider string) (int, map[string]any) {
	e.t.Helper()
	b := newBrowser(e.t)
	code, state := e.authorize(b, provider)
	st, body, _ := e.callback(b, provider, map[string]any{"code": code, "redirect_uri": appRedirect, "state": state})
	return st, body
}

func ghOctocat() ghAccount {
	return ghAccount{ID: 583231, Login: "octocat", Name: "The Octocat",
		AvatarURL: "https://avatars.githubusercontent.example/u/583231?v=4",
		Emails: []ghEmail{
			{Email: "octo-old@example.org", Primary: false, Verified: true},
			{Email: "Octocat@Example.com", Primary: true, Verified: true},
		}}
}

func liAda() liAccount {
	return liAccount{Sub: "782bbtaQ", Name: "Ada Lovelace", GivenName: "Ada", FamilyName: "Lovelace",
		Picture: "https://media.licdn.example/dms/image/ada.jpg", Email: "ada@example.com", EmailVerified: true}
}

func userOf(t testing.TB, body map[string]any) map[string]any {
	t.Helper()
	u, ok := body["user"].(map[string]any)
	if !ok {
		t.Fatalf("no user in %v", body)
	}
	return u
}

// expectMe checks that tok signs in as userID with email.
func (e *socialEnv) expectMe(tok, userID, email string) map[string]any {
	e.t.Helper()
	st, me, _ := e.call("GET", "/api/v1/auth/me", nil, bearerH(tok)...)
	if st != http.StatusOK || me["id"] != userID || me["email"] != email || me["email_verified"] != true {
		e.t.Fatalf("me: %d %v, want %s %s", st, me, userID, email)
	}
	return me
}

func TestSocialStartRedirectsToProviderWithStateCookie(t *testing.T) {
	e := newSocialEnv(t)
	for _, c := range []struct {
		provider, page, scope string
		clientID              string
		oidc                  bool
	}{
		{"codehost", e.gh.srv.URL + "/login/oauth/authorize", "user:email", e.gh.clientID, false},
		{"network", e.li.srv.URL + "/oauth/v2/authorization", "openid profile email", e.li.clientID, true},
	} {
		t.Run(c.provider, func(t *testing.T) {
			b := newBrowser(t)
			states := map[string]bool{}
			for range 2 {
				resp := b.get(e.url + "/api/v1/auth/" + c.provider + "/start?redirect_uri=" + url.QueryEscape(appRedirect))
				if resp.StatusCode != http.StatusFound {
					t.Fatalf("status %d", resp.StatusCode)
				}
				loc, err := url.Parse(resp.Header.Get("Location"))
				if err != nil {
					t.Fatal(err)
				}
				q := loc.Query()
				if page := loc.Scheme + "://" + loc.Host + loc.Path; page != c.page {
					t.Errorf("redirected to %s, want %s", page, c.page)
				}
				if q.Get("client_id") != c.clientID || q.Get("redirect_uri") != appRedirect || q.Get("scope") != c.scope {
					t.Errorf("authorization parameters %v", q)
				}
				state := q.Get("state")
				if len(state) < 32 || states[state] {
					t.Errorf("state %q is short or repeated", state)
				}
				states[state] = true
				if c.oidc {
					if q.Get("response_type") != "code" || len(q.Get("nonce")) < 32 || q.Get("nonce") == state {
						t.Errorf("OpenID Connect parameters %v", q)
					}
				} else if q.Has("nonce") || q.Has("response_type") {
					t.Errorf("OAuth app parameters %v", q)
				}
				var cookie *http.Cookie
				for _, ck := range resp.Cookies() {
					if ck.Name == "strata_"+c.provider+"_state" {
						cookie = ck
					}
				}
				if cookie == nil {
					t.Fatalf("no state cookie in %v", resp.Header["Set-Cookie"])
				}
				if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure ||
					cookie.Path != "/api/v1/auth/"+c.provider || cookie.MaxAge != 600 {
					t.Errorf("cookie attributes %+v", cookie)
				}
				if strings.Contains(cookie.Value, state) || strings.Contains(cookie.Value, "127.0.0.1") {
					t.Errorf("cookie is not sealed: %q", cookie.Value)
				}
			}
		})
	}
	for _, c := range []struct{ query, field string }{
		{"", "redirect_uri"},
		{"?redirect_uri=" + url.QueryEscape("http://app.example/cb"), "redirect_uri"},
		{"?redirect_uri=" + url.QueryEscape("/relative"), "redirect_uri"},
	} {
		if st, body, _ := e.call("GET", "/api/v1/auth/codehost/start"+c.query, nil); st != http.StatusBadRequest || body["field"] != c.field {
			t.Errorf("start%s: %d %v", c.query, st, body)
		}
	}
}

func TestCodehostSignInCreatesAccountThenSignsItIn(t *testing.T) {
	e := newSocialEnv(t)
	e.gh.signIn(ghOctocat())
	st, body := e.signIn("codehost")
	if st != http.StatusOK {
		t.Fatalf("callback: %d %v", st, body)
	}
	u := userOf(t, body)
	if body["token_type"] != "bearer" || body["access_token"] == "" || body["expires_in"] != nil {
		t.Errorf("result %v", body)
	}
	id, _ := u["id"].(string)
	if id == "" || u["email"] != "Octocat@Example.com" || u["name"] != "The Octocat" ||
		u["avatar_url"] != "https://avatars.githubusercontent.example/u/583231?v=4" || len(u) != 4 {
		t.Errorf("user %v", u)
	}
	me := e.expectMe(body["access_token"].(string), id, "Octocat@Example.com")
	if me["full_name"] != "The Octocat" || me["plan"] != "free" || me["organization_id"] == "" {
		t.Errorf("profile %v", me)
	}
	if acct, ok := e.svc.Directory().User(id); !ok || !acct.EmailVerified || acct.PasswordHash != "" {
		t.Errorf("account %+v", acct)
	}
	// The token endpoint was asked for JSON.
	e.gh.mu.Lock()
	accepts := e.gh.tokenAccepts
	e.gh.mu.Unlock()
	if len(accepts) != 1 || accepts[0] != "application/json" {
		t.Errorf("Accept at the token endpoint: %q", accepts)
	}

	st, again := e.signIn("codehost")
	if st != http.StatusOK || userOf(t, again)["id"] != id || again["access_token"] == body["access_token"] {
		t.Fatalf("second sign-in: %d %v", st, again)
	}
	// The account is found by its link, not its email: a new primary address
	// at the provider still signs in to it.
	a := ghOctocat()
	a.Emails = []ghEmail{{Email: "octocat@new.example", Primary: true, Verified: true}}
	e.gh.signIn(a)
	if st, third := e.signIn("codehost"); st != http.StatusOK || userOf(t, third)["id"] != id {
		t.Fatalf("sign-in after an email change: %d %v", st, third)
	}
	if n := countEvents(t, e.env, "identity.social_identity_linked"); n != 1 {
		t.Errorf("%d links, want 1", n)
	}
	if n := countEvents(t, e.env, "identity.user_registered"); n != 1 {
		t.Errorf("%d accounts, want 1", n)
	}
	// Without a password the account cannot sign in with one.
	if st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "octocat@example.com", "password": ""}); st == http.StatusOK {
		t.Errorf("password login of a social account: %d", st)
	}
}

func TestNetworkSignInCreatesAccountThenSignsItIn(t *testing.T) {
	e := newSocialEnv(t)
	e.li.signIn(liAda())
	st, body := e.signIn("network")
	if st != http.StatusOK {
		t.Fatalf("callback: %d %v", st, body)
	}
	u := userOf(t, body)
	if body["token_type"] != "bearer" || body["expires_in"] != float64(28800) {
		t.Errorf("result %v", body)
	}
	id, _ := u["id"].(string)
	if id == "" || u["email"] != "ada@example.com" || u["name"] != "Ada Lovelace" ||
		u["picture"] != "https://media.licdn.example/dms/image/ada.jpg" || len(u) != 4 {
		t.Errorf("user %v", u)
	}
	e.expectMe(body["access_token"].(string), id, "ada@example.com")
	st, again := e.signIn("network")
	if st != http.StatusOK || userOf(t, again)["id"] != id {
		t.Fatalf("second sign-in: %d %v", st, again)
	}
	if n := countEvents(t, e.env, "identity.user_registered"); n != 1 {
		t.Errorf("%d accounts, want 1", n)
	}
}

func TestSocialSignInLinksExistingPasswordAccount(t *testing.T) {
	e := newSocialEnv(t)
	id, _ := e.register("octocat@example.com")
	e.gh.signIn(ghOctocat()) // primary: Octocat@Example.com
	st, body := e.signIn("codehost")
	if st != http.StatusOK || userOf(t, body)["id"] != id || userOf(t, body)["email"] != "octocat@example.com" ||
		userOf(t, body)["name"] != "Test User" {
		t.Fatalf("codehost: %d %v, want account %s", st, body, id)
	}
	ada := liAda()
	ada.Email = "OCTOCAT@example.com"
	e.li.signIn(ada)
	st, body = e.signIn("network")
	if st != http.StatusOK || userOf(t, body)["id"] != id {
		t.Fatalf("network: %d %v, want account %s", st, body, id)
	}
	e.expectMe(body["access_token"].(string), id, "octocat@example.com")
	if acct, _ := e.svc.Directory().User(id); !acct.EmailVerified || acct.PasswordHash == "" {
		t.Errorf("account after linking %+v", acct)
	}
	// The password still works.
	if st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "octocat@example.com", "password": goodPassword}); st != http.StatusOK {
		t.Errorf("password login: %d", st)
	}
	if n := countEvents(t, e.env, "identity.user_registered"); n != 1 {
		t.Errorf("%d accounts, want 1", n)
	}
}

func TestSocialSignInRefusesDeactivatedAccount(t *testing.T) {
	e := newSocialEnv(t)
	id, _ := e.register("octocat@example.com")
	a, err := e.store.Append(context.Background(), eventstore.Stream{Type: ident.StreamUser, ID: id}, eventstore.AnyVersion,
		&ident.UserDeactivated{UserID: id, Reason: "test", At: e.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Directory().Sync(context.Background(), a.Last); err != nil {
		t.Fatal(err)
	}
	e.gh.signIn(ghOctocat())
	if st, body := e.signIn("codehost"); st != http.StatusForbidden || !strings.Contains(body["detail"].(string), "deactivated") {
		t.Fatalf("deactivated: %d %v", st, body)
	}
}

func TestSocialCodeRefusedByProvider(t *testing.T) {
	e := newSocialEnv(t)
	e.gh.signIn(ghOctocat())
	e.li.signIn(liAda())
	for _, provider := range []string{"codehost", "network"} {
		t.Run(provider, func(t *testing.T) {
			b := newBrowser(t)
			code, state := e.authorize(b, provider)
			st, body, _ := e.callback(b, provider, map[string]any{"code": code + "x", "redirect_uri": appRedirect, "state": state})
			detail, _ := body["detail"].(string)
			if st != http.StatusBadRequest || body["field"] != "code" || !strings.Contains(detail, "refused the code") {
				t.Fatalf("wrong code: %d %v", st, body)
			}
			// The right code still works once, and only once.
			if st, body, _ := e.callback(b, provider, map[string]any{"code": code, "redirect_uri": appRedirect, "state": state}); st != http.StatusOK {
				t.Fatalf("right code: %d %v", st, body)
			}
			b2 := newBrowser(t)
			_, state2 := e.authorize(b2, provider)
			if st, body, _ := e.callback(b2, provider, map[string]any{"code": code, "redirect_uri": appRedirect, "state": state2}); st != http.StatusBadRequest || body["field"] != "code" {
				t.Fatalf("used code: %d %v", st, body)
			}
		})
	}
}

func TestSocialProviderMisconfiguredOrDown(t *testing.T) {
	gh, li := newCodehostProvider(t), newNetworkProvider(t)
	ghCfg, liCfg := gh.config(), li.config()
	ghCfg.ClientSecret, liCfg.ClientSecret = "wrong-secret-1234", "wrong-secret-5678"
	e := &socialEnv{env: newEnvWith(t, identity.Options{Social: cmd.SocialConfig{Codehost: ghCfg, Network: liCfg}}), gh: gh, li: li}
	gh.signIn(ghOctocat())
	li.signIn(liAda())
	for _, provider := range []string{"codehost", "network"} {
		st, body := e.signIn(provider)
		detail, _ := body["detail"].(string)
		if st != http.StatusServiceUnavailable || !strings.Contains(detail, "client credentials") ||
			strings.Contains(detail, "wrong-secret") {
			t.Errorf("%s with a wrong secret: %d %v", provider, st, body)
		}
	}

	// Garbage from the token endpoint (HTTP 200 HTML).
	e2 := newSocialEnv(t)
	e2.gh.signIn(ghOctocat())
	e2.gh.mu.Lock()
	e2.gh.tokenGarbage = true
	e2.gh.mu.Unlock()
	if st, body := e2.signIn("codehost"); st != http.StatusServiceUnavailable {
		t.Errorf("garbage: %d %v", st, body)
	}

	// The provider is gone after the authorization page.
	e3 := newSocialEnv(t)
	e3.li.signIn(liAda())
	b := newBrowser(t)
	code, state := e3.authorize(b, "network")
	e3.li.srv.Close()
	st, body, _ := e3.callback(b, "network", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state})
	if detail, _ := body["detail"].(string); st != http.StatusServiceUnavailable || strings.Contains(detail, e3.li.srv.URL) {
		t.Errorf("provider down: %d %v", st, body)
	}
}

func TestSocialUnverifiedEmailIsRefused(t *testing.T) {
	e := newSocialEnv(t)
	gh := ghOctocat()
	gh.Emails = []ghEmail{{Email: "octocat@example.com", Primary: true, Verified: false}}
	e.gh.signIn(gh)
	st, body := e.signIn("codehost")
	if detail, _ := body["detail"].(string); st != http.StatusForbidden || !strings.Contains(detail, "has not verified the email") {
		t.Errorf("codehost: %d %v", st, body)
	}
	gh.Emails = nil // no address at all
	e.gh.signIn(gh)
	if st, body := e.signIn("codehost"); st != http.StatusForbidden {
		t.Errorf("codehost without emails: %d %v", st, body)
	}
	ada := liAda()
	ada.EmailVerified = false
	e.li.signIn(ada)
	st, body = e.signIn("network")
	if detail, _ := body["detail"].(string); st != http.StatusForbidden || !strings.Contains(detail, "has not verified the email") {
		t.Errorf("network: %d %v", st, body)
	}
	// Not even an existing account with that email is signed in.
	e.register("ada@example.com")
	if st, body := e.signIn("network"); st != http.StatusForbidden {
		t.Errorf("network with an existing account: %d %v", st, body)
	}
	if n := countEvents(t, e.env, "identity.social_identity_linked"); n != 0 {
		t.Errorf("%d links, want 0", n)
	}
}

func TestSocialCallbackChecksStateAgainstCookie(t *testing.T) {
	e := newSocialEnv(t)
	e.gh.signIn(ghOctocat())
	e.li.signIn(liAda())
	b := newBrowser(t)
	code, state := e.authorize(b, "codehost")
	for _, c := range []struct {
		name   string
		b      *browser
		body   map[string]any
		field  string
		detail string
	}{
		{"missing code", b, map[string]any{"redirect_uri": appRedirect, "state": state}, "code", "required"},
		{"missing redirect_uri", b, map[string]any{"code": code, "state": state}, "redirect_uri", "required"},
		{"missing state", b, map[string]any{"code": code, "redirect_uri": appRedirect}, "state", "required"},
		{"other state", b, map[string]any{"code": code, "redirect_uri": appRedirect, "state": state + "x"}, "state", "does not match"},
		{"no cookie (another browser)", newBrowser(t), map[string]any{"code": code, "redirect_uri": appRedirect, "state": state}, "state", "no state cookie"},
		{"other redirect_uri", b, map[string]any{"code": code, "redirect_uri": appRedirect + "2", "state": state}, "redirect_uri", "differs"},
		{"unknown field", b, map[string]any{"code": code, "redirect_uri": appRedirect, "state": state, "nonce": "x"}, "nonce", ""},
	} {
		st, body, _ := e.callback(c.b, "codehost", c.body)
		detail, _ := body["detail"].(string)
		if st != http.StatusBadRequest || body["field"] != c.field || !strings.Contains(detail, c.detail) {
			t.Errorf("%s: %d %v", c.name, st, body)
		}
	}
	// The codehost cookie is not the network's: a network callback with the
	// codehost state has no cookie.
	if st, body, _ := e.callback(b, "network", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state}); st != http.StatusBadRequest || body["field"] != "state" {
		t.Errorf("cross-provider: %d %v", st, body)
	}
	// A forged cookie is refused.
	forged := newBrowser(t)
	u, _ := url.Parse(e.url + "/api/v1/auth/codehost")
	forged.c.Jar.SetCookies(u, []*http.Cookie{{Name: "strata_codehost_state", Value: state, Path: "/api/v1/auth/codehost"}})
	if st, body, _ := e.callback(forged, "codehost", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state}); st != http.StatusBadRequest || body["field"] != "state" {
		t.Errorf("forged cookie: %d %v", st, body)
	}
	// After ten minutes the cookie no longer counts.
	e.clock.Advance(cmd.SocialStateTTL + time.Second)
	st, body, _ := e.callback(b, "codehost", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state})
	if detail, _ := body["detail"].(string); st != http.StatusBadRequest || body["field"] != "state" || !strings.Contains(detail, "10 minutes") {
		t.Errorf("expired: %d %v", st, body)
	}
	e.clock.Advance(-(cmd.SocialStateTTL + time.Second))
	// The right state signs in, and the cookie is spent.
	st, body, h := e.callback(b, "codehost", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state})
	if st != http.StatusOK || !strings.Contains(h.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("right state: %d %v %v", st, body, h["Set-Cookie"])
	}
	if st, body, _ := e.callback(b, "codehost", map[string]any{"code": code, "redirect_uri": appRedirect, "state": state}); st != http.StatusBadRequest || body["field"] != "state" {
		t.Errorf("replay: %d %v", st, body)
	}
}

func TestNetworkIDTokenIsVerified(t *testing.T) {
	e := newSocialEnv(t)
	e.li.signIn(liAda())
	foreign, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	e.li.set(func(p *networkProvider) { p.signWith = foreign })
	st, body := e.signIn("network")
	if detail, _ := body["detail"].(string); st != http.StatusServiceUnavailable || !strings.Contains(detail, "id_token did not verify") {
		t.Errorf("foreign key: %d %v", st, body)
	}
	other := "n-another-sign-in"
	e.li.set(func(p *networkProvider) { p.signWith, p.nonce = nil, &other })
	if st, body = e.signIn("network"); st != http.StatusBadRequest || body["field"] != "code" || body["rule"] != "nonce" {
		t.Errorf("wrong nonce: %d %v", st, body)
	}
	e.li.set(func(p *networkProvider) { p.nonce, p.userinfoSub = nil, "someone-else" })
	if st, body = e.signIn("network"); st != http.StatusServiceUnavailable {
		t.Errorf("userinfo of another subject: %d %v", st, body)
	}
	if n := countEvents(t, e.env, "identity.user_registered"); n != 0 {
		t.Errorf("%d accounts, want 0", n)
	}
	e.li.set(func(p *networkProvider) { p.userinfoSub = "" })
	if st, body = e.signIn("network"); st != http.StatusOK {
		t.Errorf("genuine: %d %v", st, body)
	}
}

func TestSocialNotConfiguredNamesSettings(t *testing.T) {
	e := newEnvWith(t, identity.Options{Social: cmd.SocialConfig{Network: cmd.NetworkConfig{ClientID: "86abc"}}})
	for _, c := range []struct {
		method, path string
		body         any
		want         string
	}{
		{"GET", "/api/v1/auth/codehost/start?redirect_uri=" + url.QueryEscape(appRedirect), nil,
			"codehost sign-in is not configured: set STRATA_CODEHOST_CLIENT_ID and STRATA_CODEHOST_CLIENT_SECRET"},
		{"POST", "/api/v1/auth/codehost/callback", map[string]any{"code": "c", "redirect_uri": appRedirect, "state": "s"},
			"codehost sign-in is not configured: set STRATA_CODEHOST_CLIENT_ID and STRATA_CODEHOST_CLIENT_SECRET"},
		{"GET", "/api/v1/auth/network/start?redirect_uri=" + url.QueryEscape(appRedirect), nil,
			"network sign-in is not configured: set STRATA_NETWORK_CLIENT_SECRET"},
		{"POST", "/api/v1/auth/network/callback", map[string]any{"code": "c", "redirect_uri": appRedirect, "state": "s"},
			"network sign-in is not configured: set STRATA_NETWORK_CLIENT_SECRET"},
	} {
		st, body, _ := e.call(c.method, c.path, c.body)
		if st != http.StatusServiceUnavailable || body["detail"] != c.want {
			t.Errorf("%s %s: %d %v", c.method, c.path, st, body)
		}
	}
}

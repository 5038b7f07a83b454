package connections_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/domain/kernel"
)

// Client credentials the fake's token endpoint accepts.
const (
	fakeClientID     = "fake-client"
	fakeClientSecret = "fake-secret"
)

// authServer is a loopback OAuth 2 authorization server: an authorize
// endpoint that consents at once (302 to redirect_uri with a code), a
// token endpoint (authorization_code with PKCE S256 verification,
// refresh_token with rotation: a refresh token is good once), a revocation
// endpoint (RFC 7009) and a userinfo endpoint. Access tokens are random;
// every token it issued is remembered with its user.
type authServer struct {
	t   testing.TB
	URL string

	mu sync.Mutex
	// codes: code -> its grant (one use).
	codes map[string]grant
	// access and refresh: token -> user, while valid.
	access  map[string]string
	refresh map[string]string
	revoked []string
	n       int
	// refuseCodes makes the token endpoint refuse every code.
	refuseCodes bool

	// expiresIn is the access tokens' lifetime in seconds (0: none given).
	expiresIn atomic.Int64
	// refreshDelay holds each refresh answer back (to overlap callers).
	refreshDelay atomic.Int64
	refreshes    atomic.Int64
}

type grant struct {
	user, redirect, challenge string
}

func newAuthServer(t testing.TB) *authServer {
	t.Helper()
	a := &authServer{t: t, codes: map[string]grant{}, access: map[string]string{}, refresh: map[string]string{}}
	a.expiresIn.Store(3600)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", a.authorize)
	mux.HandleFunc("POST /token", a.token)
	mux.HandleFunc("POST /revoke", a.revoke)
	mux.HandleFunc("GET /userinfo", a.userinfo)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// settings points a provider at the fake (env is the settings' prefix).
func (a *authServer) settings(env string) connections.Settings {
	return connections.Settings{ClientID: fakeClientID, ClientSecret: fakeClientSecret, AuthURL: a.URL + "/authorize",
		TokenURL: a.URL + "/token", RevokeURL: a.URL + "/revoke", APIBase: a.URL, Env: env}
}

// consent follows authURL as user's browser would and returns the code
// and state the fake redirected with.
func (a *authServer) consent(authURL, user string) (code, state string) {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodGet, authURL, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("X-Test-User", user)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		a.t.Fatalf("authorize: %d", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		a.t.Fatal(err)
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != fakeClientID || q.Get("response_type") != "code" || q.Get("redirect_uri") == "" || q.Get("state") == "" {
		http.Error(w, "invalid_request", http.StatusBadRequest)
		return
	}
	if q.Get("code_challenge") != "" && q.Get("code_challenge_method") != "S256" {
		http.Error(w, "invalid_request: S256 only", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	a.n++
	code := "code-" + strconv.Itoa(a.n)
	a.codes[code] = grant{user: r.Header.Get("X-Test-User"), redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge")}
	a.mu.Unlock()
	to, _ := url.Parse(q.Get("redirect_uri"))
	v := to.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	to.RawQuery = v.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

func oauthError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"error":%q}`, code)
}

// issue mints tokens for user (a.mu held).
func (a *authServer) issue(user string) map[string]any {
	a.n++
	at, rt := fmt.Sprintf("at-%d-%d", a.n, time.Now().UnixNano()), fmt.Sprintf("rt-%d-%d", a.n, time.Now().UnixNano())
	a.access[at], a.refresh[rt] = user, user
	out := map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "scope": "read write"}
	if e := a.expiresIn.Load(); e > 0 {
		out["expires_in"] = e
	}
	return out
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if err := r.ParseForm(); err != nil || !ok || id != fakeClientID || secret != fakeClientSecret {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	f := r.PostForm
	var out map[string]any
	switch f.Get("grant_type") {
	case "authorization_code":
		a.mu.Lock()
		g, ok := a.codes[f.Get("code")]
		delete(a.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		switch {
		case !ok || a.refuseCodes || g.redirect != f.Get("redirect_uri"):
		case g.challenge != "" && base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			ok = false
		case g.challenge == "" && f.Get("code_verifier") != "":
			ok = false
		default:
			out = a.issue(g.user)
		}
		a.mu.Unlock()
		if out == nil {
			oauthError(w, http.StatusBadRequest, "invalid_grant")
			return
		}
	case "refresh_token":
		a.refreshes.Add(1)
		time.Sleep(time.Duration(a.refreshDelay.Load()))
		a.mu.Lock()
		user, ok := a.refresh[f.Get("refresh_token")]
		if ok {
			delete(a.refresh, f.Get("refresh_token")) // rotation: good once
			out = a.issue(user)
		}
		a.mu.Unlock()
		if !ok {
			oauthError(w, http.StatusBadRequest, "invalid_grant")
			return
		}
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

func (a *authServer) revoke(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if err := r.ParseForm(); err != nil || !ok || id != fakeClientID || secret != fakeClientSecret {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	tok := r.PostForm.Get("token")
	a.mu.Lock()
	a.revoked = append(a.revoked, tok)
	delete(a.access, tok)
	delete(a.refresh, tok)
	a.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (a *authServer) userinfo(w http.ResponseWriter, r *http.Request) {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	a.mu.Lock()
	user, ok := a.access[tok]
	a.mu.Unlock()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		oauthError(w, http.StatusUnauthorized, "invalid_token")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"sub": "sub-" + user, "preferred_username": "@" + user})
}

// addToken makes tok a valid access token of user (a token the user holds).
func (a *authServer) addToken(tok, user string) {
	a.mu.Lock()
	a.access[tok] = user
	a.mu.Unlock()
}

// revokeRefresh makes every refresh token invalid (the user revoked the app).
func (a *authServer) revokeRefresh() {
	a.mu.Lock()
	clear(a.refresh)
	a.mu.Unlock()
}

func (a *authServer) revokedTokens() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.revoked...)
}

// provider is a connections.Provider speaking standard OAuth 2 to an
// authServer through connections.Call.
type provider struct {
	name     string
	s        connections.Settings
	pkce     bool
	noRevoke bool
	clock    kernel.Clock
	d        connections.Doer
}

func (p *provider) Name() string                       { return p.name }
func (p *provider) Label() string                      { return "the " + p.name + " provider" }
func (p *provider) Settings() connections.Settings     { return p.s }
func (p *provider) PKCE() bool                         { return p.pkce }
func (p *provider) oauthReason(_ int, b []byte) string { return reasonOf(b) }

func (p *provider) AuthCodeURL(state, redirectURI, challenge string) string {
	v := url.Values{"response_type": {"code"}, "client_id": {p.s.ClientID}, "redirect_uri": {redirectURI}, "state": {state},
		"scope": {"read write"}}
	if challenge != "" {
		v.Set("code_challenge", challenge)
		v.Set("code_challenge_method", "S256")
	}
	return p.s.AuthURL + "?" + v.Encode()
}

func reasonOf(b []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(b, &e)
	return e.Error
}

func (p *provider) post(ctx context.Context, u string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(p.s.ClientID, p.s.ClientSecret)
	return connections.Call(ctx, p.d, req, false, p.oauthReason)
}

func (p *provider) tokens(ctx context.Context, form url.Values) (connections.Tokens, error) {
	resp, err := p.post(ctx, p.s.TokenURL, form)
	if err != nil {
		return connections.Tokens{}, err
	}
	defer resp.Body.Close()
	var a struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		TokenType    string `json:"token_type"`
		ExpiresIn    int64  `json:"expires_in"`
		Scope        string `json:"scope"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || a.AccessToken == "" {
		return connections.Tokens{}, connections.Fail(connections.Refused, resp.StatusCode, "no access token in the answer")
	}
	t := connections.Tokens{AccessToken: a.AccessToken, RefreshToken: a.RefreshToken, TokenType: a.TokenType, Scope: a.Scope}
	if a.ExpiresIn > 0 {
		t.Expiry = p.clock.Now().Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	return t, nil
}

func (p *provider) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	if verifier != "" {
		f.Set("code_verifier", verifier)
	}
	return p.tokens(ctx, f)
}

func (p *provider) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	nt, err := p.tokens(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}})
	if ce, ok := err.(*connections.CallError); ok && ce.Reason == "invalid_grant" {
		ce.Class = connections.Unauthorized // a refused refresh: reconnect
	}
	return nt, err
}

func (p *provider) Revoke(ctx context.Context, t connections.Tokens) error {
	if p.noRevoke {
		return connections.ErrNoRevoke
	}
	resp, err := p.post(ctx, p.s.RevokeURL, url.Values{"token": {t.AccessToken}, "token_type_hint": {"access_token"}})
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (p *provider) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.s.APIBase+"/userinfo", nil)
	if err != nil {
		return connections.Identity{}, err
	}
	req.Header.Set("Authorization", "Bearer "+t.AccessToken)
	resp, err := connections.Call(ctx, p.d, req, true, p.oauthReason)
	if err != nil {
		return connections.Identity{}, err
	}
	defer resp.Body.Close()
	var u struct {
		Sub  string `json:"sub"`
		Name string `json:"preferred_username"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&u); err != nil {
		return connections.Identity{}, connections.Fail(connections.Refused, resp.StatusCode, "bad userinfo answer")
	}
	return connections.Identity{ID: u.Sub, Handle: u.Name, Extra: map[string]string{"tenant": "t1"}}, nil
}

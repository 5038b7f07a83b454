package oauth_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	"github.com/strata-platform/strata/readapi/oauth"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const (
	password = "Corr3ct-horse"
	callback = "http://127.0.0.1:9/callback" // never contacted: the browser stops at the redirect
)

// env is the platform API with the OAuth provider, a registered user and
// a route that needs scope memory:read.
type env struct {
	*identitytest.Env
	t      *testing.T
	email  string
	userID string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ie := identitytest.Start(t, identity.Options{}, func(e *identitytest.Env) {
		oauth.Routes(e.Router, e.Svc, e.Auth)
		e.Router.Handle("/api/v1/test/memory", auth.RequireScope(e.Auth, "memory:read", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := auth.From(r.Context())
			_ = json.NewEncoder(w).Encode(map[string]any{"user_id": p.UserID, "method": p.Method, "client_id": p.ClientID})
		})))
	})
	e := &env{Env: ie, t: t, email: "ada@example.com"}
	st, body := e.postJSON("/api/v1/auth/register", map[string]any{"email": e.email, "password": password, "full_name": "Ada Lovelace"})
	if st != http.StatusCreated {
		t.Fatalf("register: %d %v", st, body)
	}
	e.userID = body["id"].(string)
	return e
}

func (e *env) postJSON(path string, v any) (int, map[string]any) {
	e.t.Helper()
	b, _ := json.Marshal(v)
	resp, err := http.Post(e.URL+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// client registers an OAuth client and returns its id and secret.
func (e *env) client(meta map[string]any) (string, string) {
	e.t.Helper()
	if meta == nil {
		meta = map[string]any{}
	}
	if _, ok := meta["redirect_uris"]; !ok {
		meta["redirect_uris"] = []string{callback}
	}
	if _, ok := meta["grant_types"]; !ok {
		meta["grant_types"] = []string{"authorization_code", "refresh_token"}
	}
	if _, ok := meta["client_name"]; !ok {
		meta["client_name"] = "Test App"
	}
	st, body := e.postJSON("/oauth/clients/register", meta)
	if st != http.StatusCreated {
		e.t.Fatalf("register client: %d %v", st, body)
	}
	secret, _ := body["client_secret"].(string)
	return body["client_id"].(string), secret
}

func (e *env) config(id, secret string, scopes ...string) *oauth2.Config {
	style := oauth2.AuthStyleInHeader
	if secret == "" {
		style = oauth2.AuthStyleInParams
	}
	return &oauth2.Config{ClientID: id, ClientSecret: secret, RedirectURL: callback, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: e.URL + "/oauth/authorize", TokenURL: e.URL + "/api/v1/oauth/token", AuthStyle: style}}
}

// browser is a cookie-keeping HTTP client that stops at redirects leaving
// the provider (the client's callback).
type browser struct {
	t    *testing.T
	base string
	http *http.Client
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: e.t, base: e.URL}
	b.http = &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if !strings.HasPrefix(req.URL.String(), e.URL) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	return b
}

// page is a fetched response with its body.
type page struct {
	status int
	body   string
	header http.Header
	url    *url.URL // where the response came from
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, body: string(raw), header: resp.Header, url: resp.Request.URL}
}

func (b *browser) get(u string) page {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return b.do(req)
}

func (b *browser) post(path string, f url.Values) page {
	req, _ := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var hiddenRE = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// hidden returns the hidden form fields of a page.
func (p page) hidden() url.Values {
	f := url.Values{}
	for _, m := range hiddenRE.FindAllStringSubmatch(p.body, -1) {
		f.Set(m[1], html.UnescapeString(m[2]))
	}
	return f
}

// location returns the redirect of a 303 to the client.
func (p page) location(t *testing.T) *url.URL {
	t.Helper()
	if p.status != http.StatusSeeOther {
		t.Fatalf("want 303 to the client, got %d: %s", p.status, p.body)
	}
	u, err := url.Parse(p.header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// authorize runs the browser part of the flow for authURL (sign in, then
// Allow) and returns the redirect to the client.
func (e *env) authorize(b *browser, authURL string) *url.URL {
	e.t.Helper()
	p := b.get(authURL)
	if strings.Contains(p.body, `name="password"`) {
		f := p.hidden()
		f.Set("email", e.email)
		f.Set("password", password)
		p = b.post("/oauth/login", f)
	}
	if p.status != http.StatusOK || !strings.Contains(p.body, `value="allow"`) {
		e.t.Fatalf("want the consent page, got %d: %s", p.status, p.body)
	}
	f := p.hidden()
	f.Set("decision", "allow")
	return b.post("/oauth/consent", f).location(e.t)
}

// code runs the whole browser flow and returns the code.
func (e *env) code(cfg *oauth2.Config, verifier string, opts ...oauth2.AuthCodeOption) string {
	e.t.Helper()
	opts = append(opts, oauth2.S256ChallengeOption(verifier))
	loc := e.authorize(e.browser(), cfg.AuthCodeURL("st-1", opts...))
	if loc.Query().Get("state") != "st-1" || loc.Query().Get("code") == "" {
		e.t.Fatalf("redirect %s", loc)
	}
	return loc.Query().Get("code")
}

// getWith calls path with a bearer token.
func (e *env) getWith(path, token string) (int, http.Header) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// form posts a form to an OAuth endpoint with Basic client credentials
// (id empty: none) and decodes the JSON answer.
func (e *env) form(path, id, secret string, f url.Values) (int, map[string]any, http.Header) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.URL+path, strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, resp.Header
}

func ctx() context.Context { return context.Background() }

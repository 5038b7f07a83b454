package builder_test

import (
	"bytes"
	"context"
	"github.com/gorilla/mux"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/projections/foundersessions"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	"github.com/strata-platform/strata/readapi/oauth"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

const password = "Corr3ct-horse"

// world is the platform API with the OAuth provider, the builder surface
// as its first-party client, and the founder-session projector running.
type world struct {
	api      *identitytest.Env
	builder  string
	router   *mux.Router           // the builder surface's routes
	founders *readbuilder.Founders // its session middleware
}

func newWorld(t *testing.T) *world {
	t.Helper()
	api := identitytest.StartWithEvents(t, identity.Options{}, builder.Events(), func(e *identitytest.Env) {
		oauth.Routes(e.Router, e.Svc, e.Auth)
	})
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	runner, err := projections.NewRunner(api.DB, api.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 10 * time.Millisecond}, foundersessions.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	surface, err := readapi.NewSurface("builder", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	redirect := srv.URL + "/auth/callback"
	secret, err := api.Svc.EnsureFirstPartyClient(ctx, "strata-builder-test", "Strata builder", []string{redirect})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, foundersessions.Name)
	}
	sessions, err := cmdbuilder.NewSessions(api.Store, wait, api.Clock, logger, cmdbuilder.Config{Issuer: api.URL,
		ClientID: "strata-builder-test", ClientSecret: secret, RedirectURL: redirect, Key: bytes.Repeat([]byte{9}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	founders := readbuilder.Routes(surface.Router, sessions, api.DB, api.Clock, false)
	st, body := post(t, api.URL+"/api/v1/auth/register", `{"email":"grace@example.com","password":"`+password+`","full_name":"Grace Hopper"}`)
	if st != http.StatusCreated {
		t.Fatalf("register: %d %s", st, body)
	}
	return &world{api: api, builder: srv.URL, router: surface.Router, founders: founders}
}

func post(t *testing.T, u, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar}}
}

func (b *browser) do(method, u string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, string(raw)
}

var hiddenRE = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

func hidden(page string) url.Values {
	f := url.Values{}
	for _, m := range hiddenRE.FindAllStringSubmatch(page, -1) {
		f.Set(m[1], html.UnescapeString(m[2]))
	}
	return f
}

// signIn walks /auth/login → sign-in page → consent → /auth/callback and
// returns the final response (the builder's return_to page).
func (w *world) signIn(b *browser, returnTo string) *http.Response {
	b.t.Helper()
	_, page := b.do(http.MethodGet, w.builder+"/auth/login?return_to="+url.QueryEscape(returnTo), nil)
	if !strings.Contains(page, `name="password"`) {
		b.t.Fatalf("want the provider's sign-in page, got %s", page)
	}
	f := hidden(page)
	f.Set("email", "grace@example.com")
	f.Set("password", password)
	_, page = b.do(http.MethodPost, w.api.URL+"/oauth/login", f)
	f = hidden(page)
	f.Set("decision", "allow")
	resp, _ := b.do(http.MethodPost, w.api.URL+"/oauth/consent", f)
	return resp
}

func TestFounderSession(t *testing.T) {
	w := newWorld(t)
	b := newBrowser(t)
	if resp, _ := b.do(http.MethodGet, w.builder+"/api/session", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("before sign-in: %d", resp.StatusCode)
	}
	resp := w.signIn(b, "/dashboard")
	if resp.Request.URL.String() != w.builder+"/dashboard" {
		t.Fatalf("ended at %s", resp.Request.URL)
	}
	u, _ := url.Parse(w.builder)
	var session *http.Cookie
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "strata_founder" {
			session = c
		}
	}
	if session == nil {
		t.Fatal("no session cookie")
	}
	resp, body := b.do(http.MethodGet, w.builder+"/api/session", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"email":"grace@example.com"`) || !strings.Contains(body, `"name":"Grace Hopper"`) {
		t.Fatalf("session: %d %s", resp.StatusCode, body)
	}
	resp, _ = b.do(http.MethodPost, w.builder+"/auth/logout", url.Values{})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
	if resp, _ := b.do(http.MethodGet, w.builder+"/api/session", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("after logout: %d", resp.StatusCode)
	}
	// The logout revoked the builder's grant at the provider.
	var reasons []string
	err := w.api.Store.ReadAll(context.Background(), eventstore.Filter{Types: []string{ident.OAuthGrantRevoked{}.EventType()}},
		func(e eventstore.Envelope) error {
			reasons = append(reasons, e.Event.(*ident.OAuthGrantRevoked).Reason)
			return nil
		})
	if err != nil || len(reasons) != 1 || reasons[0] != ident.RevokeByClient {
		t.Fatalf("grant revocations: %v %v", reasons, err)
	}
}

func TestFounderCookieAttributes(t *testing.T) {
	w := newWorld(t)
	jar, _ := cookiejar.New(nil)
	var setCookies []string
	c := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		setCookies = append(setCookies, req.Response.Header.Values("Set-Cookie")...)
		return nil
	}}
	w.signIn(&browser{t: t, c: c}, "/")
	found := false
	for _, sc := range setCookies {
		if strings.HasPrefix(sc, "strata_founder=") {
			found = true
			if !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Lax") || strings.Contains(sc, "Secure") {
				t.Fatalf("cookie attributes: %s", sc)
			}
		}
	}
	if !found {
		t.Fatalf("no session cookie among %v", setCookies)
	}
}

func TestCallbackRefusals(t *testing.T) {
	w := newWorld(t)
	t.Run("without the login cookie", func(t *testing.T) {
		resp, _ := newBrowser(t).do(http.MethodGet, w.builder+"/auth/callback?code=x&state=y", nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%d", resp.StatusCode)
		}
	})
	t.Run("wrong state", func(t *testing.T) {
		b := newBrowser(t)
		b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		b.do(http.MethodGet, w.builder+"/auth/login", nil)
		resp, _ := b.do(http.MethodGet, w.builder+"/auth/callback?code=x&state=forged", nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%d", resp.StatusCode)
		}
	})
	t.Run("denied", func(t *testing.T) {
		b := newBrowser(t)
		b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, _ := b.do(http.MethodGet, w.builder+"/auth/login", nil)
		auth, _ := url.Parse(resp.Header.Get("Location"))
		resp, _ = b.do(http.MethodGet, w.builder+"/auth/callback?error=access_denied&state="+auth.Query().Get("state"), nil)
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%d", resp.StatusCode)
		}
	})
	t.Run("return_to cannot leave the builder", func(t *testing.T) {
		b := newBrowser(t)
		resp := w.signIn(b, "//evil.example/x")
		if resp.Request.URL.Host != strings.TrimPrefix(w.builder, "http://") {
			t.Fatalf("ended at %s", resp.Request.URL)
		}
	})
}

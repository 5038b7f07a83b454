// Package oauthbench measures the OAuth 2.1 provider (readapi/oauth) against
// baselines taken in the same run on the same machine: complete
// authorization-code flows with PKCE, driven by browsers over HTTP, against
// raw argon2id hashing (the sign-in page verifies a password); refresh with
// rotation over HTTP against a bare one-event append plus one RSA-2048
// signature; introspection over HTTP against a no-op POST route of the same
// surface, and in process against a bare RSA signature check.
//
// It reuses the identity bench's server and load driver
// (readapi/identity/identitybench).
package oauthbench

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
	"github.com/strata-platform/strata/readapi/oauth"
)

// Options size a run: those of the identity bench.
type Options = identitybench.Options

// Full and Quick are the command's two sizes.
func Full() Options  { return identitybench.Full() }
func Quick() Options { return identitybench.Quick() }

// Concurrency of each measurement, chosen for a 2-core machine.
const (
	flowBrowsers       = 8  // browsers running authorization-code flows
	refreshClients     = 16 // clients, each rotating its own refresh-token chain
	introspectClients  = 32 // keep-alive clients introspecting one access token
	users              = 16 // accounts the browsers sign in to, in turn
	password           = "Corr3ct-horse"
	callback           = "http://127.0.0.1:9/callback" // never contacted: browsers stop at the redirect
	scope              = "openid profile"
	floorStreamType    = "bench.oauth_floor"
	responseLimitBytes = 1 << 20
)

type bench struct {
	o Options
	*identitybench.Server
	host     string // the server's host:port; browsers stop at any other
	clientID string
	secret   string
	client   ident.OAuthClient
}

// Run sets the identity context up on o.DB (production argon2id cost),
// serves the platform API with the OAuth provider's routes on a loopback
// port and measures.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	start := time.Now()
	rep := storebench.Report{Bench: "oauth", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP, argon2id m=7MiB t=5 p=1, RS256"}
	floor := eventstore.EventDef{Name: storebench.EventType, Version: 1, New: func() kernel.Event { return &storebench.Tick{} }}
	srv, err := identitybench.Start(ctx, o, []eventstore.EventDef{floor}, func(s *identitybench.Server, r *mux.Router) {
		oauth.Routes(r, s.Svc, s.Auth)
	})
	if err != nil {
		return rep, err
	}
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	if err != nil {
		return rep, err
	}
	b := &bench{o: o, Server: srv, host: u.Host}
	if err := b.setup(ctx); err != nil {
		return rep, err
	}
	for _, step := range []func(context.Context) ([]storebench.Figure, error){b.flows, b.refreshes, b.introspections} {
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// setup registers the accounts and one confidential client (client_secret_basic).
func (b *bench) setup(ctx context.Context) error {
	for i := range users {
		if _, err := b.Svc.Register(ctx, cmd.Register{Email: email(i), Password: password, FullName: "Bench User"}); err != nil {
			return err
		}
	}
	rc, err := b.Svc.RegisterClient(ctx, ident.ClientMetadata{ClientName: "Bench App", RedirectURIs: []string{callback},
		GrantTypes: []string{ident.GrantAuthorizationCode, ident.GrantRefreshToken}}, "bench")
	if err != nil {
		return err
	}
	b.clientID, b.secret, b.client = rc.Client.ID, rc.Secret, rc.Client
	return nil
}

func email(i int) string { return fmt.Sprintf("oauth%d@example.com", i%users) }

// browser returns a fresh browser: its own cookie jar, the shared
// keep-alive transport, and no redirect followed off the provider.
func (b *bench) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: b.HTTP.Transport, Jar: jar, Timeout: b.HTTP.Timeout,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			if req.URL.Host != b.host {
				return http.ErrUseLastResponse
			}
			return nil
		}}
}

// page is a response with its body.
type page struct {
	status int
	body   string
	header http.Header
}

func fetch(c *http.Client, req *http.Request) (page, error) {
	resp, err := c.Do(req)
	if err != nil {
		return page{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, responseLimitBytes))
	return page{status: resp.StatusCode, body: string(raw), header: resp.Header}, err
}

// submit posts a page's form.
func (b *bench) submit(c *http.Client, path string, f url.Values) (page, error) {
	req, err := http.NewRequest(http.MethodPost, b.URL+path, strings.NewReader(f.Encode()))
	if err != nil {
		return page{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return fetch(c, req)
}

var hiddenRE = regexp.MustCompile(`<input type="hidden" name="(csrf_token|request)" value="([^"]*)">`)

// form returns the hidden fields of a sign-in or consent page, which must
// have both csrf_token and request.
func (p page) form(what string) (url.Values, error) {
	f := url.Values{}
	for _, m := range hiddenRE.FindAllStringSubmatch(p.body, -1) {
		f.Set(m[1], html.UnescapeString(m[2]))
	}
	if p.status != http.StatusOK || f.Get("csrf_token") == "" || f.Get("request") == "" {
		return nil, fmt.Errorf("want the %s page, got %d: %.300s", what, p.status, p.body)
	}
	return f, nil
}

// tokens is the token endpoint's answer.
type tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	IDToken      string `json:"id_token"`
}

// flow runs one authorization-code flow with PKCE in browser c, signing
// in as account when the provider asks, and exchanges the code.
func (b *bench) flow(c *http.Client, account string) (tokens, error) {
	verifier, state := random(32), random(16)
	challenge := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {b.clientID}, "redirect_uri": {callback}, "scope": {scope},
		"state": {state}, "nonce": {random(16)}, "code_challenge": {base64.RawURLEncoding.EncodeToString(challenge[:])},
		"code_challenge_method": {"S256"}}
	req, err := http.NewRequest(http.MethodGet, b.URL+"/oauth/authorize?"+q.Encode(), nil)
	if err != nil {
		return tokens{}, err
	}
	p, err := fetch(c, req)
	if err != nil {
		return tokens{}, err
	}
	if strings.Contains(p.body, `name="password"`) {
		f, err := p.form("sign-in")
		if err != nil {
			return tokens{}, err
		}
		f.Set("email", account)
		f.Set("password", password)
		if p, err = b.submit(c, "/oauth/login", f); err != nil { // 303 to /oauth/authorize, followed
			return tokens{}, err
		}
	}
	f, err := p.form("consent")
	if err != nil {
		return tokens{}, err
	}
	f.Set("decision", "allow")
	if p, err = b.submit(c, "/oauth/consent", f); err != nil {
		return tokens{}, err
	}
	loc, err := url.Parse(p.header.Get("Location"))
	if err != nil || p.status != http.StatusSeeOther {
		return tokens{}, fmt.Errorf("consent: want 303 to the client, got %d %q: %.300s", p.status, p.header.Get("Location"), p.body)
	}
	r := loc.Query()
	if r.Get("state") != state || r.Get("iss") != b.URL || r.Get("code") == "" {
		return tokens{}, fmt.Errorf("consent: redirect %s", loc)
	}
	return b.token(url.Values{"grant_type": {ident.GrantAuthorizationCode}, "code": {r.Get("code")},
		"redirect_uri": {callback}, "code_verifier": {verifier}}, true)
}

// token posts to the token endpoint as the client.
func (b *bench) token(f url.Values, withID bool) (tokens, error) {
	raw, err := b.postForm("/api/v1/oauth/token", f)
	if err != nil {
		return tokens{}, err
	}
	var t tokens
	if err := json.Unmarshal(raw, &t); err != nil {
		return tokens{}, fmt.Errorf("token response: %w", err)
	}
	if t.AccessToken == "" || t.RefreshToken == "" || withID != (t.IDToken != "") {
		return tokens{}, fmt.Errorf("token response without the expected tokens: %.300s", raw)
	}
	return t, nil
}

// postForm posts f to path with the client's Basic credentials and
// returns the body of a 200 answer.
func (b *bench) postForm(path string, f url.Values) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, b.URL+path, strings.NewReader(f.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(b.clientID), url.QueryEscape(b.secret))
	p, err := fetch(b.HTTP, req)
	if err != nil {
		return nil, err
	}
	if p.status != http.StatusOK {
		return nil, fmt.Errorf("POST %s: status %d: %.300s", path, p.status, p.body)
	}
	return []byte(p.body), nil
}

func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

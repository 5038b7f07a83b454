package connections_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// tokenServer is a token and revocation endpoint answering what each test
// case sets, and recording the last request.
type tokenServer struct {
	*httptest.Server
	mu     sync.Mutex
	status int
	body   string
	form   url.Values
	user   string
	pass   string
	basic  bool
	path   string
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		ts.mu.Lock()
		defer ts.mu.Unlock()
		ts.form, ts.path = r.PostForm, r.URL.Path
		ts.user, ts.pass, ts.basic = r.BasicAuth()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ts.status)
		_, _ = w.Write([]byte(ts.body))
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) answer(status int, body string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.status, ts.body = status, body
}

func (ts *tokenServer) settings() connections.Settings {
	return connections.Settings{ClientID: "cid", ClientSecret: "csecret", AuthURL: ts.URL + "/auth",
		TokenURL: ts.URL + "/token", RevokeURL: ts.URL + "/revoke", Scopes: []string{"a", "b"}}
}

func TestOAuth2AuthCodeURL(t *testing.T) {
	s := connections.Settings{ClientID: "cid", AuthURL: "https://p.test/auth", Scopes: []string{"a", "b"}}
	cases := []struct {
		name    string
		o       connections.OAuth2
		want    []string
		notWant []string
	}{
		{"standard", connections.OAuth2{Settings: s},
			[]string{"client_id=cid", "response_type=code", "scope=a+b", "state=st", "redirect_uri=https%3A%2F%2Fs.test%2Fcb"},
			[]string{"code_challenge"}},
		{"pkce, client_key, commas", connections.OAuth2{Settings: s, PKCE: true, ClientIDParam: "client_key", ScopeSep: ","},
			[]string{"client_key=cid", "scope=a%2Cb", "code_challenge=ch", "code_challenge_method=S256"}, []string{"client_id="}},
		{"extra parameters, user scopes", connections.OAuth2{Settings: s, ScopeParam: "user_scope",
			AuthParams: url.Values{"access_type": {"offline"}, "prompt": {"consent"}}},
			[]string{"user_scope=a+b", "access_type=offline", "prompt=consent"}, []string{"&scope="}},
		{"no scopes", connections.OAuth2{Settings: connections.Settings{ClientID: "cid", AuthURL: "https://p.test/auth?owner=user"}},
			[]string{"https://p.test/auth?owner=user&"}, []string{"scope"}},
		{"google", *connections.Google(s, nil, "g"),
			[]string{"https://p.test/auth?", "access_type=offline", "prompt=consent", "include_granted_scopes=true", "code_challenge=ch"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := c.o.AuthCodeURL("st", "https://s.test/cb", "ch")
			for _, w := range c.want {
				if !strings.Contains(u, w) {
					t.Errorf("%s lacks %s", u, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(u, w) {
					t.Errorf("%s has %s", u, w)
				}
			}
		})
	}
}

func TestOAuth2Token(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ts := newTokenServer(t)
	prev := connections.Tokens{AccessToken: "old", RefreshToken: "r1", Scope: "a b", RefreshExpiry: now.Add(24 * time.Hour)}
	cases := []struct {
		name      string
		o         connections.OAuth2
		refresh   bool
		status    int
		body      string
		wantClass connections.Class
		check     func(t *testing.T, tok connections.Tokens)
	}{
		{name: "exchange", status: 200, body: `{"access_token":"at","refresh_token":"rt","expires_in":"3600","scope":"a"}`,
			check: func(t *testing.T, tok connections.Tokens) {
				if tok.AccessToken != "at" || tok.RefreshToken != "rt" || !tok.Expiry.Equal(now.Add(time.Hour)) || tok.Scope != "a" ||
					ts.form.Get("grant_type") != "authorization_code" || ts.form.Get("code") != "the-code" ||
					ts.form.Get("code_verifier") != "ver" || ts.form.Get("client_id") != "cid" || ts.form.Get("client_secret") != "csecret" || ts.basic {
					t.Fatalf("%+v %v", tok, ts.form)
				}
			}},
		{name: "exchange with Basic credentials", o: connections.OAuth2{BasicAuth: true}, status: 200, body: `{"access_token":"at"}`,
			check: func(t *testing.T, tok connections.Tokens) {
				if !ts.basic || ts.user != "cid" || ts.pass != "csecret" || ts.form.Has("client_secret") || !tok.Expiry.IsZero() {
					t.Fatalf("%v %v", ts.user, ts.form)
				}
			}},
		{name: "exchange with client_key", o: connections.OAuth2{ClientIDParam: "client_key"}, status: 200, body: `{"access_token":"at"}`,
			check: func(t *testing.T, _ connections.Tokens) {
				if ts.form.Get("client_key") != "cid" || ts.form.Has("client_id") {
					t.Fatalf("%v", ts.form)
				}
			}},
		{name: "refused code", status: 400, body: `{"error":"invalid_grant"}`, wantClass: connections.Refused},
		{name: "refused code, provider says Unauthorized", o: connections.OAuth2{Refine: connections.RefineOAuth},
			status: 400, body: `{"error":"invalid_grant"}`, wantClass: connections.Unauthorized},
		{name: "code refused with 200", status: 200, body: `{"error":"bad_verification_code","error_description":"expired"}`,
			wantClass: connections.Refused},
		{name: "client refused at exchange", status: 401, body: `{"error":"invalid_client"}`, wantClass: connections.Refused},
		{name: "no access token, idempotent", o: connections.OAuth2{Idempotent: true}, status: 200, body: `{}`, wantClass: connections.Transient},
		{name: "no access token", status: 200, body: `{}`, wantClass: connections.Unconfirmed},
		{name: "server error", status: 500, body: ``, wantClass: connections.Unconfirmed},
		{name: "server error, idempotent", o: connections.OAuth2{Idempotent: true}, status: 500, body: ``, wantClass: connections.Transient},
		{name: "refresh keeps the refresh token and scope", refresh: true, status: 200, body: `{"access_token":"at2","expires_in":60}`,
			check: func(t *testing.T, tok connections.Tokens) {
				if tok.AccessToken != "at2" || tok.RefreshToken != "r1" || tok.Scope != "a b" || !tok.RefreshExpiry.Equal(prev.RefreshExpiry) ||
					ts.form.Get("grant_type") != "refresh_token" || ts.form.Get("refresh_token") != "r1" {
					t.Fatalf("%+v %v", tok, ts.form)
				}
			}},
		{name: "refresh rotates", refresh: true, status: 200,
			body: `{"access_token":"at2","refresh_token":"r2","refresh_token_expires_in":"7200"}`,
			check: func(t *testing.T, tok connections.Tokens) {
				if tok.RefreshToken != "r2" || !tok.RefreshExpiry.Equal(now.Add(2*time.Hour)) {
					t.Fatalf("%+v", tok)
				}
			}},
		{name: "refused refresh", refresh: true, status: 400, body: `{"error":"invalid_grant","error_description":"revoked"}`,
			wantClass: connections.Unauthorized},
		{name: "refresh refused with 200", refresh: true, status: 200, body: `{"error":"bad_refresh_token"}`, wantClass: connections.Unauthorized},
		{name: "client refused at refresh", refresh: true, status: 401, body: `{"error":"invalid_client"}`, wantClass: connections.Refused},
		{name: "rate limited refresh", refresh: true, status: 429, body: `{"error":"slow_down"}`, wantClass: connections.Transient},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.Settings, o.Client, o.Label, o.Now = ts.settings(), ts.Client(), "the provider", func() time.Time { return now }
			ts.answer(c.status, c.body)
			var tok connections.Tokens
			var err error
			if c.refresh {
				tok, err = o.Refresh(ctx, prev)
			} else {
				tok, err = o.Exchange(ctx, "the-code", "https://s.test/cb", "ver")
			}
			if c.wantClass != "" {
				if connections.ClassOf(err) != c.wantClass {
					t.Fatalf("%v, want %s", err, c.wantClass)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, tok)
		})
	}
	o := connections.OAuth2{Settings: ts.settings(), Client: ts.Client(), Label: "the provider"}
	if _, err := o.Refresh(ctx, connections.Tokens{AccessToken: "a"}); connections.ClassOf(err) != connections.Unauthorized ||
		!strings.Contains(err.Error(), "the provider") {
		t.Fatalf("no refresh token: %v", err)
	}
}

func TestOAuth2Revoke(t *testing.T) {
	ctx := context.Background()
	ts := newTokenServer(t)
	cases := []struct {
		name     string
		o        connections.OAuth2
		tokens   connections.Tokens
		grant    bool
		status   int
		body     string
		wantErr  connections.Class
		wantForm url.Values
	}{
		{name: "revoked", tokens: connections.Tokens{AccessToken: "at"}, status: 200, body: ``, wantForm: url.Values{"token": {"at"}}},
		{name: "with the client", o: connections.OAuth2{RevokeWithClient: true}, tokens: connections.Tokens{AccessToken: "at"},
			status: 200, body: `{}`, wantForm: url.Values{"token": {"at"}, "client_id": {"cid"}, "client_secret": {"csecret"}}},
		{name: "the grant by its refresh token", grant: true, tokens: connections.Tokens{AccessToken: "at", RefreshToken: "rt"},
			status: 200, wantForm: url.Values{"token": {"rt"}}},
		{name: "the grant without a refresh token", grant: true, tokens: connections.Tokens{AccessToken: "at"},
			status: 200, wantForm: url.Values{"token": {"at"}}},
		{name: "already revoked", tokens: connections.Tokens{AccessToken: "at"}, status: 400, body: `{"error":"invalid_token"}`},
		{name: "refused", tokens: connections.Tokens{AccessToken: "at"}, status: 400, body: `{"error":"unsupported_token_type"}`,
			wantErr: connections.Refused},
		{name: "refused with 200", tokens: connections.Tokens{AccessToken: "at"}, status: 200, body: `{"error":"invalid_request"}`,
			wantErr: connections.Refused},
		{name: "unavailable", tokens: connections.Tokens{AccessToken: "at"}, status: 503, wantErr: connections.Transient},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.Settings, o.Client = ts.settings(), ts.Client()
			ts.answer(c.status, c.body)
			var err error
			if c.grant {
				err = o.RevokeGrant(ctx, c.tokens)
			} else {
				err = o.Revoke(ctx, c.tokens.AccessToken)
			}
			if connections.ClassOf(err) != c.wantErr || (c.wantErr == "" && err != nil) {
				t.Fatalf("%v, want %q", err, c.wantErr)
			}
			if c.wantForm != nil && (ts.path != "/revoke" || ts.form.Encode() != c.wantForm.Encode()) {
				t.Fatalf("%s %v", ts.path, ts.form)
			}
		})
	}
	o := connections.OAuth2{Settings: connections.Settings{ClientID: "cid"}}
	if err := o.Revoke(ctx, "at"); !errors.Is(err, connections.ErrNoRevoke) {
		t.Fatalf("no revocation endpoint: %v", err)
	}
}

func TestGoogleDefaults(t *testing.T) {
	o := connections.Google(connections.Settings{ClientID: "cid", Scopes: []string{"s"}}, nil, "g")
	if o.Settings.AuthURL != connections.GoogleAuthURL || o.Settings.TokenURL != connections.GoogleTokenURL ||
		o.Settings.RevokeURL != connections.GoogleRevokeURL || !o.PKCE || o.BasicAuth || o.RevokeWithClient {
		t.Fatalf("%+v", o)
	}
	own := connections.Google(connections.Settings{TokenURL: "http://loopback/token"}, nil, "g")
	if own.Settings.TokenURL != "http://loopback/token" || own.Settings.AuthURL != connections.GoogleAuthURL {
		t.Fatalf("%+v", own.Settings)
	}
}

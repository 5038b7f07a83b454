package connections_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

func TestProblemReason(t *testing.T) {
	cases := []struct {
		p    connections.Problem
		want string
	}{
		{connections.Problem{}, ""},
		{connections.Problem{Code: "invalid_grant"}, "invalid_grant"},
		{connections.Problem{Message: "Bad Request"}, "Bad Request"},
		{connections.Problem{Code: "invalid_grant", Message: "Bad Request"}, "invalid_grant: Bad Request"},
		{connections.Problem{Code: "x", Message: "x"}, "x"},
		{connections.Problem{Code: "c", Message: strings.Repeat("m", 400)}, "c: " + strings.Repeat("m", 297)},
	}
	for _, c := range cases {
		if got := c.p.Reason(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

func TestOAuthProblem(t *testing.T) {
	cases := []struct {
		body string
		want connections.Problem
	}{
		{`{"error":"invalid_grant","error_description":"Bad Request"}`, connections.Problem{Code: "invalid_grant", Message: "Bad Request"}},
		{`{"error":{"code":401}}`, connections.Problem{}},
		{`not json`, connections.Problem{}},
	}
	for _, c := range cases {
		if got := connections.OAuthProblem(400, []byte(c.body)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.body, got, c.want)
		}
	}
}

func TestNewRequest(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		body      any
		wantType  string
		wantBody  string
		wantClass connections.Class
	}{
		{"none", nil, "", "", ""},
		{"form", url.Values{"a": {"b c"}}, "application/x-www-form-urlencoded", "a=b+c", ""},
		{"bytes", []byte("raw"), "", "raw", ""},
		{"reader", strings.NewReader("stream"), "", "stream", ""},
		{"json", map[string]int{"n": 1}, "application/json; charset=utf-8", `{"n":1}`, ""},
		{"not encodable", map[string]any{"f": func() {}}, "", "", connections.Refused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := connections.NewRequest(ctx, http.MethodPost, "https://provider.test/x", c.body)
			if c.wantClass != "" {
				if connections.ClassOf(err) != c.wantClass {
					t.Fatalf("%v, want %s", err, c.wantClass)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			if req.Body != nil {
				got, _ = io.ReadAll(req.Body)
			}
			if req.Header.Get("Content-Type") != c.wantType || string(got) != c.wantBody || req.Header.Get("Accept") != "application/json" {
				t.Fatalf("%q %q %q", req.Header.Get("Content-Type"), got, req.Header.Get("Accept"))
			}
		})
	}
	if _, err := connections.NewRequest(ctx, http.MethodGet, "://bad", nil); connections.ClassOf(err) != connections.Refused {
		t.Fatalf("bad URL: %v", err)
	}
	req, _ := connections.NewRequest(ctx, http.MethodGet, "https://provider.test/x", nil)
	if connections.Bearer(req, "").Header.Get("Authorization") != "" || connections.Bearer(req, "tok").Header.Get("Authorization") != "Bearer tok" {
		t.Fatal(req.Header)
	}
}

func TestSendRefinesAndHidesTheBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"` + strings.Repeat("d", 400) + `"}`))
	}))
	defer srv.Close()
	req, err := connections.NewRequest(context.Background(), http.MethodPost, srv.URL+"/token?secret=zzz", map[string]string{"a": "b"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = connections.Send(context.Background(), srv.Client(), req, false, connections.OAuthProblem, connections.RefineOAuth)
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != connections.Unauthorized || ce.Status != 403 || len(ce.Reason) > 300 ||
		!strings.HasPrefix(ce.Reason, "invalid_grant: ") || strings.Contains(ce.Error(), "zzz") {
		t.Fatalf("%#v", err)
	}
	if connections.AsCallError(err) != ce || connections.AsCallError(errors.New("other")) != nil {
		t.Fatal("AsCallError")
	}
}

func TestReadJSON(t *testing.T) {
	cases := []struct {
		name       string
		status     int
		body       string
		idempotent bool
		wantClass  connections.Class
		wantN      int
	}{
		{"json", 200, `{"n":7}`, false, "", 7},
		{"no content", 204, ``, false, "", 0},
		{"not json, may have acted", 200, `<html>`, false, connections.Unconfirmed, 0},
		{"not json, idempotent", 200, `<html>`, true, connections.Transient, 0},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := cases[0]
		for _, x := range cases {
			if x.name == r.URL.Query().Get("case") {
				c = x
			}
		}
		w.WriteHeader(c.status)
		_, _ = w.Write([]byte(c.body))
	}))
	defer srv.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := srv.Client().Get(srv.URL + "/?case=" + url.QueryEscape(c.name))
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				N int `json:"n"`
			}
			err = connections.ReadJSON(resp, &v, c.idempotent)
			if connections.ClassOf(err) != c.wantClass || (c.wantClass == "" && err != nil) || v.N != c.wantN {
				t.Fatalf("%v %+v", err, v)
			}
		})
	}
}

func TestTokenAnswer(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var a connections.TokenAnswer
	if err := json.Unmarshal([]byte(`{"access_token":"x","expires_in":"3600","refresh_token_expires_in":60,"scope":"s"}`), &a); err != nil {
		t.Fatal(err)
	}
	tok := a.Tokens(now)
	if tok.AccessToken != "x" || !tok.Expiry.Equal(now.Add(time.Hour)) || !tok.RefreshExpiry.Equal(now.Add(time.Minute)) || tok.Scope != "s" {
		t.Errorf("%+v", tok)
	}
	if err := json.Unmarshal([]byte(`{"access_token":"y","expires_in":null,"refresh_expires_in":"120"}`), &a); err != nil {
		t.Fatal(err)
	}
	if tok := a.Tokens(now); !tok.Expiry.IsZero() || !tok.RefreshExpiry.Equal(now.Add(2*time.Minute)) {
		t.Errorf("refresh_expires_in: %+v", tok)
	}
	if tok := (connections.TokenAnswer{AccessToken: "y"}).Tokens(now); !tok.Expiry.IsZero() || !tok.RefreshExpiry.IsZero() {
		t.Errorf("no lifetime given, got %+v", tok)
	}
	if err := json.Unmarshal([]byte(`{"expires_in":"soon"}`), &a); err == nil {
		t.Error("a lifetime that is no number was read")
	}
	prev := connections.Tokens{RefreshToken: "r", RefreshExpiry: now.Add(time.Hour), Scope: "old"}
	if tok := (connections.TokenAnswer{AccessToken: "z"}).Renewed(now, prev); tok.RefreshToken != "r" || !tok.RefreshExpiry.Equal(prev.RefreshExpiry) || tok.Scope != "old" {
		t.Errorf("kept: %+v", tok)
	}
	if tok := (connections.TokenAnswer{AccessToken: "z", RefreshToken: "r2", Scope: "new"}).Renewed(now, prev); tok.RefreshToken != "r2" || !tok.RefreshExpiry.IsZero() || tok.Scope != "new" {
		t.Errorf("rotated: %+v", tok)
	}
}

func TestWithDefaults(t *testing.T) {
	def := connections.Settings{AuthURL: "a", TokenURL: "t", RevokeURL: "r", APIBase: "https://api.test/", Scopes: []string{"s"}, Env: "E_"}
	got := connections.Settings{ClientID: "id"}.WithDefaults(def)
	if got.ClientID != "id" || got.AuthURL != "a" || got.TokenURL != "t" || got.RevokeURL != "r" || got.APIBase != "https://api.test" ||
		len(got.Scopes) != 1 || got.Env != "E_" {
		t.Fatalf("%+v", got)
	}
	own := connections.Settings{AuthURL: "A", APIBase: "https://own.test//", Scopes: []string{"x", "y"}}.WithDefaults(def)
	if own.AuthURL != "A" || own.APIBase != "https://own.test" || len(own.Scopes) != 2 || own.TokenURL != "t" {
		t.Fatalf("%+v", own)
	}
}

func TestAuthURL(t *testing.T) {
	q := url.Values{"a": {"1"}}
	for base, want := range map[string]string{"https://p.test/auth": "https://p.test/auth?a=1", "https://p.test/auth?x=y": "https://p.test/auth?x=y&a=1"} {
		if got := connections.AuthURL(base, q); got != want {
			t.Errorf("%s: %s", base, got)
		}
	}
}

package memory_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// oauthAs authenticates every request as an OAuth access token of user's
// with the given scopes (the real token flow is tested in readapi/oauth;
// here only the memory routes' scope rules are).
type oauthAs struct {
	user   string
	scopes []string
}

func (o oauthAs) Authenticate(r *http.Request) (auth.Principal, error) {
	if r.Header.Get("Authorization") == "" {
		return auth.Principal{}, kernel.Unauthenticated("no credentials")
	}
	return auth.Principal{UserID: o.user, Method: auth.MethodOAuth, Scopes: o.scopes, ClientID: "agent"}, nil
}

func TestOAuthTokensNeedTheMemoryScopes(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	serve := func(scopes ...string) *httptest.Server {
		r := mux.NewRouter()
		readmemory.Routes(r, readmemory.Config{Service: w.svc, DB: w.api.DB, Auth: oauthAs{u.ID, scopes}})
		s := httptest.NewServer(r)
		t.Cleanup(s.Close)
		return s
	}
	call := func(s *httptest.Server, method, path, body string) int {
		req, _ := http.NewRequest(method, s.URL+readmemory.Base+path, bytes.NewBufferString(body))
		req.Header.Set("Authorization", "Bearer token")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden && !strings.Contains(resp.Header.Get("WWW-Authenticate"), "insufficient_scope") {
			t.Fatalf("403 without an insufficient_scope challenge")
		}
		return resp.StatusCode
	}
	readOnly, writeOnly, none := serve("memory:read"), serve("memory:write"), serve("openid", "profile")
	remember := `{"content":"Scoped agents may write this."}`
	recall := `{"query":"scoped agents"}`
	for _, c := range []struct {
		s            *httptest.Server
		method, path string
		body         string
		want         int
	}{
		{readOnly, "POST", "/remember", remember, 403},
		{readOnly, "POST", "/recall", recall, 200},
		{readOnly, "GET", "/entities", "", 200},
		{readOnly, "POST", "/context", recall, 200},
		{readOnly, "POST", "/relate", `{"subject":"A","predicate":"knows","object":"B"}`, 403},
		{readOnly, "DELETE", "/forget/mem_x", "", 403},
		{writeOnly, "POST", "/remember", remember, 200},
		{writeOnly, "POST", "/recall", recall, 403},
		{writeOnly, "POST", "/process", `{"messages":[{"role":"user","content":"I work at Initech as a tester."}]}`, 200},
		{writeOnly, "POST", "/relate", `{"subject":"Ann Ito","predicate":"knows","object":"Bea Moss"}`, 200},
		{readOnly, "POST", "/entities/Bea%20Moss/merge", `{"into":"Ann Ito"}`, 403},
		{writeOnly, "POST", "/entities/Bea%20Moss/merge", `{"into":"Ann Ito"}`, 200},
		{none, "POST", "/remember", remember, 403},
		{none, "POST", "/recall", recall, 403},
	} {
		if got := call(c.s, c.method, c.path, c.body); got != c.want {
			t.Errorf("scopes of %s on %s %s: status %d, want %d", c.s.URL, c.method, c.path, got, c.want)
		}
	}
}

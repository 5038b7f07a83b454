package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/memorytest"
)

// otherKind is a provider registered with the connections store that is
// not one of memory's kinds (the content workflow's platforms share it).
type otherKind struct{ *actions.Chat }

func (otherKind) Name() string { return "video_site" }

// connWorld is the platform API with the memory routes, the write-back
// actions and the connections routes on one real connections store,
// against a Slack and a GitHub fake.
type connWorld struct {
	*world
	conns  *connections.Service
	slack  *actiontest.Slack
	github *actiontest.GitHub
}

func startConnections(t *testing.T) *connWorld {
	t.Helper()
	w := &world{t: t, keys: memorytest.Keys(t)}
	cw := &connWorld{world: w, slack: actiontest.NewSlack(t, actionsToken), github: actiontest.NewGitHub(t, actionsToken, "acme/web")}
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, append(memory.Events(), domconn.Events()...), func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		conns, err := connections.New(connections.Config{Store: e.Store, Key: bytes.Repeat([]byte{3}, 32), Clock: e.Clock,
			IDs: eventstore.NewULIDs(e.Clock), Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		ad := actions.Adapters{Chat: actions.NewChat(cw.slack.Settings(), http.DefaultClient),
			Issues: actions.NewIssues(cw.github.Settings(), http.DefaultClient)}
		act := actions.New(e.Store, readmemory.ActionTokens(conns), ad, e.Clock, eventstore.NewULIDs(e.Clock), logger)
		if err := conns.Register(act.Providers()...); err != nil {
			t.Fatal(err)
		}
		if err := conns.Register(otherKind{actions.NewChat(cw.slack.Settings(), http.DefaultClient)}); err != nil {
			t.Fatal(err)
		}
		cw.conns = conns
		w.mem = readmemory.Routes(e.Router, readmemory.Config{Service: cmd.New(e.Store, w.keys, e.Clock, logger,
			cmd.Config{Vocabulary: memory.NewVocabulary()}), DB: e.DB, Auth: e.Auth, Actions: act, Connections: conns})
	})
	return cw
}

// get calls GET path as u (nil: anonymous) with header, not following
// redirects.
func (w *world) get(u *user, path string, header map[string]string) reply {
	w.t.Helper()
	req, err := http.NewRequest(http.MethodGet, w.api.URL+path, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.bearer)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, raw: raw, header: resp.Header, body: map[string]any{}}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			w.t.Fatalf("GET %s: bad JSON %q", path, raw)
		}
	}
	return out
}

// list returns u's connections as "provider=status" words.
func (cw *connWorld) list(u *user) (string, []any) {
	cw.t.Helper()
	out := cw.must(u, http.StatusOK, "GET", base+"/connections", nil)
	var words []string
	list := out["connections"].([]any)
	for _, c := range list {
		m := c.(map[string]any)
		words = append(words, m["provider"].(string)+"="+m["status"].(string))
	}
	return strings.Join(words, " "), list
}

var jsonOnly = map[string]string{"Accept": "application/json"}

func TestConnectionsOverHTTP(t *testing.T) {
	cw := startConnections(t)
	ana, bob := cw.register("Ana"), cw.register("Bob")
	send := map[string]any{"channel": "#general", "message": "hello"}

	// The configured kinds only (not mail, calendar, notes, nor the
	// other workflow's provider), none connected, no account fields.
	words, list := cw.list(ana)
	if words != "chat=not_connected issues=not_connected" {
		t.Fatalf("list %s", words)
	}
	if m := list[0].(map[string]any); len(m) != 2 {
		t.Fatalf("not connected carries %v", m)
	}
	// Credentials are needed, except on the callback.
	cw.refused(cw.do(nil, "GET", base+"/connections", nil), http.StatusUnauthorized, "", "")
	cw.refused(cw.get(nil, base+"/connections/chat/connect", nil), http.StatusUnauthorized, "", "")

	// Not connected: the action answers 409 naming the kind.
	r := cw.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "connect the chat provider first") {
		t.Fatalf("not connected: %d %s", r.status, r.raw)
	}

	// Unknown kinds: 404 naming the five; a kind not configured: 503.
	for _, p := range []string{"fax", "video_site"} {
		r = cw.get(ana, base+"/connections/"+p+"/connect", nil)
		if r.status != http.StatusNotFound || !strings.Contains(string(r.raw), "chat, mail, calendar, issues, notes") {
			t.Fatalf("%s: %d %s", p, r.status, r.raw)
		}
	}
	cw.refused(cw.do(ana, "DELETE", base+"/connections/fax", nil), http.StatusNotFound, "", "")
	cw.refused(cw.get(nil, base+"/connections/fax/callback?code=x&state=y", nil), http.StatusNotFound, "", "")
	cw.refused(cw.get(ana, base+"/connections/mail/connect", nil), http.StatusServiceUnavailable, "", "")

	// Connect: a redirect to the provider's authorization page, with the
	// JSON body; the callback on this host is the default redirect_uri.
	r = cw.get(ana, base+"/connections/chat/connect", map[string]string{"Accept": "text/html,application/json"})
	if r.status != http.StatusFound || r.header.Get("Location") != r.body["authorization_url"] || r.body["state"] == "" ||
		r.body["expires_in"] != float64(600) {
		t.Fatalf("connect: %d %v %s", r.status, r.header, r.raw)
	}
	loc, err := url.Parse(r.header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	wantCallback := cw.api.URL + base + "/connections/chat/callback"
	if !strings.HasPrefix(loc.String(), cw.slack.URL+"/oauth/v2/authorize?") || loc.Query().Get("redirect_uri") != wantCallback ||
		loc.Query().Get("state") != r.body["state"] || loc.Query().Get("client_id") != actiontest.ClientID {
		t.Fatalf("authorization URL %s", loc)
	}
	// A client accepting JSON only: 200; a redirect_uri of its own.
	r = cw.get(ana, base+"/connections/chat/connect?redirect_uri="+url.QueryEscape("https://app.example/cb"), jsonOnly)
	if r.status != http.StatusOK || !strings.Contains(r.body["authorization_url"].(string), url.QueryEscape("https://app.example/cb")) {
		t.Fatalf("connect JSON: %d %s", r.status, r.raw)
	}
	cw.refused(cw.get(ana, base+"/connections/chat/connect?redirect_uri="+url.QueryEscape("http://app.example/cb"), jsonOnly),
		http.StatusBadRequest, "redirect_uri", "url")
	// Behind a proxy that says https, the default callback is https.
	r = cw.get(ana, base+"/connections/chat/connect", map[string]string{"Accept": "application/json", "X-Forwarded-Proto": "https"})
	if r.status != http.StatusOK || !strings.Contains(r.body["authorization_url"].(string),
		url.QueryEscape(strings.Replace(wantCallback, "http://", "https://", 1))) {
		t.Fatalf("forwarded: %d %s", r.status, r.raw)
	}

	// The user consents at the provider, which sends the browser back
	// with a code and the state. The callback refuses a tampered state,
	// another user's credentials and the provider's error.
	r = cw.get(ana, base+"/connections/chat/connect", jsonOnly)
	state := r.body["state"].(string)
	callback := func(code, st string) string {
		return base + "/connections/chat/callback?" + url.Values{"code": {code}, "state": {st}}.Encode()
	}
	cw.refused(cw.get(nil, callback(actiontest.Code, flipMiddle(state)), nil), http.StatusBadRequest, "state", "valid")
	cw.refused(cw.get(bob, callback(actiontest.Code, state), nil), http.StatusBadRequest, "state", "valid")
	cw.refused(cw.get(nil, base+"/connections/chat/callback?error=access_denied&state="+url.QueryEscape(state), nil),
		http.StatusBadRequest, "error", "authorized")
	cw.refused(cw.get(nil, base+"/connections/chat/callback?"+url.Values{"state": {state}}.Encode(), nil), http.StatusBadRequest, "code", "required")
	if words, _ := cw.list(ana); words != "chat=not_connected issues=not_connected" {
		t.Fatalf("connected by a refused callback: %s", words)
	}
	// The browser, without credentials, completes it.
	r = cw.get(nil, callback(actiontest.Code, state), nil)
	if r.status != http.StatusOK || r.body["connected"] != true {
		t.Fatalf("callback: %d %s", r.status, r.raw)
	}
	conn := r.body["connection"].(map[string]any)
	if conn["provider"] != "chat" || conn["status"] != "connected" || conn["account_id"] == "" || conn["handle"] == "" || conn["connected_at"] == "" {
		t.Fatalf("connection %v", conn)
	}
	if strings.Contains(string(r.raw), actionsToken) {
		t.Fatal("a token in the answer")
	}
	// A state is good once.
	cw.refused(cw.get(nil, callback(actiontest.Code, state), nil), http.StatusBadRequest, "state", "unused")

	words, list = cw.list(ana)
	if words != "chat=connected issues=not_connected" || list[0].(map[string]any)["account_id"] != conn["account_id"] {
		t.Fatalf("list %s %v", words, list)
	}
	if words, _ := cw.list(bob); words != "chat=not_connected issues=not_connected" {
		t.Fatalf("bob sees %s", words)
	}
	// The store keeps it under the user's connections owner.
	if acc, err := cw.conns.Account(context.Background(), readmemory.ConnectionOwner(ana.ID), "chat"); err != nil || acc.ID != conn["account_id"] {
		t.Fatalf("account %+v %v", acc, err)
	}

	// The action acts with the connected account.
	out := cw.must(ana, http.StatusOK, "POST", base+"/actions/chat/send", send)
	if out["channel"] != "C0GENERAL" || out["ts"] == "" {
		t.Fatalf("sent %v", out)
	}
	posts := cw.slack.Calls("POST", "/api/chat.postMessage")
	if len(posts) != 1 || posts[0].Header.Get("Authorization") != "Bearer "+actionsToken {
		t.Fatalf("posts %v", posts)
	}
	r = cw.do(bob, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "connect the chat provider first") {
		t.Fatalf("bob: %d %s", r.status, r.raw)
	}

	// A token the user holds: refused unless the provider accepts it.
	cw.refused(cw.do(ana, "POST", base+"/connections/issues", map[string]any{}), http.StatusBadRequest, "access_token", "required")
	cw.refused(cw.do(ana, "POST", base+"/connections/issues", map[string]any{"access_token": "ghp_wrong"}),
		http.StatusBadRequest, "access_token", "accepted_by_provider")
	cw.refused(cw.do(ana, "POST", base+"/connections/issues", map[string]any{"access_token": actionsToken, "expires_in": -1}),
		http.StatusBadRequest, "expires_in", "range:0-315360000")
	cw.refused(cw.do(ana, "POST", base+"/connections/issues", map[string]any{"access_token": actionsToken, "scope": "repo"}),
		http.StatusBadRequest, "scope", "unknown_field")
	out = cw.must(ana, http.StatusCreated, "POST", base+"/connections/issues", map[string]any{"access_token": actionsToken,
		"refresh_token": actiontest.Refresh, "expires_in": 28800})
	conn = out["connection"].(map[string]any)
	if conn["provider"] != "issues" || conn["status"] != "connected" || conn["handle"] == "" || strings.Contains(string(mustJSON(t, out)), actionsToken) {
		t.Fatalf("token connect %v", out)
	}
	out = cw.must(ana, http.StatusOK, "POST", base+"/actions/issues/create", map[string]any{"repo": "acme/web", "title": "Bug"})
	if out["number"] != float64(1) {
		t.Fatalf("issue %v", out)
	}
	if words, _ := cw.list(ana); words != "chat=connected issues=connected" {
		t.Fatalf("list %s", words)
	}

	// The provider refuses the token: the action asks to reconnect, the
	// list says so, and the next action is refused without a call.
	cw.slack.FailNext("POST", "/api/chat.postMessage", actiontest.SlackError("token_revoked"))
	r = cw.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "reconnect the chat provider") {
		t.Fatalf("revoked: %d %s", r.status, r.raw)
	}
	words, list = cw.list(ana)
	if words != "chat=needs_reconnect issues=connected" || !strings.Contains(list[0].(map[string]any)["reason"].(string), "token_revoked") {
		t.Fatalf("list %s %v", words, list)
	}
	r = cw.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "reconnect the chat provider") ||
		len(cw.slack.Calls("POST", "/api/chat.postMessage")) != 2 {
		t.Fatalf("needs reconnect: %d %s (%d posts)", r.status, r.raw, len(cw.slack.Calls("POST", "/api/chat.postMessage")))
	}

	// Disconnect: revoked at the provider; then the action is not
	// connected, and a second disconnect is 404.
	out = cw.must(ana, http.StatusOK, "DELETE", base+"/connections/chat", nil)
	if out["disconnected"] != true || out["provider"] != "chat" || out["revoked_at_provider"] != true {
		t.Fatalf("disconnect %v", out)
	}
	if rv := cw.slack.Calls("POST", "/api/auth.revoke"); len(rv) != 1 || rv[0].Header.Get("Authorization") != "Bearer "+actionsToken {
		t.Fatalf("revoke calls %v", rv)
	}
	r = cw.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "connect the chat provider first") {
		t.Fatalf("after disconnect: %d %s", r.status, r.raw)
	}
	cw.refused(cw.do(ana, "DELETE", base+"/connections/chat", nil), http.StatusNotFound, "", "")
	cw.refused(cw.do(bob, "DELETE", base+"/connections/issues", nil), http.StatusNotFound, "", "")
	if words, _ := cw.list(ana); words != "chat=not_connected issues=connected" {
		t.Fatalf("list %s", words)
	}

	// Reconnecting through the flow, with the user's own credentials on
	// the callback this time.
	r = cw.get(ana, base+"/connections/chat/connect", jsonOnly)
	r = cw.get(ana, callback(actiontest.Code, r.body["state"].(string)), nil)
	if r.status != http.StatusOK || r.body["connection"].(map[string]any)["account_id"] == conn["account_id"] {
		t.Fatalf("reconnect: %d %s", r.status, r.raw)
	}
	cw.must(ana, http.StatusOK, "POST", base+"/actions/chat/send", send)

	// No token anywhere in the events.
	var payloads string
	if err := cw.api.DB.QueryRow(`SELECT string_agg(payload::text || metadata::text, ' ') FROM es.events`).Scan(&payloads); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(payloads, actionsToken) || strings.Contains(payloads, actiontest.Refresh) {
		t.Fatal("a token was stored in an event")
	}
}

// TestConnectionsExpiryGivenByTheUser checks expires_in becomes the
// token's expiry (refreshed before use once due).
func TestConnectionsExpiryGivenByTheUser(t *testing.T) {
	cw := startConnections(t)
	ana := cw.register("Ana")
	cw.must(ana, http.StatusCreated, "POST", base+"/connections/issues", map[string]any{"access_token": actionsToken,
		"refresh_token": actiontest.Refresh, "expires_in": 600})
	cw.api.Clock.Advance(6 * time.Minute)
	cw.must(ana, http.StatusOK, "POST", base+"/actions/issues/create", map[string]any{"repo": "acme/web", "title": "Bug"})
	envs, err := cw.api.Store.Load(context.Background(), domconn.StreamID(readmemory.ConnectionOwner(ana.ID), "issues"), eventstore.LoadOptions{})
	if err != nil || len(envs) != 2 {
		t.Fatalf("%d events, %v", len(envs), err)
	}
	if _, ok := envs[1].Event.(*domconn.Refreshed); !ok {
		t.Fatalf("event %T", envs[1].Event)
	}
}

func TestConnectionsNotConfigured(t *testing.T) {
	w, _, _ := startActions(t, true)
	ana := w.register("Ana")
	for _, c := range []struct{ method, path string }{
		{"GET", base + "/connections"}, {"GET", base + "/connections/chat/connect"}, {"POST", base + "/connections/chat"},
		{"DELETE", base + "/connections/chat"},
	} {
		r := w.do(ana, c.method, c.path, map[string]any{"access_token": "x"})
		if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.raw), "not configured") {
			t.Fatalf("%s %s: %d %s", c.method, c.path, r.status, r.raw)
		}
	}
	w.refused(w.get(nil, base+"/connections/chat/callback?code=x&state=y", nil), http.StatusServiceUnavailable, "", "")
}

func flipMiddle(s string) string {
	b := []byte(s)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/memory/mcpserver"
)

func TestToolsOverStreamableHTTP(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	exercise(t, func() *mcp.ClientSession { return connect(t, w.api.URL+mcpserver.Path, u.bearer) })
}

func TestListsTheNineToolsWithSchemasAndHints(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	cs := connect(t, w.api.URL+mcpserver.Path, w.apiKey(u))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"remember": false, "recall": true, "forget": false, "relate": false, "reflect": true,
		"profile": true, "timeline": true, "context": true, "merge_entities": false} // name -> read-only
	required := map[string]string{"remember": "content", "recall": "query", "forget": "memory_id", "relate": "predicate",
		"reflect": "entity_id", "profile": "entity_id", "timeline": "entity_id", "context": "query",
		"merge_entities": "into"}
	if len(res.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		ro, ok := want[tool.Name]
		if !ok {
			t.Fatalf("unexpected tool %s", tool.Name)
		}
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != ro {
			t.Fatalf("%s: annotations %+v, want read-only %v", tool.Name, tool.Annotations, ro)
		}
		destructive := tool.Annotations.DestructiveHint != nil && *tool.Annotations.DestructiveHint
		if destructive != (tool.Name == "forget" || tool.Name == "merge_entities") {
			t.Fatalf("%s: destructive hint %v", tool.Name, destructive)
		}
		schema, _ := tool.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		field, _ := props[required[tool.Name]].(map[string]any)
		if schema["type"] != "object" || field["description"] == "" || field["description"] == nil {
			t.Fatalf("%s: input schema %v", tool.Name, tool.InputSchema)
		}
		if req, _ := schema["required"].([]any); !slices.Contains(req, any(required[tool.Name])) {
			t.Fatalf("%s: required %v lacks %s", tool.Name, schema["required"], required[tool.Name])
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Fatalf("%s: no output schema or description", tool.Name)
		}
	}
	rem := res.Tools[slices.IndexFunc(res.Tools, func(t *mcp.Tool) bool { return t.Name == "remember" })]
	props := rem.InputSchema.(map[string]any)["properties"].(map[string]any)
	for _, f := range []string{"content", "entity_id", "memory_type", "importance", "namespace", "tags", "metadata"} {
		if _, ok := props[f]; !ok {
			t.Fatalf("remember: no %s in %v", f, props)
		}
	}
}

// raw posts one JSON-RPC message to /mcp with the given headers.
func raw(t *testing.T, url string, headers map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
	`"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

const listTools = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`

func TestCredentialsAreRequiredAndSessionsBelongToTheirUser(t *testing.T) {
	w := start(t)
	url := w.api.URL + mcpserver.Path
	resp, body := raw(t, url, nil, initialize)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Fatalf("no bearer: %d %q %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}
	resp, _ = raw(t, url, map[string]string{"Authorization": "Bearer not-a-token"}, initialize)
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("bad bearer: %d", resp.StatusCode)
	}

	a, b := w.register("Ada"), w.register("Bob")
	cs := connect(t, url, a.bearer)
	var rem mcpserver.RememberResult
	call(t, cs, "remember", map[string]any{"content": "Ada keeps the launch codes in the blue notebook."}, &rem)
	if cs.ID() == "" {
		t.Fatal("the session has no Mcp-Session-Id")
	}
	session := map[string]string{"Mcp-Session-Id": cs.ID(), "Mcp-Protocol-Version": "2025-11-25"}
	with := func(bearer string) map[string]string {
		h := map[string]string{"Authorization": "Bearer " + bearer}
		for k, v := range session {
			h[k] = v
		}
		return h
	}
	if resp, body := raw(t, url, with(a.bearer), listTools); resp.StatusCode != http.StatusOK {
		t.Fatalf("the session's own user: %d %s", resp.StatusCode, body)
	}
	resp, body = raw(t, url, with(b.bearer), listTools)
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
		t.Fatalf("another user's bearer on the session: %d %s", resp.StatusCode, body)
	}
	// Bob's own session does not reach Ada's memories, even across namespaces.
	ids := recallIDs(t, connect(t, url, b.bearer), map[string]any{"query": "where are the launch codes",
		"allow_cross_namespace": true})
	if contains(ids, rem.MemoryID) {
		t.Fatalf("Bob recalled Ada's memory: %v", ids)
	}

	// An API key in X-API-Key works as well as a bearer.
	resp, body = raw(t, url, map[string]string{"X-API-Key": w.apiKey(a)}, initialize)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("X-API-Key: %d %s", resp.StatusCode, body)
	}
}

// fakeOAuth stands in for OAuth access tokens: the tokens it knows are
// principals with the given scopes; anything else goes to the real
// authenticator.
type fakeOAuth struct {
	real   auth.Authenticator
	tokens map[string]auth.Principal
}

func (f fakeOAuth) Authenticate(r *http.Request) (auth.Principal, error) {
	if p, ok := f.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]; ok {
		return p, nil
	}
	return f.real.Authenticate(r)
}

func TestOAuthTokensNeedTheToolsScope(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	oauth := func(scopes ...string) auth.Principal {
		return auth.Principal{UserID: u.ID, Method: auth.MethodOAuth, ClientID: "agent", Scopes: scopes}
	}
	fake := fakeOAuth{real: w.api.Auth, tokens: map[string]auth.Principal{"read-only": oauth(mcpserver.ScopeRead),
		"read-write": oauth(mcpserver.ScopeRead, mcpserver.ScopeWrite), "no-memory": oauth("profile")}}
	srv := httptest.NewServer(mcpserver.Handler(w.mem, fake, nil))
	t.Cleanup(srv.Close)

	resp, body := raw(t, srv.URL, map[string]string{"Authorization": "Bearer no-memory"}, initialize)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "insufficient_scope") {
		t.Fatalf("token without memory scopes: %d %q %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
	}

	rw := connect(t, srv.URL, "read-write")
	var rem mcpserver.RememberResult
	call(t, rw, "remember", map[string]any{"content": "Ada's favourite editor is Emacs.", "namespace": "global"}, &rem)

	ro := connect(t, srv.URL, "read-only")
	if ids := recallIDs(t, ro, map[string]any{"query": "which editor does Ada use", "namespace": "global"}); !contains(ids, rem.MemoryID) {
		t.Fatalf("read-only recall: %v lacks %s", ids, rem.MemoryID)
	}
	refused(t, ro, "remember", map[string]any{"content": "Ada also likes vim."}, "forbidden", mcpserver.ScopeWrite)
	refused(t, ro, "forget", map[string]any{"memory_id": rem.MemoryID}, mcpserver.ScopeWrite)
	refused(t, ro, "relate", map[string]any{"subject": "Ada", "predicate": "uses", "object": "Emacs"}, mcpserver.ScopeWrite)
}

package mcpserver_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/readapi/memory/mcpserver"
)

// viaHTTPBackend opens a session with the stdio server's setup (the HTTP
// backend with an API key, one random session id per server) over an
// in-memory transport.
func viaHTTPBackend(t *testing.T, baseURL, key string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	session := mcpserver.NewSessionID()
	srv := mcpserver.NewServer(mcpserver.Options{Bind: mcpserver.Static(mcpserver.NewHTTP(baseURL, key, nil)),
		SessionID: func(*mcp.CallToolRequest) string { return session },
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil))})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait(); cancel() })
	return cs
}

func TestToolsThroughTheHTTPBackend(t *testing.T) {
	w := start(t)
	key := w.apiKey(w.register("Ada"))
	exercise(t, func() *mcp.ClientSession { return viaHTTPBackend(t, w.api.URL, key) })
}

func TestHTTPBackendErrors(t *testing.T) {
	w := start(t)
	bad := viaHTTPBackend(t, w.api.URL, "sk_live_not_a_real_key")
	refused(t, bad, "recall", map[string]any{"query": "anything"}, "unauthenticated")

	gone := viaHTTPBackend(t, "http://127.0.0.1:1", "sk_live_whatever")
	refused(t, gone, "recall", map[string]any{"query": "anything"}, "unavailable", "unreachable")
}

func TestSessionIDs(t *testing.T) {
	a, b := mcpserver.NewSessionID(), mcpserver.NewSessionID()
	if a == b || mcpserver.CheckSessionID("STRATA_MCP_SESSION", a) != nil {
		t.Fatalf("session ids %q %q", a, b)
	}
	if mcpserver.CheckSessionID("STRATA_MCP_SESSION", "has space") == nil || mcpserver.CheckSessionID("STRATA_MCP_SESSION", "") == nil {
		t.Fatal("a bad session id passed")
	}
}

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore/pgtest"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/mcpserver"
	"github.com/strata-platform/strata/readapi/memory/memorytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is the platform API with identity, the memory routes and /mcp on
// one store.
type world struct {
	t   *testing.T
	api *identitytest.Env
	mem *readmemory.API
	n   atomic.Int64
}

func start(t *testing.T) *world {
	t.Helper()
	w := &world{t: t}
	keys := memorytest.Keys(t)
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, memory.Events(), func(e *identitytest.Env) {
		w.mem = memorytest.Mount(t, e, keys)
		mcpserver.Routes(e.Router, w.mem, e.Auth, slog.New(slog.NewTextHandler(io.Discard, nil)))
	})
	return w
}

// user is a registered platform user with a bearer credential.
type user struct {
	ID     string
	bearer string
}

func (w *world) register(name string) *user {
	w.t.Helper()
	email := fmt.Sprintf("m%d-%d@mcp.test", w.n.Add(1), time.Now().UnixNano())
	s, err := w.api.Svc.Register(context.Background(), idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: name})
	if err != nil {
		w.t.Fatal(err)
	}
	return &user{ID: s.User.ID, bearer: s.AccessToken}
}

// apiKey issues an API key for u.
func (w *world) apiKey(u *user) string {
	w.t.Helper()
	k, err := w.api.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: u.ID, Name: "mcp tests"})
	if err != nil {
		w.t.Fatal(err)
	}
	return k.Secret
}

// bearerTransport adds a bearer credential to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session over streamable HTTP at url with bearer.
func connect(t *testing.T, url, bearer string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearerTransport{token: bearer}}}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool, fails the test on a protocol or tool error, and
// decodes the structured result into out.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", tool, args, text(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, raw, err)
	}
}

func callRaw(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", tool, args, err)
	}
	return res
}

// refused checks a call is a tool error whose text holds every part.
func refused(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, parts ...string) {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if !res.IsError {
		t.Fatalf("%s %v: succeeded, want a tool error", tool, args)
	}
	for _, p := range parts {
		if !strings.Contains(text(res), p) {
			t.Fatalf("%s %v: error %q does not name %q", tool, args, text(res), p)
		}
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// recallIDs recalls and returns the memory ids found.
func recallIDs(t *testing.T, cs *mcp.ClientSession, args map[string]any) []string {
	t.Helper()
	var res mcpserver.RecallResult
	call(t, cs, "recall", args, &res)
	ids := []string{}
	for _, h := range res.Results {
		ids = append(ids, h.MemoryID)
	}
	return ids
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

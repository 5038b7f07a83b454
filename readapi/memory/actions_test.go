package memory_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/commands/connections"
	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/memorytest"
)

const actionsToken = "xoxp-readapi-secret-token"

// mapTokens is the connections store for tests: owner/provider -> token.
type mapTokens struct {
	mu sync.Mutex
	m  map[string]string
}

func (f *mapTokens) set(owner, provider, token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[owner+"/"+provider] = token
}

func (f *mapTokens) Token(_ context.Context, owner, provider string) (connections.Tokens, connections.Identity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	tok, ok := f.m[owner+"/"+provider]
	if !ok {
		return connections.Tokens{}, connections.Identity{}, actions.NotConnected(provider)
	}
	return connections.Tokens{AccessToken: tok}, connections.Identity{ID: "acct"}, nil
}

func (f *mapTokens) Report(context.Context, string, string, error) {}

// startActions is the platform API with the memory routes and write-back
// actions against a Slack and a GitHub fake (nil svc: not configured).
func startActions(t *testing.T, configured bool) (*world, *mapTokens, *actiontest.Slack) {
	t.Helper()
	w := &world{t: t, keys: memorytest.Keys(t)}
	tokens := &mapTokens{m: map[string]string{}}
	slack := actiontest.NewSlack(t, actionsToken)
	github := actiontest.NewGitHub(t, actionsToken, "acme/web")
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, memory.Events(), func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		cfg := readmemory.Config{Service: cmd.New(e.Store, w.keys, e.Clock, logger, cmd.Config{Vocabulary: memory.NewVocabulary()}),
			DB: e.DB, Auth: e.Auth}
		if configured {
			cfg.Actions = actions.New(e.Store, tokens, actions.Adapters{Chat: actions.NewChat(slack.Settings(), http.DefaultClient),
				Issues: actions.NewIssues(github.Settings(), http.DefaultClient)}, e.Clock, eventstore.NewULIDs(e.Clock), logger)
		}
		w.mem = readmemory.Routes(e.Router, cfg)
	})
	return w, tokens, slack
}

func TestWriteBackActionsOverHTTP(t *testing.T) {
	w, tokens, slack := startActions(t, true)
	ana := w.register("Ana")
	send := map[string]any{"channel": "#general", "message": "hello"}

	// Not connected: 409 naming the provider kind.
	r := w.do(ana, "POST", base+"/actions/chat/send", send)
	w.refused(r, http.StatusConflict, "", "")
	if !strings.Contains(string(r.raw), "chat") || !strings.Contains(string(r.raw), "connect") {
		t.Fatalf("not connected: %s", r.raw)
	}
	tokens.set(ana.ID, actions.ProviderChat, actionsToken)
	out := w.must(ana, http.StatusOK, "POST", base+"/actions/chat/send", send)
	if out["channel"] != "C0GENERAL" || out["message"] != "hello" || out["ts"] == "" || out["action_id"] == "" {
		t.Fatalf("sent %v", out)
	}
	// The event agrees with the answer and holds no token.
	envs, err := w.api.Store.Load(context.Background(), memory.ActionsStream(ana.ID), eventstore.LoadOptions{})
	if err != nil || len(envs) != 1 {
		t.Fatalf("%d events, %v", len(envs), err)
	}
	ev := envs[0].Event.(*memory.ActionPerformed)
	if ev.ActionID != out["action_id"] || ev.ResultID != out["ts"] || ev.ResultRef != "C0GENERAL" || ev.UserID != ana.ID {
		t.Fatalf("event %+v, answer %v", ev, out)
	}
	var payloads string
	if err := w.api.DB.QueryRow(`SELECT string_agg(payload::text || metadata::text, ' ') FROM es.events`).Scan(&payloads); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(payloads, actionsToken) {
		t.Fatal("a token was stored in an event")
	}

	// Bad input: 400 naming the field and rule; unknown fields refused.
	w.refused(w.do(ana, "POST", base+"/actions/chat/send", map[string]any{"channel": "general"}), 400, "message", "required")
	w.refused(w.do(ana, "POST", base+"/actions/chat/send", map[string]any{"channel": "general", "message": "x", "as_user": true}),
		400, "as_user", "unknown_field")
	w.refused(w.do(ana, "POST", base+"/actions/issues/create", map[string]any{"repo": "acme", "title": "x"}), 400, "repo", "repo")
	w.refused(w.do(ana, "POST", base+"/actions/calendar/create", map[string]any{"title": "x", "start": "soon", "end": "later"}),
		400, "start", "datetime")
	w.refused(w.do(ana, "POST", base+"/actions/notes/page", map[string]any{"parent_id": "nope", "title": "x"}), 400, "parent_id", "uuid")
	w.refused(w.do(ana, "POST", base+"/actions/mail/reply", map[string]any{"thread_id": "abc", "body": "x", "cc": []string{"x"}}),
		400, "cc[0]", "email")

	// Providers without an adapter: 503.
	r = w.do(ana, "POST", base+"/actions/mail/reply", map[string]any{"thread_id": "abc", "body": "x"})
	w.refused(r, http.StatusServiceUnavailable, "", "")

	// The provider refuses: 422 with its reason; rate limited: 503 with Retry-After.
	r = w.do(ana, "POST", base+"/actions/chat/send", map[string]any{"channel": "nowhere", "message": "x"})
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.raw), "channel_not_found") {
		t.Fatalf("refused: %d %s", r.status, r.raw)
	}
	slack.FailNext("POST", "/api/chat.postMessage", actiontest.Failure{Status: 429, Header: map[string]string{"Retry-After": "7"},
		Body: `{"ok":false,"error":"ratelimited"}`})
	r = w.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "7" {
		t.Fatalf("rate limited: %d %v %s", r.status, r.header, r.raw)
	}
	// Revoked: 409 asking to reconnect the kind.
	slack.FailNext("POST", "/api/chat.postMessage", actiontest.SlackError("token_revoked"))
	r = w.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusConflict || !strings.Contains(string(r.raw), "reconnect the chat provider") {
		t.Fatalf("revoked: %d %s", r.status, r.raw)
	}
	// No answer after sending: 504, the outcome unknown.
	slack.FailNext("POST", "/api/chat.postMessage", actiontest.Failure{Drop: true})
	r = w.do(ana, "POST", base+"/actions/chat/send", send)
	if r.status != http.StatusGatewayTimeout || !strings.Contains(string(r.raw), "not retried") {
		t.Fatalf("unconfirmed: %d %s", r.status, r.raw)
	}

	// Issues, connected: number and html_url.
	tokens.set(ana.ID, actions.ProviderIssues, actionsToken)
	out = w.must(ana, http.StatusOK, "POST", base+"/actions/issues/create", map[string]any{"repo": "acme/web", "title": "Bug",
		"body": "steps", "labels": []string{"bug"}})
	if out["number"] != float64(1) || out["html_url"] != "https://github.com/acme/web/issues/1" {
		t.Fatalf("issue %v", out)
	}

	// Credentials are needed.
	w.refused(w.do(nil, "POST", base+"/actions/chat/send", send), http.StatusUnauthorized, "", "")
}

func TestWriteBackActionsNotConfigured(t *testing.T) {
	w, _, _ := startActions(t, false)
	ana := w.register("Ana")
	r := w.do(ana, "POST", base+"/actions/notes/page", map[string]any{"parent_id": strings.Repeat("a", 32), "title": "x"})
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.raw), "not configured") {
		t.Fatalf("%d %s", r.status, r.raw)
	}
}

package builder_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/projections/foundersessions"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	"github.com/strata-platform/strata/readapi/oauth"
)

// lockedBuffer is a log sink shared by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// everyBuilderEvent is each builder event once, whether or not Events()
// already lists the secret events.
func everyBuilderEvent() []func() kernel.Event {
	seen := map[string]bool{}
	var out []func() kernel.Event
	for _, list := range [][]func() kernel.Event{builder.Events(), builder.ChatEvents(), builder.SecretEvents()} {
		for _, c := range list {
			if name := c().EventType(); !seen[name] {
				seen[name] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// secretsWorld is the platform API with its OAuth provider and the builder
// surface with founder sessions, generations and the secrets routes, all
// logging (at debug) into one buffer; every response body a test reads
// through call is kept.
type secretsWorld struct {
	api     *identitytest.Env
	builder string
	logs    *lockedBuffer
	mu      sync.Mutex
	bodies  []string
}

func newSecretsWorld(t *testing.T) *secretsWorld {
	t.Helper()
	api := identitytest.StartWithEvents(t, identity.Options{}, everyBuilderEvent(), func(e *identitytest.Env) {
		oauth.Routes(e.Router, e.Svc, e.Auth)
	})
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
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
	js, err := jobs.New(api.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		_ = js.Stop(sctx)
		cancel()
		<-done
	})
	redirect := srv.URL + "/auth/callback"
	secret, err := api.Svc.EnsureFirstPartyClient(ctx, "strata-builder-secrets", "Strata builder", []string{redirect})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, foundersessions.Name)
	}
	sessions, err := cmdbuilder.NewSessions(api.Store, wait, api.Clock, logger, cmdbuilder.Config{Issuer: api.URL,
		ClientID: "strata-builder-secrets", ClientSecret: secret, RedirectURL: redirect, Key: api.Master.Derive("builder founder sessions")})
	if err != nil {
		t.Fatal(err)
	}
	founders := readbuilder.Routes(surface.Router, sessions, api.DB, api.Clock, false)
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: api.Store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js,
		Clock: api.Clock, IDs: eventstore.NewULIDs(api.Clock), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	readbuilder.ChatRoutes(surface.Router, readbuilder.NewChat(readbuilder.ChatConfig{Chats: chats, Store: api.Store, Founders: founders,
		PollEvery: 20 * time.Millisecond, BaseURL: srv.URL}))
	secrets, err := cmdbuilder.NewSecrets(cmdbuilder.SecretsConfig{Store: api.Store, Chats: chats,
		WrappingKey: api.Master.Derive("builder app secrets"), Clock: api.Clock})
	if err != nil {
		t.Fatal(err)
	}
	readbuilder.SecretRoutes(surface.Router, founders, secrets)
	for _, reg := range []string{
		`{"email":"grace@example.com","password":"` + password + `","full_name":"Grace Hopper"}`,
		`{"email":"ada@example.com","password":"` + password + `","full_name":"Ada Lovelace"}`,
	} {
		if st, body := post(t, api.URL+"/api/v1/auth/register", reg); st != http.StatusCreated {
			t.Fatalf("register: %d %s", st, body)
		}
	}
	return &secretsWorld{api: api, builder: srv.URL, logs: logs}
}

// signInAs walks the OAuth flow as email and checks the session.
func (w *secretsWorld) signInAs(b *browser, email string) {
	b.t.Helper()
	_, page := b.do(http.MethodGet, w.builder+"/auth/login?return_to="+url.QueryEscape("/"), nil)
	f := hidden(page)
	f.Set("email", email)
	f.Set("password", password)
	_, page = b.do(http.MethodPost, w.api.URL+"/oauth/login", f)
	f = hidden(page)
	f.Set("decision", "allow")
	b.do(http.MethodPost, w.api.URL+"/oauth/consent", f)
	if st, out, _ := w.call(b, http.MethodGet, "/api/session", ""); st != 200 || !strings.Contains(jsonText(out), email) {
		b.t.Fatalf("signed in as %s: %d %v", email, st, out)
	}
}

// call sends a request as b (a JSON body when body is not empty) and
// returns the status, the decoded body (nil when not JSON) and the raw
// body, which it keeps for the leak scan.
func (w *secretsWorld) call(b *browser, method, path, body string) (int, map[string]any, string) {
	b.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, w.builder+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var hdr strings.Builder
	_ = resp.Header.Write(&hdr)
	w.mu.Lock()
	w.bodies = append(w.bodies, hdr.String()+"\n"+string(raw))
	w.mu.Unlock()
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out, string(raw)
}

// generate runs a generation as b ("" continues nothing) and returns the
// chat id once it completed.
func (w *secretsWorld) generate(b *browser, body string) string {
	b.t.Helper()
	st, _, raw := w.call(b, http.MethodPost, "/api/chat-ws", body)
	evs := read(b.t, strings.NewReader(raw), -1)
	if st != 200 || len(evs) == 0 || evs[len(evs)-1].Data["status"] != "completed" {
		b.t.Fatalf("generation: %d %s", st, names(evs))
	}
	return evs[0].Data["chatId"].(string)
}

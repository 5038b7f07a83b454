package builder_test

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/projections/foundersessions"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
)

// sysWorld is the builder surface with founder sessions (forged: a
// sign-in event and its projector, without the OAuth round trip), the
// generations (template path, run by the jobs), the business systems and
// the nightly loop, on a fresh database.
type sysWorld struct {
	t       *testing.T
	url     string
	db      *stdsql.DB
	store   *eventstore.Store
	clock   *kernel.FixedClock
	runner  *projections.Runner
	chats   *cmdbuilder.Chats
	systems *cmdbuilder.Systems
	nightly *cmdbuilder.Nightly
}

// sysEvents is every builder event once.
func sysEvents() []func() kernel.Event {
	seen := map[string]bool{}
	var out []func() kernel.Event
	for _, list := range [][]func() kernel.Event{builder.Events(), builder.ChatEvents(), builder.DeployEvents(), builder.SecretEvents(),
		builder.ArtifactEvents(), builder.SystemsEvents(), builder.NightlyEvents()} {
		for _, c := range list {
			if name := c().EventType(); !seen[name] {
				seen[name] = true
				out = append(out, c)
			}
		}
	}
	return out
}

func newSysWorld(t *testing.T) *sysWorld {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range sysEvents() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	// Inside the default window (02:00-05:00 UTC) of 2025-05-01.
	clock := kernel.NewFixedClock(time.Date(2025, 5, 1, 3, 0, 0, 0, time.UTC))
	ids := eventstore.NewULIDs(clock)
	store := eventstore.New(db.SQL, reg, clock, ids)
	logger := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), logger, projections.Config{PollInterval: 10 * time.Millisecond},
		foundersessions.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	js, err := jobs.New(db.SQL, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js, Clock: clock,
		IDs: ids, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := shred.New(bytes.Repeat([]byte{7}, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	surface, err := readapi.NewSurface("builder", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(surface.Handler)
	systems, err := cmdbuilder.NewSystems(cmdbuilder.SystemsConfig{Store: store, Chats: chats, Keys: keys,
		KeySecret: bytes.Repeat([]byte{5}, 32), BaseURL: srv.URL, Clock: clock, IDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	nightly, err := cmdbuilder.NewNightly(cmdbuilder.NightlyConfig{Store: store, Chats: chats, Systems: systems, Jobs: js, Clock: clock,
		IDs: ids, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := cmdbuilder.NewSessions(store, nil, clock, logger, cmdbuilder.Config{Issuer: "http://127.0.0.1:9", ClientID: "builder",
		Key: bytes.Repeat([]byte{9}, 32)})
	if err != nil {
		t.Fatal(err)
	}
	founders := readbuilder.Routes(surface.Router, sessions, db.SQL, clock, false)
	readbuilder.SystemsRoutes(surface.Router, founders, systems, nightly)
	if err := js.Start(ctx); err != nil {
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
	return &sysWorld{t: t, url: srv.URL, db: db.SQL, store: store, clock: clock, runner: runner, chats: chats, systems: systems, nightly: nightly}
}

// founder is a signed-in founder: a session cookie recorded the way a
// sign-in records it.
type founder struct {
	w      *sysWorld
	userID string
	cookie string
}

func (w *sysWorld) signIn(userID string) *founder {
	w.t.Helper()
	cookie := "cookie-" + userID
	ev := &builder.FounderSignedIn{SessionID: "ses_" + userID, SessionHash: cmdbuilder.HashCookie(cookie), UserID: userID,
		Email: userID + "@example.com", Scope: "openid", SealedTokens: []byte("unused"), ExpiresAt: w.clock.Now().Add(builder.SessionTTL), At: w.clock.Now()}
	a, err := w.store.Append(context.Background(), eventstore.Stream{Type: builder.StreamSession, ID: "ses_" + userID}, eventstore.NoStream, ev)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.runner.WaitFor(ctx, a.Last, foundersessions.Name); err != nil {
		w.t.Fatal(err)
	}
	return &founder{w: w, userID: userID, cookie: cookie}
}

// company generates an app from idea for userID ("" anonymous) and waits
// for its version.
func (w *sysWorld) company(userID, idea string) string {
	w.t.Helper()
	st, err := w.chats.Start(context.Background(), userID, idea, "", "")
	if err != nil {
		w.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		ch, err := w.chats.Load(context.Background(), st.ChatID)
		if err != nil {
			w.t.Fatal(err)
		}
		if g, ok := ch.Latest(); ok && g.Status != builder.StatusRunning {
			if g.Status != builder.StatusCompleted {
				w.t.Fatalf("generation %s: %s %s", g.ID, g.Code, g.Reason)
			}
			return st.ChatID
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatal("the generation did not complete")
	return ""
}

// call sends a request with the founder's cookie (f nil: none) and an
// Authorization header (auth "": none); body "" sends none.
func (w *sysWorld) call(f *founder, auth, method, path, body string) (int, map[string]any) {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, w.url+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if f != nil {
		req.AddCookie(&http.Cookie{Name: "strata_founder", Value: f.cookie})
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		out = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, out
}

// field is the field an error body names (the builder's error shape).
func field(body map[string]any) string {
	if e, ok := body["error"].(map[string]any); ok {
		if f, ok := e["field"].(string); ok {
			return f
		}
	}
	if f, ok := body["field"].(string); ok {
		return f
	}
	return ""
}

// card returns the card with id from a GET /api/build/systems body.
func card(t *testing.T, body map[string]any, id string) map[string]any {
	t.Helper()
	list, _ := body["systems"].([]any)
	for _, c := range list {
		if m := c.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("no card %s in %v", id, body)
	return nil
}

func count(t *testing.T, c map[string]any, key string) int {
	t.Helper()
	counts, _ := c["counts"].(map[string]any)
	n, ok := counts[key].(float64)
	if !ok {
		t.Fatalf("card %v has no count %s", c["id"], key)
	}
	return int(n)
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

package builder_test

import (
	"bufio"
	"context"
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
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// artWorld is the builder surface with the generation routes (to make
// real companies) and the artifact and Ask routes, on its own database.
type artWorld struct {
	t     *testing.T
	url   string
	store *eventstore.Store
	chats *cmdbuilder.Chats
}

// artEvents is builder.Events() with ArtifactEvents() added, each event
// type once (whether or not builder.Events() already lists them).
func artEvents() []func() kernel.Event {
	seen := map[string]bool{}
	var out []func() kernel.Event
	for _, c := range append(builder.Events(), builder.ArtifactEvents()...) {
		if name := c().EventType(); !seen[name] {
			seen[name] = true
			out = append(out, c)
		}
	}
	return out
}

// startArtifacts starts the world; opts change the artifact commands'
// configuration.
func startArtifacts(t *testing.T, opts ...func(*cmdbuilder.ArtifactsConfig)) *artWorld {
	t.Helper()
	env := identitytest.StartWithEvents(t, identity.Options{}, artEvents(), func(*identitytest.Env) {})
	logger := slog.New(slog.DiscardHandler)
	js, err := jobs.New(env.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ids := eventstore.NewULIDs(env.Clock)
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: env.Store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js,
		Clock: env.Clock, IDs: ids, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	acfg := cmdbuilder.ArtifactsConfig{Store: env.Store, Chats: chats, Clock: env.Clock, IDs: ids, Logger: logger}
	for _, o := range opts {
		o(&acfg)
	}
	arts, err := cmdbuilder.NewArtifacts(acfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	surface, err := readapi.NewSurface("builder", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(surface.Handler)
	readbuilder.ChatRoutes(surface.Router, readbuilder.NewChat(readbuilder.ChatConfig{Chats: chats, Store: env.Store,
		PollEvery: 20 * time.Millisecond, BaseURL: srv.URL}))
	readbuilder.ArtifactRoutes(surface.Router, readbuilder.NewArtifactAPI(arts))
	t.Cleanup(func() {
		srv.Close()
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = js.Stop(sctx)
		cancel()
	})
	return &artWorld{t: t, url: srv.URL, store: env.Store, chats: chats}
}

// generate builds a company from idea through POST /api/chat-ws, reads
// the stream to its complete event and returns the chat (company) id.
func (w *artWorld) generate(idea string) string {
	w.t.Helper()
	body, _ := json.Marshal(map[string]string{"message": idea})
	resp, err := http.Post(w.url+"/api/chat-ws", "application/json", strings.NewReader(string(body)))
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		w.t.Fatalf("chat-ws: %d %s", resp.StatusCode, b)
	}
	var chatID, event, status string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			event = name
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var d map[string]any
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			w.t.Fatal(err)
		}
		switch event {
		case "start":
			chatID, _ = d["chatId"].(string)
		case "complete":
			status, _ = d["status"].(string)
		}
	}
	if chatID == "" || status != builder.StatusCompleted {
		w.t.Fatalf("generation of %q: chat %q ended %q", idea, chatID, status)
	}
	return chatID
}

// do sends a request with a JSON body (none when body is "") and decodes
// the JSON answer.
func (w *artWorld) do(method, path, body string) (int, map[string]any) {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, w.url+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		w.t.Fatalf("%s %s: %d %q is not JSON", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

// jsonBody marshals v for a request body.
func jsonBody(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

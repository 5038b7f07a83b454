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
	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// chatWorld is the builder surface with the generation routes, the jobs
// that run generations, and a local blob store.
type chatWorld struct {
	t     *testing.T
	url   string
	store *eventstore.Store
	chats *cmdbuilder.Chats
	apps  bool // node runs the apps (previews' servers)
}

func startChats(t *testing.T) *chatWorld {
	t.Helper()
	return startChatsWith(t, nil)
}

// startChatsWith is startChats with a model path (nil: template only).
func startChatsWith(t *testing.T, model cmdbuilder.Generator) *chatWorld {
	t.Helper()
	env := identitytest.StartWithEvents(t, identity.Options{}, builder.Events(), func(*identitytest.Env) {})
	logger := slog.New(slog.DiscardHandler)
	js, err := jobs.New(env.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: env.Store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js,
		Clock: env.Clock, IDs: eventstore.NewULIDs(env.Clock), Logger: logger, Model: model})
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
	cfg := readbuilder.ChatConfig{Chats: chats, Store: env.Store, PollEvery: 20 * time.Millisecond, BaseURL: srv.URL}
	var deployer *runtime.Deployer
	if rt, err := runtime.NewProcess(runtime.ProcessConfig{DataDir: t.TempDir(), Logger: logger}); err == nil {
		deployer = runtime.NewDeployer(rt, runtime.Probe{Interval: 50 * time.Millisecond, Healthy: 2, Deadline: 20 * time.Second}, logger)
		cfg.Preview = cmdbuilder.NewDeploys(cmdbuilder.DeploysConfig{Chats: chats, Store: env.Store, Clock: env.Clock,
			Deployer: deployer, AppsDir: t.TempDir(), Logger: logger})
	}
	readbuilder.ChatRoutes(surface.Router, readbuilder.NewChat(cfg))
	t.Cleanup(func() {
		srv.Close()
		if deployer != nil {
			dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer dcancel()
			_ = deployer.Close(dctx)
		}
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = js.Stop(sctx)
		cancel()
	})
	return &chatWorld{t: t, url: srv.URL, store: env.Store, chats: chats, apps: deployer != nil}
}

// sse is one event of a stream as a client reads it.
type sse struct {
	ID, Name string
	Data     map[string]any
}

// post sends a chat request (lastID: a reconnect) and returns the
// response; the caller reads the stream.
func (c *chatWorld) post(body string, lastID string) *http.Response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.url+"/api/chat-ws", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// read reads events from a stream until n were read (n < 0: to its end).
func read(t *testing.T, body io.Reader, n int) []sse {
	t.Helper()
	var out []sse
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cur sse
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				if err := json.Unmarshal([]byte(data.String()), &cur.Data); err != nil {
					t.Fatalf("event %s: data %q: %v", cur.Name, data.String(), err)
				}
				out = append(out, cur)
				if len(out) == n {
					return out
				}
			}
			cur, data = sse{}, strings.Builder{}
		case strings.HasPrefix(line, "id: "):
			cur.ID = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data.WriteString(strings.TrimPrefix(line, "data: "))
		case strings.HasPrefix(line, ":"):
		default:
			t.Fatalf("not an SSE line: %q", line)
		}
	}
	return out
}

func names(evs []sse) string {
	var n []string
	for _, e := range evs {
		n = append(n, e.Name)
	}
	return strings.Join(n, " ")
}

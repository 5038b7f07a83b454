package builder_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder/deck"
	"github.com/strata-platform/strata/eventstore"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
)

// founderWorld is the builder surface with founder sessions, generations,
// deploys and the deck.
type founderWorld struct {
	*world
	paid    atomic.Bool
	apps    bool
	appsDir string
}

func newFounderWorld(t *testing.T) *founderWorld {
	t.Helper()
	w := &founderWorld{world: newWorld(t)}
	logger := slog.New(slog.DiscardHandler)
	js, err := jobs.New(w.api.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: w.api.Store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js,
		Clock: w.api.Clock, IDs: eventstore.NewULIDs(w.api.Clock), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := readbuilder.ChatConfig{Chats: chats, Store: w.api.Store, Founders: w.founders, PollEvery: 20 * time.Millisecond, BaseURL: w.builder}
	var deployer *runtime.Deployer
	w.appsDir = t.TempDir()
	if rt, err := runtime.NewProcess(runtime.ProcessConfig{DataDir: t.TempDir(), Logger: logger}); err == nil {
		deployer = runtime.NewDeployer(rt, runtime.Probe{Interval: 50 * time.Millisecond, Healthy: 2, Deadline: 5 * time.Second}, logger)
		d := cmdbuilder.NewDeploys(cmdbuilder.DeploysConfig{Chats: chats, Store: w.api.Store, Clock: w.api.Clock,
			Deployer: deployer, AppsDir: w.appsDir, Logger: logger})
		cfg.Preview = d
		readbuilder.DeployRoutes(w.router, w.founders, d)
		w.apps = true
	}
	readbuilder.ChatRoutes(w.router, readbuilder.NewChat(cfg))
	readbuilder.DeckRoutes(w.router, w.founders, chats, cmdbuilder.DeckSources{Paid: func(string) bool { return w.paid.Load() }})
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		if deployer != nil {
			_ = deployer.Close(sctx)
		}
		_ = js.Stop(sctx)
		cancel()
	})
	return w
}

// generate runs a generation as b (signed in or not) and returns the
// chat id once it completed.
func (w *founderWorld) generate(t *testing.T, b *browser, idea string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.builder+"/api/chat-ws", strings.NewReader(`{"message":"`+idea+`"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	evs := read(t, resp.Body, -1)
	if len(evs) == 0 || evs[len(evs)-1].Data["status"] != "completed" {
		t.Fatalf("generation: %s", names(evs))
	}
	return evs[0].Data["chatId"].(string)
}

func (b *browser) json(method, u, body string) (int, map[string]any) {
	b.t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, out
}

// The deck: a session route, 402 without a paid plan, an editable pptx
// that validates (and renders, where LibreOffice is installed: its own
// package tests that) or the same content as text; only the company's
// founder may export it.
func TestDeckExport(t *testing.T) {
	w := newFounderWorld(t)
	grace := newBrowser(t)
	w.signIn(grace, "/")
	chatID := w.generate(t, grace, "book yoga classes at my studio")
	anon := newBrowser(t)
	if st, _ := anon.json(http.MethodGet, w.builder+"/api/build/deck?companyId="+chatID, ""); st != 401 {
		t.Fatalf("without a session: %d", st)
	}
	st, out := grace.json(http.MethodGet, w.builder+"/api/build/deck?companyId="+chatID, "")
	if st != 402 || !strings.Contains(jsonText(out), "plan_required") {
		t.Fatalf("without a paid plan: %d %v", st, out)
	}
	w.paid.Store(true)
	resp, body := grace.do(http.MethodGet, w.builder+"/api/build/deck?companyId="+chatID+"&format=pptx", nil)
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "presentationml") {
		t.Fatalf("pptx: %d %v", resp.StatusCode, resp.Header)
	}
	slides, err := deck.Validate([]byte(body))
	if err != nil || slides < 4 {
		t.Fatalf("%d slides: %v", slides, err)
	}
	resp, text := grace.do(http.MethodGet, w.builder+"/api/build/deck?companyId="+chatID+"&format=txt", nil)
	if resp.StatusCode != 200 || !strings.Contains(text, "book yoga classes at my studio") || !strings.Contains(text, "Traction") ||
		!strings.Contains(text, "every count is zero") {
		t.Fatalf("txt: %d %s", resp.StatusCode, text)
	}
	if st, out := grace.json(http.MethodGet, w.builder+"/api/build/deck?companyId="+chatID+"&format=pdf", ""); st != 400 ||
		!strings.Contains(jsonText(out), "format") {
		t.Fatalf("pdf: %d %v", st, out)
	}
	// A company generated without a session belongs to nobody.
	orphan := w.generate(t, anon, "a helpdesk for my SaaS customers")
	if st, _ := grace.json(http.MethodGet, w.builder+"/api/build/deck?companyId="+orphan, ""); st != 403 {
		t.Fatalf("another company: %d", st)
	}
	if st, _ := grace.json(http.MethodGet, w.builder+"/api/build/deck?companyId=nope", ""); st != 400 {
		t.Fatalf("malformed id: %d", st)
	}
}

// Redeploy: the founder's current version switches after healthy probes;
// a version whose server never becomes healthy is rolled back with the
// probes and the log tail, the previous version still serving.
func TestRedeploy(t *testing.T) {
	w := newFounderWorld(t)
	if !w.apps {
		t.Skip("node is not on PATH: apps cannot run (CI installs it)")
	}
	grace := newBrowser(t)
	w.signIn(grace, "/")
	chatID := w.generate(t, grace, "track my running workouts")
	st, out := grace.json(http.MethodPost, w.builder+"/api/build/redeploy", `{"companyId":"`+chatID+`"}`)
	if st != 200 || out["outcome"] != "healthy" || out["switched"] != true || len(out["probes"].([]any)) < 2 {
		t.Fatalf("redeploy: %d %v", st, out)
	}
	first := out["versionId"]
	if st, _ := newBrowser(t).json(http.MethodPost, w.builder+"/api/build/redeploy", `{"companyId":"`+chatID+`"}`); st != 401 {
		t.Fatalf("without a session: %d", st)
	}
	if st, out := grace.json(http.MethodPost, w.builder+"/api/build/redeploy", `{}`); st != 400 || !strings.Contains(jsonText(out), "companyId") {
		t.Fatalf("no companyId: %d %v", st, out)
	}
	// The same version made unhealthy on disk (its materialized copy's
	// server exits at once): the redeploy rolls back, with the probes and
	// the log tail, and the running instance keeps serving.
	server := filepath.Join(w.appsDir, chatID, first.(string), "server.js")
	if err := os.WriteFile(server, []byte("console.error('broken on purpose'); process.exit(3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out = grace.json(http.MethodPost, w.builder+"/api/build/redeploy", `{"companyId":"`+chatID+`"}`)
	if st != 502 || out["outcome"] != "rolled_back" || out["switched"] != false || !strings.Contains(jsonText(out), "deploy_unhealthy") ||
		!strings.Contains(fmt.Sprint(out["logTail"]), "broken on purpose") {
		t.Fatalf("unhealthy redeploy: %d %v", st, out)
	}
	resp, body := grace.do(http.MethodGet, w.builder+"/api/preview/"+chatID+"/healthz", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("the previous instance stopped serving: %d %s", resp.StatusCode, body)
	}
}

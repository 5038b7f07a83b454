package briefing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmd "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
	"github.com/strata-platform/strata/readapi"
	readbriefing "github.com/strata-platform/strata/readapi/briefing"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const key = "internal-key-for-tests-0001"

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// world is the platform API with the briefing routes over one database;
// process adds another process (store, projector, service, surface) over
// the same database.
type world struct {
	t     *testing.T
	db    *pgtest.Database
	reg   *eventstore.Registry
	clock *kernel.FixedClock
	procs []*process
}

type process struct {
	url    string
	svc    *cmd.Service
	store  *eventstore.Store
	runner *projections.Runner
}

func newWorld(t *testing.T, keys ...string) *world {
	t.Helper()
	reg := eventstore.NewRegistry()
	for _, c := range append(briefing.Events(), projections.Events()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, db: pgtest.DB(t), reg: reg, clock: kernel.NewFixedClock(time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC))}
	if keys == nil {
		keys = []string{"an-older-key-still-valid-1", key}
	}
	w.process(keys)
	return w
}

// process starts one more process over the world's database.
func (w *world) process(keys []string) *process {
	t := w.t
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := eventstore.New(w.db.SQL, w.reg, w.clock, eventstore.NewULIDs(w.clock))
	runner, err := projections.NewRunner(w.db.SQL, w.reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projbriefing.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	agents, err := briefing.NewAgents("acme_ir_agent", "acme_acquisition_agent")
	if err != nil {
		t.Fatal(err)
	}
	svc := cmd.New(store, w.clock, logger, cmd.Config{Agents: agents, Wait: func(ctx context.Context, k eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, k, projbriefing.Name)
	}})
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	readbriefing.Routes(surface.Router, readbriefing.Config{Service: svc, DB: w.db.SQL, Keys: keys})
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	p := &process{url: srv.URL, svc: svc, store: store, runner: runner}
	w.procs = append(w.procs, p)
	return p
}

// reply is an HTTP answer.
type reply struct {
	Status int
	Raw    []byte
	Body   map[string]any
}

// call makes a request to the first process with the internal key.
func (w *world) call(method, path string, body any) reply {
	return w.callAs(w.procs[0], key, method, path, body)
}

func (w *world) callAs(p *process, k, method, path string, body any) reply {
	w.t.Helper()
	var rd io.Reader
	ct := "application/json"
	switch b := body.(type) {
	case nil:
	case string:
		rd, ct = bytes.NewReader([]byte(b)), "application/x-ndjson"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, p.url+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", ct)
	}
	if k != "" {
		req.Header.Set("X-Internal-API-Key", k)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Raw: raw}
	_ = json.Unmarshal(raw, &r.Body)
	return r
}

// count counts rows.
func (w *world) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.db.SQL.QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

func f(v float64) *float64 { return &v }

package audit_test

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

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projaudit "github.com/strata-platform/strata/projections/audit"
	"github.com/strata-platform/strata/readapi"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// world is the platform API with the audit routes; fixture sites on
// loopback are allowed explicitly (allow).
type world struct {
	t     *testing.T
	url   string
	db    *pgtest.Database
	store *eventstore.Store
	clock *kernel.FixedClock
}

func newWorld(t *testing.T, booking string, allow ...string) *world {
	return newWorldWith(t, options{booking: booking, allow: allow})
}

type options struct {
	booking    string
	allow      []string
	crawlDelay time.Duration
	enforce    bool // the tier table gates the endpoints
}

func newWorldWith(t *testing.T, o options) *world {
	t.Helper()
	booking, allow := o.booking, o.allow
	reg := eventstore.NewRegistry()
	for _, c := range append(audit.Events(), projections.Events()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 27, 10, 0, 5, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projaudit.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	keys, err := shred.New(bytes.Repeat([]byte{3}, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	svc := cmdaudit.New(store, clock, cmdaudit.Config{Keys: keys, BookingURL: booking,
		Scanner: cmdaudit.NewScanner(cmdaudit.ScannerConfig{Client: outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: allow}}),
			RequestTimeout: 2 * time.Second, Clock: clock}),
		CrawlDelay: o.crawlDelay,
		Wait: func(ctx context.Context, k eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			return runner.WaitFor(wctx, k, projaudit.Name)
		}})
	js, err := jobs.New(db.SQL, jobs.Config{Workers: 8, PollInterval: 20 * time.Millisecond, RescueAfter: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.RegisterJobs(js); err != nil {
		t.Fatal(err)
	}
	if err := js.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = js.Stop(ctx)
	})
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(), Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	readaudit.Routes(surface.Router, readaudit.Config{Service: svc, DB: db.SQL, Limiter: ratelimit.New(db.SQL, clock),
		Tier: func(r *http.Request) (string, error) {
			switch t := r.Header.Get("X-Test-Tier"); t {
			case "":
				return "free", nil
			case "invalid":
				return "", kernel.Unauthenticated("the API key is not valid")
			default:
				return t, nil
			}
		}, Enforce: o.enforce})
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &world{t: t, url: srv.URL, db: db, store: store, clock: clock}
}

type reply struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

func (w *world) call(method, path string, body any, header ...string) reply {
	w.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, w.url+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	_ = json.Unmarshal(raw, &r.Body)
	return r
}

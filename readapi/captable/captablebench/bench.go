// Package captablebench measures the cap table against baselines taken in
// the same run on the same machine. It seeds one large company (by default
// 10,000 stakeholders, 50,000 grants and about 100,000 events on the
// company's stream) with the domain's own decisions, lets the read model
// catch up, and measures:
//
//   - GET /api/v1/cap-table over loopback HTTP, served from the read model,
//     against GET /api/v1/stakeholders/{id} on the same server (same
//     authentication, rate limiting and membership check, one cheap row);
//   - the as-of replay of the whole stream (what GET /cap-table?asOfDate=
//     does: Service.Replay and Company.Summary) against loading the same
//     stream from the store without folding it;
//   - a 10-class exit waterfall with every breakpoint up to $1B
//     (waterfall.Run and waterfall.Breakpoints) against waterfall.Run alone
//     on the same table.
//
// `strata bench captable` runs it in a scratch database.
package captablebench

import (
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/commands/passwords"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/projections"
	projcaptable "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi"
	readcaptable "github.com/strata-platform/strata/readapi/captable"
)

// Options size a run. Start from Full or Quick and set DB.
type Options struct {
	DB       *stdsql.DB // a migrated database reserved for the bench (see storebench.NewScratch)
	Progress io.Writer  // a line per step; nil discards them
	Mode     string     // names the preset in the report

	Stakeholders int // stakeholders of the seeded company (at least 100)
	Grants       int // equity grants of the seeded company (at least Stakeholders)
	Batch        int // events per append while seeding

	Clients  int // concurrent keep-alive HTTP clients
	Requests int // requests per side (ours and the baseline) and round
	Rounds   int // alternating baseline/ours rounds of the HTTP figures

	ReplayRuns    int // as-of replays (and baseline loads), alternating
	WaterfallRuns int // waterfalls with breakpoints (and baseline runs)
}

// Full is the preset of `strata bench captable`: the sizes of the issue's
// targets (10,000 stakeholders, 50,000 grants, ~100,000 events).
func Full() Options {
	return Options{Mode: "full", Stakeholders: 10_000, Grants: 50_000, Batch: 1000, Clients: 8, Requests: 2000, Rounds: 2,
		ReplayRuns: 7, WaterfallRuns: 1000}
}

// Quick is the preset of `--quick`: a smoke test, well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Stakeholders: 500, Grants: 2000, Batch: 500, Clients: 8, Requests: 300, Rounds: 1,
		ReplayRuns: 3, WaterfallRuns: 100}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// cheapArgon2 hashes the bench accounts' passwords: no figure signs in
// with a password, so the production cost would only slow the setup.
var cheapArgon2 = passwords.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

// server is the cap table on the bench's database: store, projection
// runner, command service and the cap table surface on a loopback port.
type server struct {
	o      Options
	url    string // http://127.0.0.1:port/api/v1
	db     *stdsql.DB
	store  *eventstore.Store
	runner *projections.Runner
	svc    *cmd.Service
	http   *http.Client
	srv    *http.Server
	stop   context.CancelFunc
	done   chan struct{}
}

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// start wires the cap table as cmd/strata does (production projection
// runner settings, read-your-writes through the projector) and serves it.
func start(ctx context.Context, o Options) (*server, error) {
	reg := eventstore.NewRegistry()
	for _, c := range append(captable.CompanyEvents(), captable.AccountEvents()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			return nil, err
		}
	}
	if err := reg.Seal(); err != nil {
		return nil, err
	}
	clock := kernel.SystemClock{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := eventstore.New(o.DB, reg, clock, eventstore.NewULIDs(clock))
	wake := projections.NewSignal()
	runner, err := projections.NewRunner(o.DB, reg, wake, logger, projections.Config{}, projcaptable.Projector{})
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	svc := cmd.New(store, clock, eventstore.NewULIDs(clock), logger, cmd.Config{TokenKey: key, Argon2: cheapArgon2,
		Wait: func(ctx context.Context, k eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			return runner.WaitFor(wctx, k, projcaptable.Name)
		}})
	surface, err := readapi.NewSurface("captable", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		return nil, err
	}
	readcaptable.Routes(surface.Router, svc, o.DB)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &server{o: o, url: "http://" + ln.Addr().String() + "/api/v1", db: o.DB, store: store, runner: runner, svc: svc,
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}, Timeout: time.Minute},
		srv:  &http.Server{Handler: surface.Handler, ReadHeaderTimeout: 10 * time.Second}, stop: stop, done: make(chan struct{})}
	go func() { _ = s.srv.Serve(ln) }()
	go store.RunNotifierTypes(bg, wake.FireTypes)
	go func() { defer close(s.done); runner.Run(bg) }()
	return s, nil
}

// close stops the HTTP server and lets the runner commit its batch.
func (s *server) close() {
	_ = s.srv.Close()
	s.stop()
	<-s.done
}

// Run seeds the company on o.DB, serves the cap table on a loopback port and
// measures. The report's figures are in the order of the package comment,
// after the seeding figures.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "captable", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0),
		Server: fmt.Sprintf("loopback HTTP, %d stakeholders, %d grants", o.Stakeholders, o.Grants)}
	if o.Stakeholders < 100 || o.Grants < o.Stakeholders || o.Clients < 1 || o.Requests < 1 || o.Rounds < 1 ||
		o.ReplayRuns < 1 || o.WaterfallRuns < 1 || o.Batch < 1 {
		return rep, fmt.Errorf("captablebench: options out of range: %+v", o)
	}
	var version string
	if err := o.DB.QueryRowContext(ctx, `SHOW server_version`).Scan(&version); err == nil {
		rep.Server = "PostgreSQL " + version + ", " + rep.Server
	}
	s, err := start(ctx, o)
	if err != nil {
		return rep, err
	}
	defer s.close()
	co, seedFigs, err := s.seed(ctx)
	if err != nil {
		return rep, err
	}
	rep.Figures = append(rep.Figures, seedFigs...)
	for _, step := range []func(context.Context, *company) ([]storebench.Figure, error){s.capTable, s.replays, s.waterfalls} {
		figs, err := step(ctx, co)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

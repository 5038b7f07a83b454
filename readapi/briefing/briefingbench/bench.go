// Package briefingbench measures the agent briefing over loopback HTTP at
// the size of its issue, each figure next to a baseline taken in the same
// run on the same server and database:
//
//   - Ingestion: 1,000,000 synthetic observations shaped like the real
//     feeds (FRED indicators over two years; mentions and documents over
//     30 days naming ~20,000 companies with Zipf-like popularity; filings
//     over 90 days in a realistic mix of forms; developer activity of
//     ~50,000 developers over 90 days; some titles and texts carry the
//     algorithms' lexicon phrases), sent as NDJSON batches of 10,000 to
//     POST .../observations by a few concurrent clients; the rate over
//     HTTP and until the read model holds them all (information figures).
//   - The daily run: POST .../runs {"algo": "all"} for the as-of day
//     (yesterday, UTC), target 30 s; baseline: a plain SQL scan of every
//     observation row the six algorithms read (the same columns over the
//     same windows, fully fetched by a Go client). Each algorithm's own
//     time (the run report's took) next to the scan of its windows.
//   - The briefing: 100,000 signals (the run's, and synthetic
//     briefing.signal_detected events appended through the server's event
//     store and projected by briefing.v1: both types, created over 7
//     days), then GET .../agent-briefing for ir_agent, sales_agent, cfo,
//     scout and research in turn (default since_hours and limit), p50, p95
//     (target 20 ms) and p99 at 1 and 8 clients; baselines: GET /health of
//     the same server with the same client, and the briefing's own SQL
//     run directly on the server's pool.
//   - Consumption: POST .../consume-signal for distinct (agent, signal)
//     pairs from many clients for a while, every answer a 200 (target
//     1,000 a second); baseline: INSERT ... ON CONFLICT DO NOTHING of one
//     row per consumption into a scratch table, same pool, same clients.
//     Then 50 concurrent consumptions of one signal by one agent: exactly
//     one briefing.signal_consumed is recorded, every call answers 200.
//   - Resident memory of the process (server and load generator share
//     it): the peak over the run next to the size once started.
//
// `strata bench briefing` starts `strata serve --surfaces api` itself on a
// scratch database (cmd/strata), with the production wiring and a
// generated internal API key. The load generator shares the machine with
// it.
package briefingbench

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the platform API with the briefing routes.
	Start    func(ctx context.Context) (*Server, error)
	Progress io.Writer // a line per step; nil discards them
	Mode     string    // names the preset in the report
	Seed     uint64    // the synthetic data's seed

	Observations int // ingested over HTTP
	Batch        int // observations per request (at most briefing.MaxBatch)
	Ingesters    int // concurrent ingesting clients

	Signals     int // signals in the read model before the briefing is read
	SignalBatch int // synthetic signal events per append

	Briefings   int // measured briefing requests per concurrency (and as many of each baseline)
	ReadClients int // clients of the concurrent briefing round

	Consumers  int           // concurrent consuming clients
	ConsumeFor time.Duration // how long they consume (and as long the baseline inserts)
	Contended  int           // concurrent consumptions of one signal by one agent
}

// Full is the preset of `strata bench briefing`: the sizes of the issue.
func Full() Options {
	return Options{Mode: "full", Seed: 20240601, Observations: 1_000_000, Batch: briefing.MaxBatch, Ingesters: 4,
		Signals: 100_000, SignalBatch: 1000, Briefings: 2000, ReadClients: 8, Consumers: 48, ConsumeFor: 10 * time.Second,
		Contended: 50}
}

// Quick is the preset of `--quick`: a smoke test of well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Seed: 20240601, Observations: 50_000, Batch: briefing.MaxBatch, Ingesters: 4,
		Signals: 10_000, SignalBatch: 1000, Briefings: 200, ReadClients: 8, Consumers: 16, ConsumeFor: 2 * time.Second,
		Contended: 50}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Server is a running platform API under bench.
type Server struct {
	URL string // the API surface's base URL: http://127.0.0.1:port
	Key string // an internal API key it accepts (X-Internal-API-Key)
	// Store is the server's own event store (production registry): the
	// synthetic signals are appended through it.
	Store *eventstore.Store
	// DB is the server's own connection pool, on the database it serves:
	// the baselines run on it.
	DB       *stdsql.DB
	Describe string // what runs, for the report's header
	Close    func() error
}

// Run starts the server (o.Start), ingests, runs the algorithms and
// measures; the figures come in the order they are taken.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "briefing", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP"}
	if o.Start == nil || o.Observations < minObservations || o.Batch < 1 || o.Batch > briefing.MaxBatch || o.Ingesters < 1 ||
		o.Signals < 1 || o.SignalBatch < 1 || o.Briefings < 1 || o.ReadClients < 1 || o.Consumers < 1 ||
		o.ConsumeFor <= 0 || o.Contended < 2 {
		return rep, fmt.Errorf("briefingbench: options out of range: %+v", o)
	}
	mem := startRSS()
	o.Logf("starting the platform API ...")
	srv, err := o.Start(ctx)
	if err != nil {
		mem.stop()
		return rep, err
	}
	defer func() {
		if err := srv.Close(); err != nil {
			o.Logf("stopping the server: %v", err)
		}
	}()
	if srv.URL == "" || srv.Key == "" || srv.Store == nil || srv.DB == nil {
		mem.stop()
		return rep, errors.New("briefingbench: Start returned a server without a URL, a key, a store or a pool")
	}
	mem.started()
	rep.Server = fmt.Sprintf("loopback HTTP, %s; %d observations, %d signals", srv.Describe, o.Observations, o.Signals)
	b := &bench{o: o, srv: srv, asOf: briefing.Day(time.Now()).Add(-24 * time.Hour),
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * max(o.Consumers, o.Contended, o.ReadClients, o.Ingesters),
			IdleConnTimeout: 90 * time.Second, DisableCompression: true}, Timeout: 15 * time.Minute}}
	defer b.http.CloseIdleConnections()
	for _, step := range []func(context.Context) ([]storebench.Figure, error){
		b.ingest, b.runs, b.signals, b.briefings, b.consumes, b.contended,
	} {
		figs, err := step(ctx)
		if err != nil {
			mem.stop()
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Figures = append(rep.Figures, mem.figure(o))
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

// bench is one run's state.
type bench struct {
	o    Options
	srv  *Server
	http *http.Client
	asOf time.Time // the day the algorithms run for: yesterday, UTC

	mu     sync.Mutex
	pairs  []pair // distinct (agent, signal) pairs not consumed yet, in the order they are consumed
	nextPr int    // the first pair not consumed
}

package main

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/briefing/briefingbench"
)

// The briefing bench runs end to end at a tiny size through `strata
// serve` (production wiring: the internal API key, NDJSON ingestion, the
// daily run of the six algorithms, the briefing.v1 projector, synthetic
// signals through the event store, consumptions) on a test database, and
// reports every figure with a value and a sample count, and its baseline
// where it has one. No target is asserted: targets are checked by the
// command, never in tests.
func TestBenchBriefingReportsEveryFigure(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := briefingbench.Quick()
	o.Observations, o.Batch, o.Ingesters, o.Signals, o.SignalBatch, o.Briefings, o.ReadClients = 8000, 2000, 2, 2000, 500, 30, 4
	o.Consumers, o.ConsumeFor, o.Contended = 4, 500*time.Millisecond, 10
	o.Progress = &logs
	o.Start = func(ctx context.Context) (*briefingbench.Server, error) {
		return c.benchBriefingServer(ctx, db.URL, db.SQL)
	}
	rep, err := briefingbench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	// Names that carry a measured count (inputs, rows) are compared up to it.
	want := []wantFigure{
		{"setup: POST .../observations, 8000 observations, NDJSON batches of 2000, 2 clients", false},
		{"setup: observations until the read model (briefing.v1) holds them all", false},
		{"POST .../runs all six for a day, 8000 observations (base: SQL scan of the windows, ", true},
		{"  market_sentiment run, ", true},
		{"  content_intelligence run, ", true},
		{"  developer_influence run, ", true},
		{"  acquisition_signal run, ", true},
		{"  environmental_risk run, ", true},
		{"  competitive_movement run, ", true},
		{"setup: ", false}, // the synthetic signals
		{"GET .../agent-briefing p50, 1 client, 2000 signals (base: GET /health)", true},
		{"GET .../agent-briefing p95, 1 client, 2000 signals (base: GET /health)", true},
		{"GET .../agent-briefing p99, 1 client, 2000 signals (base: GET /health)", true},
		{"GET .../agent-briefing p95, 1 client, 2000 signals (base: its SQL run directly)", true},
		{"GET .../agent-briefing p50, 4 clients, 2000 signals (base: GET /health)", true},
		{"GET .../agent-briefing p95, 4 clients, 2000 signals (base: GET /health)", true},
		{"GET .../agent-briefing p99, 4 clients, 2000 signals (base: GET /health)", true},
		{"POST .../consume-signal, 4 clients, distinct pairs, all 200 (base: INSERT ON CONFLICT DO NOTHING)", true},
		{"POST .../consume-signal p95 under that load (base: the INSERT's p95)", true},
		{"POST .../consume-signal, 10 at once for one agent and signal: 1 event, 9 already_consumed (p95)", false},
		{"resident memory of the process (serve and the load generator): peak (base: once started)", true},
	}
	checkFigures(t, rep, want, true, "")
}

package main

import (
	"context"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/audit/auditbench"
)

// The audit bench runs end to end at a tiny size through `strata serve`
// (production wiring: the SSRF-safe scanner allowed to reach the loopback
// fixture sites by STRATA_OUTBOUND_ALLOW, the shared rate limiter, an
// account registered through the identity routes and put on the audit
// plan pro, the crawl as a durable job without delay, the badge) on a
// test database, and reports every figure with a value and a sample
// count, and its baseline. No target is asserted: targets are checked by
// the command, never in tests.
func TestBenchAuditReportsEveryFigure(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := auditbench.Quick()
	// More quick scans and badges than one source address may send in a
	// minute: the bench spreads them over several.
	o.Scans, o.ScanClients, o.CrawlPages, o.SitePages, o.Badges = 70, 2, 20, 30, 130
	o.Progress = &logs
	o.Start = func(ctx context.Context, allow []string) (*auditbench.Server, error) {
		return c.benchAuditServer(ctx, db.URL, db.SQL, allow)
	}
	rep, err := auditbench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	want := []wantFigure{
		{"POST .../ax-audit quick scan p50, 1 client, excellent fixture (base: its ", true},
		{"POST .../ax-audit quick scan p95, 1 client, excellent fixture (base: its ", true},
		{"POST .../ax-audit quick scan p99, 1 client, excellent fixture (base: its ", true},
		{"POST .../ax-audit quick scan p50, 2 clients, excellent fixture (base: its ", true},
		{"POST .../ax-audit quick scan p95, 2 clients, excellent fixture (base: its ", true},
		{"POST .../ax-audit quick scan p99, 2 clients, excellent fixture (base: its ", true},
		{"POST .../crawl max_pages 20 until completed, 30-page fixture, no delay (base: the same pages fetched directly, 2 fetchers)", true},
		{"GET .../badge p50, distinct inputs: rendered (cache misses) (base: GET /health)", true},
		{"GET .../badge p95, distinct inputs: rendered (cache misses) (base: GET /health)", true},
		{"GET .../badge p99, distinct inputs: rendered (cache misses) (base: GET /health)", true},
		{"GET .../badge p95, one input repeated: 200 from the cache (base: GET /health)", true},
		{"GET .../badge p95, one input, If-None-Match: 304 (base: GET /health)", true},
	}
	checkFigures(t, rep, want, true, logs.String())
}

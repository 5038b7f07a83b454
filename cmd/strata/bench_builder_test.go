package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/builder/builderbench"
)

// The builder bench runs end to end at a tiny size through `strata serve`
// (production wiring: jobs, blob store, founder sign-in through the OAuth
// provider, apps under node) on a test database, and reports every figure
// with a value, a sample count and its baseline. No target is asserted:
// targets are checked by the command, never in tests. Skipped only
// without node on PATH (the apps' runtime).
func TestBenchBuilderReportsEveryFigure(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: the generated apps cannot run")
	}
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := builderbench.Quick()
	o.Warmup, o.Generations, o.Readers, o.Round, o.Records, o.Clients, o.Redeploys, o.Pause = 1, 3, 4, 100*time.Millisecond, 2, 2, 1, 50*time.Millisecond
	o.Progress = &logs
	o.Start = func(ctx context.Context) (*builderbench.Builder, error) {
		return c.benchBuilderServer(ctx, db.URL, db.SQL)
	}
	rep, err := builderbench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	want := []string{
		"template generation, first SSE event p50 (base: GET /api/health)",
		"template generation, first SSE event p95 (base: GET /api/health)",
		"template generation, first SSE event p99 (base: GET /api/health)",
		"template generation, complete p50 (base: one event-store append)",
		"template generation, complete p95 (base: one event-store append)",
		"template generation, complete p99 (base: one event-store append)",
		"preview index.html p95, 4 readers (base: GET /api/health)",
		"preview app.js p95, 4 readers (base: GET /api/health)",
		"GET /api/preview/<malformed id> p95, 4 readers: 404, no database (reference)",
		"preview API answered during 1 redeploys, 2 clients (",
		"preview API p99 during redeploys, 2 clients (base: no redeploy)",
		"redeploy, median of 1 (base: the app's first start)",
		"redeploy, slowest of 1 (base: the app's first start)",
	}
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(rep.Figures), len(want), rep.Figures)
	}
	for i, name := range want {
		f := rep.Figures[i]
		switch {
		case !strings.HasPrefix(f.Name, name):
			t.Errorf("figure %d is %q, want %q", i, f.Name, name)
		case f.Samples <= 0 || f.Baseline <= 0 || (!f.Reference && f.Ours <= 0):
			t.Errorf("figure %q has no samples, no value or no baseline: %+v", f.Name, f)
		}
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

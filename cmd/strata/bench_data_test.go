package main

import (
	"context"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// The data bench runs end to end at a tiny size through `strata serve`
// (production wiring: the importer, the shared rate limit lifted by
// STRATA_DATA_RATE_LIMIT, the public routes over HTTP) on a test database,
// and reports every figure with a value, a sample count and its baseline.
// No target is asserted: targets are checked by the command, never in
// tests.
func TestBenchDataReportsEveryFigure(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	rep, err := c.runDataBench(context.Background(), db.URL, db.SQL, dataBench{rows: 3000, pages: 10, seeds: 3, mode: "test"})
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	checkFigures(t, rep, []wantFigure{
		{"import 3000 rows: rows/s (base: plain COPY of the file)", true},
		{"filtered page (city, tech_only, page 1-40) of 3000 rows: p95 (base: the same SQL)", true},
		{"search page (a word and a city) of 3000 rows: p95 (base: the same SQL)", true},
		{"/seed limit 5000: p95 (base: the prospects' SQL)", true},
	}, false, logs.String())
}

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/gateway/gatewaybench"
)

// The gateway bench runs end to end at a tiny size through `strata serve`
// (production wiring: API keys, catalog, credit ledger; set up in this
// process, then measured in a process of its own) on a test database,
// and reports every figure with a value, a sample count and its baseline.
// No target is asserted: targets are checked by the command, never in
// tests.
func TestBenchGatewayReportsEveryFigure(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel),
		executable: buildStrata(t, t.TempDir())} // the gateway runs in a process of its own
	o := gatewaybench.Quick()
	o.Accounts, o.Tokens, o.Warmup, o.Pairs, o.Clients, o.Round = 2, 4, 2, 12, 4, 200*time.Millisecond
	o.Streams, o.InFlight, o.Deltas, o.Pace = 2, 2, 4, 5*time.Millisecond
	o.Progress = &logs
	o.Start = func(ctx context.Context, upstream string, accounts int) (*gatewaybench.Gateway, error) {
		return c.benchGatewayServer(ctx, db.URL, db.SQL, upstream, accounts)
	}
	o.StartUpstream = c.startUpstreamProcess
	o.StartProxy = c.startProxyProcess
	rep, err := gatewaybench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	want := []string{
		"reply added p99, 1 client (messages→openai)", "reply added p99, 1 client (openai→openai)",
		"TTFT added p99, 1 client (messages→openai)", "TTFT added p99, 1 client (openai→openai)",
		"PostgreSQL one-row INSERT commit p99, 1 client (reference)",
		"throughput, 4 clients (messages→openai)", "throughput, 4 clients (openai→openai)",
		"inter-delta gap added p99, 4 deltas 5ms apart (messages→openai)", "inter-delta gap added p99, 4 deltas 5ms apart (openai→openai)",
		"reply added p99, 1 client (messages→messages)", "reply added p99, 1 client (openai→messages)",
		"TTFT added p99, 1 client (messages→messages)", "TTFT added p99, 1 client (openai→messages)",
		"throughput, 4 clients (messages→messages)", "throughput, 4 clients (openai→messages)",
		"reference: reply added p99, 1 client, pass-through proxy (openai)", "reference: throughput, 4 clients, pass-through proxy (openai)",
		"resident memory, peak under load, 4 clients",
	}
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(rep.Figures), len(want), rep.Figures)
	}
	for i, name := range want {
		f := rep.Figures[i]
		switch {
		case f.Name != name:
			t.Errorf("figure %d is %q, want %q", i, f.Name, name)
		case f.Samples <= 0 || f.Baseline <= 0:
			t.Errorf("figure %q has no samples or no baseline: %+v", f.Name, f)
		case !f.Reference && f.Ours == 0:
			t.Errorf("figure %q has no value: %+v", f.Name, f)
		}
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// The content bench runs end to end at a small size: two `strata serve`
// processes (the binary built from this package, production wiring) on a
// test database, both running the dispatcher, the four loopback
// platforms, 40 items due at once. Correctness is asserted (every item
// published, once, and every post one of ours), never timing: targets are
// checked by the command, not in tests.
func TestBenchContentPublishesEveryItemOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts two servers")
	}
	t.Parallel()
	db := pgtest.DB(t)
	bin := buildStrata(t, t.TempDir())
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := contentBench{mode: "test", items: 40, procs: 2, lead: 4 * time.Second, wait: 2 * time.Minute, bin: bin}
	rep, err := c.runContentBench(context.Background(), db.URL, db.SQL, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if rep.Published != o.items || rep.Failed != 0 || rep.Unsettled != 0 || rep.Posted != o.items {
		t.Errorf("%d items: %d published, %d failed (%v), %d still scheduled, %d posted", o.items, rep.Published, rep.Failed,
			rep.Reasons, rep.Unsettled, rep.Posted)
	}
	if rep.DoublePosts() != 0 || rep.Repeated != 0 || rep.Unmatched != 0 {
		t.Errorf("double posts %d (items posted more than once %d, fakes' repeats %d), posts of no item %d", rep.DoublePosts(),
			rep.Repeated, rep.FakeDuplicates, rep.Unmatched)
	}
	if len(rep.Figures) != 4 {
		t.Fatalf("%d figures, want p50, p90, p99 and max", len(rep.Figures))
	}
	for _, f := range rep.Figures {
		if f.Samples != o.items || f.Baseline <= 0 || f.Ours <= 0 {
			t.Errorf("figure %q: %d samples, value %v, baseline %v", f.Name, f.Samples, f.Ours, f.Baseline)
		}
	}
	if len(rep.Processes) != 2 {
		t.Errorf("processes: %v", rep.Processes)
	}
}

package captablebench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/captable/captablebench"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestQuickRunReportsEveryFigure runs the bench end to end at a small size
// and checks that every figure is reported with a value, a sample count
// and, where it has one, a baseline. No target is asserted: targets are
// checked by the command, never in tests.
func TestQuickRunReportsEveryFigure(t *testing.T) {
	opts := captablebench.Quick()
	opts.DB = pgtest.DB(t).SQL
	opts.Stakeholders, opts.Grants, opts.Requests, opts.ReplayRuns, opts.WaterfallRuns = 200, 600, 40, 2, 8
	rep, err := captablebench.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		prefix   string
		baseline bool
	}{
		{"seed: decide + append ", false},
		{"seed: read model caught up", false},
		{"GET /cap-table over HTTP, 8 clients", true},
		{"GET /cap-table p50, 8 clients", true},
		{"GET /cap-table p95, 8 clients", true},
		{"GET /cap-table p99, 8 clients", true},
		{"as-of replay + summary, ", true},
		{"as-of replay + summary, ", true},
		{"raw SQL scan of the stream's payloads", true},
		{"waterfall, 10 classes + ", true},
		{"waterfall, 10 classes + ", true},
	}
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(rep.Figures), len(want), rep.Figures)
	}
	for i, w := range want {
		f := rep.Figures[i]
		switch {
		case !strings.HasPrefix(f.Name, w.prefix):
			t.Errorf("figure %d is %q, want %q...", i, f.Name, w.prefix)
		case f.Ours <= 0 || f.Samples <= 0:
			t.Errorf("figure %q: %+v", f.Name, f)
		case w.baseline && f.Baseline <= 0:
			t.Errorf("figure %q has no baseline: %+v", f.Name, f)
		}
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

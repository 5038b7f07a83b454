package memorybench_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/memory/memorybench"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestQuickRunReportsEveryFigure runs the --quick preset end to end (with
// shorter write and context runs) and checks that every figure is reported,
// with its baseline where it has one, and that the BM25 baseline finds
// relevant memories (so that the harness cannot pass vacuously). No target
// is asserted: targets are benchmark figures, checked by the command.
func TestQuickRunReportsEveryFigure(t *testing.T) {
	opts := memorybench.Quick()
	opts.DB = pgtest.DB(t).SQL
	opts.WriteDuration, opts.ContextQueries = time.Second, 10
	rep, err := memorybench.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	want = append(want, "load: RememberMany (250 per call) + read model", "load: merged into a near-duplicate",
		"load: merged into a memory that is not its corpus original", "load: recall index first load")
	for _, cfg := range []string{"recall", "recall query_expansion", "recall rerank"} {
		for _, m := range []string{"top-5 hit rate", "MRR@10"} {
			for _, k := range []string{"all", "exact", "paraphrased", "temporal", "entity"} {
				want = append(want, cfg+": "+m+", "+k)
			}
		}
		want = append(want, cfg+": paraphrased top-5 lead over BM25", cfg+": current above superseded",
			cfg+": as_of correctness, temporal", cfg+": near-duplicate share of top-10 slots")
	}
	for _, l := range []string{"sequential", "2 clients"} {
		for _, p := range []string{"p50", "p95", "p99"} {
			want = append(want, "recall latency "+p+", "+l)
		}
	}
	want = append(want, "context: token_count > max_tokens", "context latency p95",
		"remember, 8 writers, read-your-writes (rate)", "remember, 8 writers, read-your-writes p50",
		"remember, 8 writers, read-your-writes p95")
	if len(rep.Figures) != len(want) {
		t.Errorf("%d figures, want %d", len(rep.Figures), len(want))
	}
	for i, w := range want {
		if i >= len(rep.Figures) {
			t.Fatalf("figure %d (%q) missing", i, w)
		}
		f := rep.Figures[i]
		if !strings.HasPrefix(f.Name, w) {
			t.Errorf("figure %d is %q, want %q...", i, f.Name, w)
		}
		if f.Samples <= 0 {
			t.Errorf("figure %q has no samples: %+v", f.Name, f)
		}
		timed := f.Unit == memorybench.UnitMs || f.Unit == memorybench.UnitMemS
		if timed && (f.Ours <= 0 || f.HasBaseline && f.Baseline <= 0) {
			t.Errorf("figure %q: %+v", f.Name, f)
		}
	}
	if len(rep.Extraction) != 2 || rep.Extraction[0].Path != memorybench.PathOffline ||
		rep.Extraction[1].Path != memorybench.PathModel || rep.Extraction[0].Entities.TP == 0 {
		t.Errorf("extraction section = %+v", rep.Extraction)
	}
	for _, name := range []string{"recall: top-5 hit rate, all", "recall: MRR@10, all", "recall: top-5 hit rate, exact"} {
		f, ok := rep.Figure(name)
		if !ok || !f.HasBaseline || f.Baseline <= 0 {
			t.Errorf("the BM25 baseline of %q found nothing: %+v", name, f)
		}
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

// TestTrainingSplitMisses is a tuning aid, skipped unless
// STRATA_MEMORY_MISSES names a file: it runs the full preset's quality
// figures on the training split and writes every missed query there.
func TestTrainingSplitMisses(t *testing.T) {
	path := os.Getenv("STRATA_MEMORY_MISSES")
	if path == "" {
		t.Skip("set STRATA_MEMORY_MISSES to a file to list the training split's misses")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts := memorybench.Full()
	if os.Getenv("STRATA_MEMORY_QUICK") != "" {
		opts = memorybench.Quick()
	}
	opts.DB, opts.Split, opts.Misses, opts.Progress = pgtest.DB(t).SQL, corpus.SplitTrain, f, os.Stderr
	opts.WriteDuration, opts.ContextQueries = time.Second, 10
	if _, err := memorybench.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
}

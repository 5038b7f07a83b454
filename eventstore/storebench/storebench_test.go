package storebench_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/storebench"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// tiny is the quick preset shrunk to a few seconds.
func tiny(d *pgtest.Database) storebench.Options {
	o := storebench.Quick()
	o.Mode = "test"
	o.DB, o.URL = d.SQL, d.URL
	o.Clients, o.Rounds = 4, 1
	o.AppendDuration, o.PlainDuration = 300*time.Millisecond, 200*time.Millisecond
	o.BulkSize, o.BulkEvents = 100, 1000
	o.StoreEvents, o.LiveEvents = 6000, 1000
	o.Backlogs = []int{0, 500, 6000}
	o.BatchSamples, o.BatchBudget = 5, 200*time.Millisecond
	o.LatencySamples, o.LatencyGap, o.LoadRate = 5, 20*time.Millisecond, 200
	return o
}

// TestRunReportsEveryFigure runs every measurement at tiny sizes and checks
// that each figure is there with a sane value. It checks no target: targets
// are for the full run on a quiet machine, never for a test.
func TestRunReportsEveryFigure(t *testing.T) {
	d := pgtest.DB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := storebench.Run(ctx, tiny(d))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"reference: raw 1-row INSERT tx, 1 client(s)",
		"reference: raw 1-row INSERT tx, 4 client(s)",
		"append 1 event + version check, 4 clients",
		"append latency p50, 4 clients",
		"append latency p99, 4 clients",
		"bulk append, 100 events/append, 2 client(s)",
		"rebuild, set-based ApplyBatch, ", // then the store's size, which depends on the append rates
		"rebuild, per-event Apply, ",
		"catch-up batch median, 0 unread", "catch-up batch p99, 0 unread", "catch-up batch server time median, 0 unread",
		"catch-up batch median, 500 unread", "catch-up batch p99, 500 unread", "catch-up batch server time median, 500 unread",
		"catch-up batch median, 6000 unread", "catch-up batch p99, 6000 unread", "catch-up batch server time median, 6000 unread",
		"live catch-up, counter projector, 1000 events",
		"live catch-up, no-op projector, 1000 events",
		"commit-to-visible p50, idle", "commit-to-visible p99, idle",
		"commit-to-visible p50, 200 ev/s load", "commit-to-visible p99, 200 ev/s load",
	}
	if len(rep.Figures) != len(want) {
		t.Errorf("%d figures, want %d", len(rep.Figures), len(want))
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, name := range want {
		var found []storebench.Figure
		for _, f := range rep.Figures {
			if strings.HasPrefix(f.Name, name) {
				found = append(found, f)
			}
		}
		if len(found) != 1 {
			t.Errorf("%d figures named %q, want 1", len(found), name)
			continue
		}
		f := found[0]
		if !strings.Contains(out.String(), name) {
			t.Errorf("figure %q is not printed", name)
		}
		v := f.Ours
		if f.Reference {
			v = f.Baseline
		}
		if !(v > 0) || math.IsInf(v, 0) || f.Samples <= 0 {
			t.Errorf("%s: value %v from %d samples, want a positive value", name, v, f.Samples)
		}
		if f.Unit == storebench.UnitMs && v > 30_000 {
			t.Errorf("%s: %v ms is not a sane latency", name, v)
		}
		if needsBaseline(name) && !(f.Baseline > 0) {
			t.Errorf("%s: baseline %v, want a positive baseline", name, f.Baseline)
		}
	}
	// The set-based and per-event rebuilds computed what SQL computes alone.
	for _, schema := range []string{"rm_bench_rebuild_batch_v1", "rm_bench_rebuild_apply_v1"} {
		var wrong int
		err := d.SQL.QueryRow(`SELECT count(*) FROM storebench.counters_raw r FULL JOIN ` + schema + `.counters c USING (stream_id)
			WHERE (r.events, r.last_version) IS DISTINCT FROM (c.events, c.last_version)`).Scan(&wrong)
		if err != nil || wrong != 0 {
			t.Errorf("%s: %d counters differ from the raw GROUP BY (err %v)", schema, wrong, err)
		}
	}
}

func needsBaseline(name string) bool {
	for _, p := range []string{"append", "bulk", "rebuild", "catch-up batch"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// TestScratchIsCreatedMigratedAndDropped checks the scratch database's life
// cycle on the test server.
func TestScratchIsCreatedMigratedAndDropped(t *testing.T) {
	d := pgtest.DB(t)
	ctx := context.Background()
	s, err := storebench.NewScratch(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Name, storebench.ScratchPrefix) {
		t.Errorf("scratch database %q lacks prefix %q", s.Name, storebench.ScratchPrefix)
	}
	var tables int
	if err := s.DB.QueryRow(`SELECT count(*) FROM pg_tables WHERE schemaname = 'es'`).Scan(&tables); err != nil || tables == 0 {
		t.Errorf("scratch database is not migrated: %d tables in schema es (err %v)", tables, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var exists bool
	if err := d.SQL.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, s.Name).Scan(&exists); err != nil || exists {
		t.Errorf("scratch database %s still exists after Close (err %v)", s.Name, err)
	}
}

package projections_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

func rebuild(t *testing.T, e *env, p projections.Projector) projections.RebuildResult {
	t.Helper()
	res, err := projections.Rebuilder{DB: e.db.SQL, Registry: e.reg, BatchSize: 700}.Rebuild(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Test 3: a projector stopped in the middle of a batch and restarted ends with
// tables identical to a fresh rebuild.
func TestStopMidBatchThenRestartEqualsRebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name := "test.midbatch.v1"
	createSchema(t, e.db.SQL, name)
	e.workload(t, "mid", 20, 60)

	var applied atomic.Int64
	var once sync.Once
	stopNow := make(chan struct{})
	p := &counter{name: name, onApply: func(eventstore.Envelope) {
		if applied.Add(1) == 333 { // batch size 100: the 4th batch, a third of the way in
			once.Do(func() { close(stopNow) })
		}
	}}
	_, stop := e.start(t, projections.Config{BatchSize: 100}, p)
	<-stopNow
	stop()
	var pos int64
	if err := e.db.SQL.QueryRow(`SELECT offset_acked FROM es.checkpoints WHERE consumer_group = $1`, name).Scan(&pos); err != nil {
		t.Fatal(err)
	}
	var total int64
	_ = e.db.SQL.QueryRow(`SELECT count(*) FROM es.events`).Scan(&total)
	if pos == 0 || pos >= total {
		t.Fatalf("checkpoint at %d of %d: the stop did not land mid-stream", pos, total)
	}

	p.onApply = nil
	_, stop2 := e.start(t, projections.Config{BatchSize: 100}, p)
	e.caughtUp(t, name)
	stop2()
	exactlyOnce(t, e.db.SQL, name)
	live := checksum(t, e.db.SQL, name)
	rebuild(t, e, &counter{name: name})
	if got := checksum(t, e.db.SQL, name); got != live {
		t.Fatalf("restarted live tables %s differ from rebuild %s", live, got)
	}
}

// Test 4: after a workload, a rebuild leaves every read model identical to
// what the live projectors built, and the live consumer carries on from the
// handover on the new tables.
func TestRebuildEqualsLiveAndHandsOver(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	names := []string{"test.rb_a.v1", "test.rb_b.v1"}
	var ps []projections.Projector
	for _, n := range names {
		createSchema(t, e.db.SQL, n)
		ps = append(ps, &counter{name: n})
	}
	_, stop := e.start(t, projections.Config{BatchSize: 200, PollInterval: 50 * time.Millisecond}, ps...)
	defer stop()
	e.workload(t, "rb", 30, 50)
	e.caughtUp(t, names...)

	// Appends keep coming while the rebuilds run.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			if _, err := e.store.Append(context.Background(), eventstore.Stream{Type: "test.counter", ID: "rb-live"}, eventstore.AnyVersion, ticked{N: i}); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	for _, p := range ps {
		res := rebuild(t, e, p)
		if res.Events == 0 || res.Applied == 0 {
			t.Fatalf("rebuild of %s replayed nothing: %+v", p.Name(), res)
		}
	}
	cancel()
	wg.Wait()
	e.caughtUp(t, names...)
	for _, n := range names {
		exactlyOnce(t, e.db.SQL, n)
	}
	stop()
	for _, p := range ps {
		live := checksum(t, e.db.SQL, p.Name())
		rebuild(t, e, p)
		if got := checksum(t, e.db.SQL, p.Name()); got != live {
			t.Fatalf("%s: live %s != rebuild %s", p.Name(), live, got)
		}
	}
	var leftovers int
	_ = e.db.SQL.QueryRow(`SELECT count(*) FROM pg_namespace WHERE nspname ~ '^rm_test_rb.*__(rebuild|old)$'`).Scan(&leftovers)
	if leftovers != 0 {
		t.Fatalf("%d side schemas left behind after rebuild", leftovers)
	}
}

// Test 3 for a BatchProjector: stopping with part of a batch buffered applies
// that part before the acked events commit.
func TestBatchProjectorStopMidBatchThenRestartEqualsRebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name := "test.midbatch_batched.v1"
	createSchema(t, e.db.SQL, name)
	e.workload(t, "midb", 20, 60)

	p := &batchCounter{counter: &counter{name: name}}
	var seen atomic.Int64
	var once sync.Once
	stopNow := make(chan struct{})
	cfg := projections.Config{BatchSize: 100, Observe: func(string, eventstore.Envelope) {
		if seen.Add(1) == 333 {
			once.Do(func() { close(stopNow) })
		}
	}}
	_, stop := e.start(t, cfg, p)
	<-stopNow
	stop()
	var pos int64
	if err := e.db.SQL.QueryRow(`SELECT offset_acked FROM es.checkpoints WHERE consumer_group = $1`, name).Scan(&pos); err != nil {
		t.Fatal(err)
	}
	var behind int
	_ = e.db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE position > $1`, pos).Scan(&behind)
	if behind == 0 {
		t.Fatal("the stop did not land before the end of the stream")
	}
	exactlyOnceUpTo(t, e.db.SQL, name, pos)

	_, stop2 := e.start(t, projections.Config{BatchSize: 100}, p)
	e.caughtUp(t, name)
	stop2()
	exactlyOnce(t, e.db.SQL, name)
	if p.batches.Load() == 0 {
		t.Fatal("ApplyBatch was never called live")
	}
	live := checksum(t, e.db.SQL, name)
	rebuild(t, e, &batchCounter{counter: &counter{name: name}})
	if got := checksum(t, e.db.SQL, name); got != live {
		t.Fatalf("restarted live tables %s differ from rebuild %s", live, got)
	}
}

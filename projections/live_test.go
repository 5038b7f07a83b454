package projections_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// Test 2: 32 writers append to different streams and commit out of position
// order; every projector sees every event exactly once, in per-stream order.
func TestOutOfOrderCommitsAreNeverSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	names := []string{"test.ooo_a.v1", "test.ooo_b.v1", "test.ooo_c.v1"}
	var ps []projections.Projector
	for _, n := range names {
		createSchema(t, e.db.SQL, n)
		ps = append(ps, &counter{name: n})
	}
	_, stop := e.start(t, projections.Config{BatchSize: 50, PollInterval: 50 * time.Millisecond}, ps...)
	defer stop()

	const writers, appends = 32, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			stream := eventstore.Stream{Type: "test.counter", ID: fmt.Sprintf("ooo-%d", w)}
			for a := range appends {
				err := e.store.InTx(context.Background(), func(tx *stdsql.Tx) error {
					if _, err := e.store.AppendTx(context.Background(), tx, stream, int64(a*2), ticked{N: a}, ticked{N: w}); err != nil {
						return err
					}
					// Hold the commit: positions were drawn, later positions commit first.
					time.Sleep(time.Duration(rng.IntN(25)) * time.Millisecond)
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var reordered int
	if err := e.db.SQL.QueryRow(`SELECT count(*) FROM (SELECT position, lag(position) OVER (ORDER BY transaction_id, position) AS prev
		FROM es.events) x WHERE prev > position`).Scan(&reordered); err != nil {
		t.Fatal(err)
	}
	if reordered == 0 {
		t.Fatal("the workload committed in position order; the test proves nothing")
	}
	e.caughtUp(t, names...)
	for _, n := range names {
		exactlyOnce(t, e.db.SQL, n)
	}
}

// A projector that fails on an event stays there, reports it, retries, and
// never half-applies the failed batch; for per-event and batch projectors.
func TestFailingProjectorRetriesWithoutSkippingOrHalfApplying(t *testing.T) {
	t.Parallel()
	for _, batched := range []bool{false, true} {
		t.Run(fmt.Sprintf("batched=%v", batched), func(t *testing.T) {
			t.Parallel()
			failAndRecover(t, batched)
		})
	}
}

func failAndRecover(t *testing.T, batched bool) {
	e := newEnv(t)
	name := fmt.Sprintf("test.flaky_%v.v1", batched)
	createSchema(t, e.db.SQL, name)
	e.workload(t, "flaky", 10, 40)
	var target int64
	if err := e.db.SQL.QueryRow(`SELECT position FROM es.events WHERE event_type = 'test.ticked' ORDER BY position OFFSET 77 LIMIT 1`).Scan(&target); err != nil {
		t.Fatal(err)
	}
	c := &counter{name: name, failAt: map[int64]*atomic.Bool{target: {}}}
	var applies atomic.Int64
	c.onApply = func(eventstore.Envelope) { applies.Add(1) }
	var p projections.Projector = c
	if batched {
		p = &batchCounter{counter: c}
	}
	r, stop := e.start(t, projections.Config{BatchSize: 100, RetryMin: 300 * time.Millisecond}, p)
	defer stop()
	sawFailing := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !sawFailing; time.Sleep(5 * time.Millisecond) {
		st, err := projections.ReadStatus(context.Background(), e.db.SQL, []string{name})
		if err != nil {
			t.Fatal(err)
		}
		sawFailing = st[0].State == projections.StateFailing && len(r.Stalled()) == 1 &&
			(st[0].FailingAt == target || batched && st[0].FailingAt <= target)
	}
	if !sawFailing {
		t.Fatal("the failing projector was never reported as failing at the failing event")
	}
	e.caughtUp(t, name)
	exactlyOnce(t, e.db.SQL, name)
	st, err := projections.ReadStatus(context.Background(), e.db.SQL, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].State != projections.StateRunning || st[0].LastError != "" {
		t.Fatalf("after recovery status = %+v, want running without error", st[0])
	}
	if applies.Load() <= 200 {
		t.Fatalf("%d applies: the failed batch was not retried", applies.Load())
	}
}

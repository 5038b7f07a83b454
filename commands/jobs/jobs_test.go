package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

type checkedOut struct {
	Order string `json:"order"`
}

func (checkedOut) EventType() string { return "test.checked_out" }

type mailSent struct {
	Order string `json:"order"`
}

func (mailSent) EventType() string { return "test.mail_sent" }

func testStore(t *testing.T, db *sql.DB) *eventstore.Store {
	t.Helper()
	reg := eventstore.NewRegistry()
	if err := reg.Register(
		eventstore.EventDef{Name: "test.checked_out", Version: 1, New: func() kernel.Event { return &checkedOut{} }},
		eventstore.EventDef{Name: "test.mail_sent", Version: 1, New: func() kernel.Event { return &mailSent{} }},
	); err != nil {
		t.Fatal(err)
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.SystemClock{}
	return eventstore.New(db, reg, clock, eventstore.NewULIDs(clock))
}

// A job enqueued in the append's transaction exists, and runs, only if the
// append commits.
func TestJobsEnqueuedWithAnAppendThatRollsBackNeverRun(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	store := testStore(t, db.SQL)
	s := newService(t, db.SQL, testConfig(), func(ctx context.Context, j *Job[effect]) error { return record(ctx, db.SQL, "w", j) }, KindOptions{})
	ctx := context.Background()
	checkout := func(order string, n int, fail bool) error {
		return store.InTx(ctx, func(tx *sql.Tx) error {
			if _, err := store.AppendTx(ctx, tx, eventstore.Stream{Type: "test.order", ID: order}, eventstore.NoStream, checkedOut{Order: order}); err != nil {
				return err
			}
			if _, err := s.Enqueue(ctx, tx, effect{N: n}, &Opts{}); err != nil {
				return err
			}
			if fail {
				return errors.New("the command failed after enqueueing")
			}
			return nil
		})
	}
	if err := checkout("order-1", 1, true); err == nil {
		t.Fatal("the failing command committed")
	}
	if err := checkout("order-2", 2, false); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db.SQL, `SELECT count(*) FROM jobs.river_job`); n != 1 {
		t.Fatalf("%d jobs stored, want 1 (the committed append's)", n)
	}
	if n := count(t, db.SQL, `SELECT count(*) FROM es.events WHERE stream_id = 'order-1'`); n != 0 {
		t.Fatalf("the rolled-back append left %d events", n)
	}
	start(t, s)
	waitFor(t, 20*time.Second, "the committed job completes", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM jobs.river_job WHERE state = 'completed'`) == 1, nil
	})
	if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE n = 2`); got != 1 {
		t.Fatalf("the committed job ran %d times, want 1", got)
	}
	if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE n = 1`); got != 0 {
		t.Fatalf("the rolled-back job ran %d times", got)
	}
}

// A failing job is retried with the kind's backoff and discarded (dead)
// after its last attempt; an operator's retry runs it once more; Permanent
// stops at once. The outcomes are counted.
func TestRetriesBackoffAndTheDeadState(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	var mu sync.Mutex
	var backoffs []int
	s := newService(t, db.SQL, testConfig(), func(ctx context.Context, j *Job[effect]) error {
		if err := record(ctx, db.SQL, "w", j); err != nil {
			return err
		}
		switch {
		case j.Args.Tag == "permanent":
			return Permanent(errors.New("410 gone"))
		case j.Args.Tag == "flaky" && j.Attempt >= 3:
			return nil
		}
		return fmt.Errorf("attempt %d failed", j.Attempt)
	}, KindOptions{MaxAttempts: 3, Backoff: func(attempt int) time.Duration {
		mu.Lock()
		backoffs = append(backoffs, attempt)
		mu.Unlock()
		return 10 * time.Millisecond
	}})
	start(t, s)
	dead := mustEnqueue(t, s, effect{N: 1, Tag: "always"}, nil)
	flaky := mustEnqueue(t, s, effect{N: 2, Tag: "flaky"}, nil)
	perm := mustEnqueue(t, s, effect{N: 3, Tag: "permanent"}, nil)
	settled := func(id int64, want string) func() (bool, error) {
		return func() (bool, error) { st, _ := jobState(t, db.SQL, id); return st == want, nil }
	}
	waitFor(t, 30*time.Second, describe(db.SQL, dead.ID)+" is discarded", settled(dead.ID, "discarded"))
	waitFor(t, 30*time.Second, describe(db.SQL, flaky.ID)+" completes", settled(flaky.ID, "completed"))
	waitFor(t, 30*time.Second, describe(db.SQL, perm.ID)+" is cancelled", settled(perm.ID, "cancelled"))
	for id, want := range map[int64]int{dead.ID: 3, flaky.ID: 3, perm.ID: 1} {
		if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE job_id = $1`, id); got != want {
			t.Errorf("job %d ran %d times, want %d", id, got, want)
		}
	}
	mu.Lock()
	if len(backoffs) != 4 { // attempts 1 and 2 of the dead and of the flaky job
		t.Errorf("backoff asked after attempts %v, want four", backoffs)
	}
	mu.Unlock()

	listed, err := s.List(context.Background(), Filter{States: []string{"discarded"}})
	if err != nil || len(listed) != 1 || listed[0].ID != dead.ID || listed[0].LastError != "attempt 3 failed" || listed[0].Errors != 3 {
		t.Fatalf("dead jobs: %+v, %v", listed, err)
	}
	counts, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(counts) != "[{test.effect cancelled 1} {test.effect discarded 1}]" {
		t.Errorf("counts: %v", counts)
	}
	if got := fmt.Sprint(s.Runs()); got != "[{test.effect cancelled 1} {test.effect completed 1} {test.effect discarded 1} {test.effect failed 4}]" {
		t.Errorf("runs: %s", got)
	}

	if _, err := s.Retry(context.Background(), dead.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the retried dead job runs once more", func() (bool, error) {
		st, _ := jobState(t, db.SQL, dead.ID)
		return st == "discarded" && count(t, db.SQL, `SELECT count(*) FROM effects WHERE job_id = $1`, dead.ID) == 4, nil
	})
	if _, err := s.Retry(context.Background(), 1<<40); !errors.Is(err, ErrNotFound) {
		t.Errorf("retry of a missing job: %v", err)
	}
}

// Unique jobs: enqueued again (a rerun of the command that caused it), a
// unique job is not doubled while the first is kept.
func TestUniqueJobsAreNotDoubled(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	s := newService(t, db.SQL, testConfig(), func(ctx context.Context, j *Job[effect]) error { return record(ctx, db.SQL, "w", j) }, KindOptions{})
	byArgs := &Opts{Unique: &Unique{ByArgs: true}}
	first := mustEnqueue(t, s, effect{N: 1}, byArgs)
	again := mustEnqueue(t, s, effect{N: 1}, byArgs)
	other := mustEnqueue(t, s, effect{N: 2}, byArgs)
	if first.Duplicate || !again.Duplicate || again.ID != first.ID || other.Duplicate {
		t.Fatalf("by args: %+v %+v %+v", first, again, other)
	}
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	hourly := func(minute int) *Opts {
		return &Opts{At: at.Add(time.Duration(minute) * time.Minute), Unique: &Unique{Period: time.Hour}}
	}
	p1, p2, p3 := mustEnqueue(t, s, effect{N: 3}, hourly(5)), mustEnqueue(t, s, effect{N: 4}, hourly(50)), mustEnqueue(t, s, effect{N: 5}, hourly(65))
	if p1.Duplicate || !p2.Duplicate || p3.Duplicate {
		t.Fatalf("by period: %+v %+v %+v", p1, p2, p3)
	}
	if _, err := s.Enqueue(context.Background(), nil, effect{}, &Opts{Unique: &Unique{}}); err == nil {
		t.Error("an empty Unique was accepted")
	}
	start(t, s)
	waitFor(t, 20*time.Second, "every job completes", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM jobs.river_job WHERE state <> 'completed'`) == 0, nil
	})
	if again := mustEnqueue(t, s, effect{N: 1}, byArgs); !again.Duplicate {
		t.Error("a completed unique job was enqueued again")
	}
	if got := count(t, db.SQL, `SELECT count(*) FROM effects`); got != 4 {
		t.Fatalf("%d side effects, want 4", got)
	}
}

// A worker whose outcome changes the domain appends its event and completes
// the job in one transaction: an attempt that fails before its commit
// leaves neither, one that commits leaves both, even if it then reports an
// error.
func TestAJobsOutcomeIsRecordedAsAnEventExactlyOnce(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	store := testStore(t, db.SQL)
	s := newService(t, db.SQL, testConfig(), func(ctx context.Context, j *Job[effect]) error {
		order := fmt.Sprintf("order-%d", j.Args.N)
		err := store.InTx(ctx, func(tx *sql.Tx) error {
			if _, err := store.AppendTx(ctx, tx, eventstore.Stream{Type: "test.order", ID: order}, eventstore.AnyVersion, mailSent{Order: order}); err != nil {
				return err
			}
			if j.Attempt == 1 {
				return errors.New("the mail server hung up before the commit")
			}
			return CompleteTx(ctx, tx, j)
		})
		if err != nil {
			return err
		}
		return errors.New("an error after the commit changes nothing")
	}, KindOptions{Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	start(t, s)
	e := mustEnqueue(t, s, effect{N: 7}, nil)
	waitFor(t, 20*time.Second, describe(db.SQL, e.ID)+" completes", func() (bool, error) {
		st, _ := jobState(t, db.SQL, e.ID)
		return st == "completed", nil
	})
	if st, attempt := jobState(t, db.SQL, e.ID); attempt != 2 {
		t.Fatalf("job %s after %d attempts, want 2", st, attempt)
	}
	if n := count(t, db.SQL, `SELECT count(*) FROM es.events WHERE stream_id = 'order-7' AND event_type = 'test.mail_sent'`); n != 1 {
		t.Fatalf("%d mail_sent events, want 1", n)
	}
}

// Two processes' clients on one database share the work and never run one
// job twice.
func TestTwoProcessesNeverRunOneJobTwice(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	const n = 300
	worker := func(name string) func(ctx context.Context, j *Job[effect]) error {
		return func(ctx context.Context, j *Job[effect]) error {
			time.Sleep(2 * time.Millisecond) // a little work, so both get some
			return record(ctx, db.SQL, name, j)
		}
	}
	a := newService(t, db.SQL, testConfig(), worker("a"), KindOptions{})
	b := newService(t, db.SQL, testConfig(), worker("b"), KindOptions{})
	start(t, a)
	start(t, b)
	err := eventstore.RunInTx(context.Background(), db.SQL, nil, func(tx *sql.Tx) error {
		for i := range n {
			if _, err := a.Enqueue(context.Background(), tx, effect{N: i}, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, "every job completes", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM jobs.river_job WHERE state = 'completed'`) == n, nil
	})
	if got := count(t, db.SQL, `SELECT count(*) FROM effects`); got != n {
		t.Fatalf("%d side effects for %d jobs", got, n)
	}
	if got := count(t, db.SQL, `SELECT count(DISTINCT job_id) FROM effects`); got != n {
		t.Fatalf("%d distinct jobs ran, want %d", got, n)
	}
	for _, w := range []string{"a", "b"} {
		if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE worker = $1`, w); got == 0 {
			t.Errorf("process %s ran no job: the work was not shared", w)
		}
	}
}

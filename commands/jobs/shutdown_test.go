package jobs

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// Stop lets a job that finishes within the grace period finish, and
// releases one that does not (its context is cancelled; it is available
// again with its attempt not counted), which another process then runs.
func TestStopFinishesOrReleasesRunningJobs(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	cfg := testConfig()
	cfg.ShutdownGrace = 300 * time.Millisecond
	started := make(chan int, 2)
	var a *Service
	a = newService(t, db.SQL, cfg, func(ctx context.Context, j *Job[effect]) error {
		started <- j.Args.N
		if j.Args.Tag == "quick" {
			// Finishes once the stop has begun, well within the grace.
			for range 1000 {
				if a.stopping.Load() {
					return record(ctx, db.SQL, "a", j)
				}
				time.Sleep(5 * time.Millisecond)
			}
			return fmt.Errorf("the stop never began")
		}
		<-ctx.Done() // a long job: only the shutdown ends it
		return ctx.Err()
	}, KindOptions{})
	long, quick := mustEnqueue(t, a, effect{N: 1, Tag: "long"}, nil), mustEnqueue(t, a, effect{N: 2, Tag: "quick"}, nil)
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-started
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if st, attempt := jobState(t, db.SQL, long.ID); st != "available" || attempt != 0 {
		t.Fatalf("the long job after the stop: %s, attempt %d; want available, attempt 0 (%s)", st, attempt, describe(db.SQL, long.ID))
	}
	if st, _ := jobState(t, db.SQL, quick.ID); st != "completed" {
		t.Fatalf("the quick job after the stop: %s, want completed", st)
	}
	if got := fmt.Sprint(a.Runs()); got != "[{test.effect completed 1} {test.effect released 1}]" {
		t.Errorf("runs: %s", got)
	}

	b := newService(t, db.SQL, testConfig(), func(ctx context.Context, j *Job[effect]) error { return record(ctx, db.SQL, "b", j) }, KindOptions{})
	start(t, b)
	waitFor(t, 20*time.Second, "the released job completes elsewhere", func() (bool, error) {
		st, _ := jobState(t, db.SQL, long.ID)
		return st == "completed", nil
	})
	if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE job_id = $1`, long.ID); got != 1 {
		t.Fatalf("the released job ran to completion %d times, want 1", got)
	}
	if _, attempt := jobState(t, db.SQL, long.ID); attempt != 1 {
		t.Errorf("the released job completed at attempt %d, want 1", attempt)
	}
}

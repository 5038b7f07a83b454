package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// A job scheduled a day ahead waits for that day by the due clock, and
// runs once the clock is advanced past it.
func TestAJobScheduledADayAheadRunsWhenTheDueClockGetsThere(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	clock := kernel.NewOffsetClock(0)
	cfg := testConfig()
	cfg.DueClock = clock
	s := newService(t, db.SQL, cfg, func(ctx context.Context, j *Job[effect]) error { return record(ctx, db.SQL, "w", j) }, KindOptions{})
	due := clock.Now().Add(24 * time.Hour)
	later := mustEnqueue(t, s, effect{N: 1}, &Opts{At: due})
	mustEnqueue(t, s, effect{N: 2}, nil)
	start(t, s)
	waitFor(t, 20*time.Second, "the job due now", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM effects WHERE n = 2`) == 1, nil
	})
	time.Sleep(6 * time.Second) // longer than River's scheduling interval (5 s)
	if state, _ := jobState(t, db.SQL, later.ID); state != "scheduled" {
		t.Fatalf("the job due in a day is %s before its time", state)
	}
	if n := count(t, db.SQL, `SELECT count(*) FROM effects WHERE n = 1`); n != 0 {
		t.Fatalf("the job due in a day ran %d times before its time", n)
	}
	clock.Advance(24*time.Hour + time.Minute)
	waitFor(t, 30*time.Second, "the job due in a day, after the clock moved", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM effects WHERE n = 1`) == 1, nil
	})
	var due2 time.Time
	if err := db.SQL.QueryRow(`SELECT due FROM effects WHERE n = 1`).Scan(&due2); err != nil {
		t.Fatal(err)
	}
	if d := due2.Sub(due); d < -time.Second || d > time.Second {
		t.Fatalf("the worker saw due %s, want %s", due2, due)
	}
}

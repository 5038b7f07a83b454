package jobs

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func schedule(t *testing.T, s *Service, name, spec string) {
	t.Helper()
	if err := s.Schedule(Periodic{Name: name, Cron: spec, Zone: "America/Los_Angeles",
		Args: func(at time.Time) Args { return effect{N: at.Day()} }}); err != nil {
		t.Fatal(err)
	}
}

// The run of one intended time, enqueued twice (two processes, or one
// before and after a restart), runs once; the schedules' loop enqueues a
// run when its clock reaches it, and the worker sees the intended time.
func TestAPeriodicRunEnqueuedTwiceRunsOnce(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	at := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC) // 03:00 PDT, the spring-forward run of "0 2 * * 0"
	clock := kernel.NewFixedClock(at.Add(-50 * time.Millisecond))
	cfg := testConfig()
	cfg.Clock = clock
	work := func(name string) func(ctx context.Context, j *Job[effect]) error {
		return func(ctx context.Context, j *Job[effect]) error { return record(ctx, db.SQL, name, j) }
	}
	a := newService(t, db.SQL, cfg, work("a"), KindOptions{})
	b := newService(t, db.SQL, cfg, work("b"), KindOptions{})
	schedule(t, a, "weekly", "0 2 * * 0")
	schedule(t, b, "weekly", "0 2 * * 0")
	enqueue := func(s *Service) Enqueued {
		var e Enqueued
		err := eventstore.RunInTx(context.Background(), db.SQL, nil, func(tx *sql.Tx) error {
			var err error
			e, err = s.enqueueRun(context.Background(), tx, s.periodic[0], at)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	first, second := enqueue(a), enqueue(b)
	if first.Duplicate || !second.Duplicate || second.ID != first.ID {
		t.Fatalf("enqueued twice: %+v, %+v", first, second)
	}
	start(t, a)
	start(t, b)
	waitFor(t, 20*time.Second, "the run completes", func() (bool, error) {
		st, _ := jobState(t, db.SQL, first.ID)
		return st == "completed", nil
	})
	if again := enqueue(b); !again.Duplicate {
		t.Fatalf("the completed run was enqueued again: %+v", again)
	}
	var due time.Time
	var name string
	if err := db.SQL.QueryRow(`SELECT due, periodic FROM effects WHERE job_id = $1`, first.ID).Scan(&due, &name); err != nil {
		t.Fatal(err)
	}
	if !due.Equal(at) || name != "weekly" {
		t.Fatalf("the worker saw due %s of %q, want %s of weekly", due, name, at)
	}

	// Both processes' loops wake for the next run (03-15 02:00 PDT); one
	// enqueues it, and it runs once.
	next := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
	if err := db.SQL.QueryRow(`UPDATE jobs.periodic SET last_at = $1 WHERE name = 'weekly' RETURNING name`, at).Scan(&name); err != nil {
		t.Fatal(err)
	}
	clock.Advance(next.Sub(clock.Now()) + time.Second)
	waitFor(t, 90*time.Second, "the loops enqueue and run the next run", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM effects WHERE due = $1`, next) == 1, nil
	})
	if got := count(t, db.SQL, `SELECT count(*) FROM effects`); got != 2 {
		t.Fatalf("%d runs, want 2", got)
	}
}

// Two processes' schedulers, their clocks stepping through both 2026 clock
// changes in America/Los_Angeles, enqueue each intended run once: the
// 02:00 run at 03:00 PDT when 02:00 does not exist, the 01:30 run once when
// 01:30 happens twice. The months between, when nothing ran, are caught up
// with one run; a schedule starts from when it was first seen.
func TestPeriodicJobsAcrossClockChangesRunOncePerIntendedTime(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC))
	cfg := testConfig()
	cfg.Clock = clock
	var procs []*Service
	for range 2 {
		s := newService(t, db.SQL, cfg, func(context.Context, *Job[effect]) error { return nil }, KindOptions{})
		schedule(t, s, "weekly-0200", "0 2 * * 0")
		schedule(t, s, "weekly-0130", "30 1 * * 0")
		procs = append(procs, s)
	}
	step := func(until time.Time) {
		for ; clock.Now().Before(until); clock.Advance(7 * time.Minute) {
			for _, s := range procs {
				for _, p := range s.periodic {
					if _, err := s.tick(context.Background(), p); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	step(time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC))
	clock.Advance(time.Date(2026, 10, 31, 12, 0, 0, 0, time.UTC).Sub(clock.Now())) // nothing ran meanwhile
	step(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))

	rows, err := db.SQL.Query(`SELECT args->>'strata_periodic', (args->>'strata_periodic_at')::timestamptz FROM jobs.river_job ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name string
		var at time.Time
		if err := rows.Scan(&name, &at); err != nil {
			t.Fatal(err)
		}
		got = append(got, name+" "+at.UTC().Format(time.RFC3339))
	}
	want := []string{
		"weekly-0130 2026-03-08T09:30:00Z", // 01:30 PST
		"weekly-0130 2026-10-25T08:30:00Z", // the catch-up: the latest missed run, 01:30 PDT
		"weekly-0130 2026-11-01T08:30:00Z", // 01:30 PDT, the first of the two 01:30s
		"weekly-0200 2026-03-08T10:00:00Z", // 02:00 does not exist: 03:00 PDT
		"weekly-0200 2026-10-25T09:00:00Z", // the catch-up, 02:00 PDT
		"weekly-0200 2026-11-01T10:00:00Z", // 02:00 PST
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("enqueued runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var last time.Time
	if err := db.SQL.QueryRow(`SELECT last_at FROM jobs.periodic WHERE name = 'weekly-0200'`).Scan(&last); err != nil || !last.Equal(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("weekly-0200's last run: %s (%v)", last, err)
	}
}

func TestPeriodicDeclarationsAreChecked(t *testing.T) {
	t.Parallel()
	s := newService(t, nil, testConfig(), func(context.Context, *Job[effect]) error { return nil }, KindOptions{})
	args := func(time.Time) Args { return effect{} }
	for _, p := range []Periodic{
		{Name: "", Cron: "0 2 * * 0", Zone: "UTC", Args: args},
		{Name: "x", Cron: "0 2 * * 0", Zone: "Mars/Olympus", Args: args},
		{Name: "x", Cron: "0 25 * * 0", Zone: "UTC", Args: args},
		{Name: "x", Cron: "0 2 * * 0", Zone: "UTC", Args: func(time.Time) Args { return checkedKind{} }},
	} {
		if err := s.Schedule(p); err == nil {
			t.Errorf("accepted %+v", p)
		}
	}
	if err := s.Schedule(Periodic{Name: "ok", Cron: "0 2 * * 0", Zone: "UTC", Args: args}); err != nil {
		t.Fatal(err)
	}
	if err := s.Schedule(Periodic{Name: "ok", Cron: "0 3 * * 0", Zone: "UTC", Args: args}); err == nil {
		t.Error("a second schedule with the same name was accepted")
	}
	if err := Handle(s, func(context.Context, *Job[effect]) error { return nil }, KindOptions{}); err == nil {
		t.Error("a kind declared twice was accepted")
	}
	if _, err := s.Enqueue(context.Background(), nil, checkedKind{}, nil); err == nil || !strings.Contains(err.Error(), "no worker") {
		t.Errorf("enqueue of an undeclared kind: %v", err)
	}
	if err := Handle(s, func(context.Context, *Job[checkedKind]) error { return nil }, KindOptions{Timeout: time.Hour}); err == nil {
		t.Error("a timeout beyond the rescue delay was accepted")
	}
	if _, err := New(nil, Config{JobTimeout: time.Hour, RescueAfter: time.Minute}); err == nil {
		t.Error("a rescue delay below the job timeout was accepted")
	}
	b, _ := periodicArgs{inner: effect{N: 3}, Name: "n", At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}.MarshalJSON()
	if want := `{"strata_periodic":"n","strata_periodic_at":"2026-01-02T03:04:05Z","n":3}`; string(b) != want {
		t.Errorf("periodic args %s, want %s", b, want)
	}
}

type checkedKind struct{}

func (checkedKind) Kind() string { return "test.undeclared" }

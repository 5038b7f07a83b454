package jobs

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// victimEnv, set to a database URL, makes the test binary a process that
// works jobs and hangs inside the first one until it is killed.
const victimEnv = "STRATA_JOBS_TEST_VICTIM"

func runVictim() {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "victim:", err)
		os.Exit(3)
	}
	db, err := sql.Open("pgx", os.Getenv(victimEnv))
	if err != nil {
		fail(err)
	}
	cfg := testConfig()
	cfg.Workers = 1
	s, err := New(db, cfg)
	if err != nil {
		fail(err)
	}
	if err := Handle(s, func(ctx context.Context, j *Job[effect]) error {
		if err := record(ctx, db, "victim", j); err != nil {
			return err
		}
		select {} // busy until the kill
	}, KindOptions{}); err != nil {
		fail(err)
	}
	if err := s.Start(context.Background()); err != nil {
		fail(err)
	}
	select {}
}

// A process killed (SIGKILL) while it runs a job loses nothing: after the
// rescue delay another process runs that job again, once, and the job it
// had not started as well.
func TestAProcessKilledWhileAJobRunsLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the dead process's leadership to expire (about 20 s)")
	}
	t.Parallel()
	db := pgtest.DB(t)
	createEffects(t, db.SQL)
	survivorCfg := testConfig()
	survivorCfg.JobTimeout, survivorCfg.RescueAfter = time.Second, 2*time.Second
	survivor := newService(t, db.SQL, survivorCfg, func(ctx context.Context, j *Job[effect]) error {
		return record(ctx, db.SQL, "survivor", j)
	}, KindOptions{})
	first, second := mustEnqueue(t, survivor, effect{N: 1}, nil), mustEnqueue(t, survivor, effect{N: 2}, nil)

	var out bytes.Buffer
	victim := exec.Command(os.Args[0])
	victim.Env = append(os.Environ(), victimEnv+"="+db.URL)
	victim.Stdout, victim.Stderr = &out, &out
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- victim.Wait() }()
	t.Cleanup(func() { _ = victim.Process.Kill() })
	waitFor(t, 30*time.Second, "the victim starts a job", func() (bool, error) {
		select {
		case err := <-exited:
			return false, fmt.Errorf("the victim exited: %v\n%s", err, out.String())
		default:
		}
		return count(t, db.SQL, `SELECT count(*) FROM effects WHERE worker = 'victim'`) == 1, nil
	})
	if err := victim.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	var taken int64
	if err := db.SQL.QueryRow(`SELECT job_id FROM effects WHERE worker = 'victim'`).Scan(&taken); err != nil {
		t.Fatal(err)
	}
	if st, _ := jobState(t, db.SQL, taken); st != "running" {
		t.Fatalf("the killed process's job is %s, want running", st)
	}

	start(t, survivor)
	waitFor(t, 90*time.Second, "both jobs complete ("+describe(db.SQL, first.ID)+"; "+describe(db.SQL, second.ID)+")", func() (bool, error) {
		return count(t, db.SQL, `SELECT count(*) FROM jobs.river_job WHERE state = 'completed'`) == 2, nil
	})
	for _, id := range []int64{first.ID, second.ID} {
		if got := count(t, db.SQL, `SELECT count(*) FROM effects WHERE job_id = $1 AND worker = 'survivor'`, id); got != 1 {
			t.Errorf("the survivor ran job %d %d times, want once", id, got)
		}
	}
	if st, attempt := jobState(t, db.SQL, taken); st != "completed" || attempt != 2 {
		t.Errorf("the rescued job: %s after %d attempts, want completed after 2", st, attempt)
	}
	if got := count(t, db.SQL, `SELECT count(*) FROM effects`); got != 3 {
		t.Errorf("%d side effects, want 3 (the killed attempt and one run of each job)", got)
	}
}

package main

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

type pingJob struct {
	N    int  `json:"n"`
	Hang bool `json:"hang,omitempty"`
}

func (pingJob) Kind() string { return "test.ping" }

// jobsWiring is the test wiring plus a job kind whose worker counts runs in
// the table pings (or, for Hang, waits for the shutdown), and two jobs
// enqueued at start.
func jobsWiring(db *stdsql.DB) Wiring {
	w := testWiring()
	w.Start = func(ctx context.Context, app *App) error {
		if err := jobs.Handle(app.Jobs, func(ctx context.Context, j *jobs.Job[pingJob]) error {
			if j.Args.Hang {
				<-ctx.Done()
				return ctx.Err()
			}
			_, err := db.ExecContext(ctx, `INSERT INTO pings (job_id) VALUES ($1)`, j.ID)
			return err
		}, jobs.KindOptions{}); err != nil {
			return err
		}
		for _, args := range []pingJob{{N: 1}, {N: 2, Hang: true}} {
			if _, err := app.Jobs.Enqueue(ctx, nil, args, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
				return err
			}
		}
		return nil
	}
	return w
}

// serve works the jobs the contexts declare, reports them in /metrics and,
// at shutdown, releases the job still running so another process takes it.
func TestServeWorksBackgroundJobs(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	if _, err := db.SQL.Exec(`CREATE TABLE pings (job_id bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error", "STRATA_VOICE_ADDR": freeAddr(t),
		"STRATA_ADMIN_ADDR": freeAddr(t), "STRATA_JOBS_SHUTDOWN_GRACE": "200ms", "STRATA_JOBS_POLL_INTERVAL": "100ms"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--surfaces", "voice"}, env, &bytes.Buffer{}, &errb, jobsWiring(db.SQL))
	}()
	waitFor(t, func() bool {
		var n int
		_ = db.SQL.QueryRow(`SELECT count(*) FROM pings`).Scan(&n)
		return n == 1
	})
	var metrics string
	waitFor(t, func() bool {
		resp, err := http.Get("http://" + env["STRATA_ADMIN_ADDR"] + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		metrics = b.String()
		// The hanging job runs; the other is done (River records
		// completions in batches, so its row says so a moment later).
		for _, want := range []string{`strata_job_runs_total{kind="test.ping",outcome="completed"} 1`,
			`strata_jobs{kind="test.ping",state="running"} 1`, "strata_jobs_scrape_ok 1"} {
			if !strings.Contains(metrics, want) {
				return false
			}
		}
		return true
	})
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not shut down")
	}
	var state string
	var attempt int
	if err := db.SQL.QueryRow(`SELECT state::text, attempt FROM jobs.river_job WHERE args->>'hang' = 'true'`).Scan(&state, &attempt); err != nil {
		t.Fatal(err)
	}
	if state != "available" || attempt != 0 {
		t.Fatalf("the job running at shutdown is %s at attempt %d; want available at 0 (released)", state, attempt)
	}
}

func TestJobsCommands(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	svc, err := jobs.New(db.SQL, jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := jobs.Handle(svc, func(context.Context, *jobs.Job[pingJob]) error { return nil }, jobs.KindOptions{}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 3 {
		e, err := svc.Enqueue(context.Background(), nil, pingJob{N: i}, &jobs.Opts{At: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	dead := ids[0]
	if _, err := db.SQL.Exec(`UPDATE jobs.river_job SET state = 'discarded', attempt = 25, finalized_at = now(),
		errors = ARRAY['{"at": "2026-11-27T09:00:00Z", "attempt": 25, "error": "smtp: 554 rejected"}'::jsonb] WHERE id = $1`, dead); err != nil {
		t.Fatal(err)
	}
	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error"}}

	out := c.mustRun("jobs", "list")
	for _, id := range ids {
		if !strings.Contains(out, fmt.Sprintf("\n%d ", id)) {
			t.Errorf("jobs list lacks job %d:\n%s", id, out)
		}
	}
	out = c.mustRun("jobs", "list", "--state", "dead")
	if !strings.Contains(out, fmt.Sprintf("%d ", dead)) || !strings.Contains(out, "smtp: 554 rejected") || strings.Contains(out, fmt.Sprintf("\n%d ", ids[1])) {
		t.Fatalf("jobs list --state dead:\n%s", out)
	}
	var listed []jobs.Info
	if err := json.Unmarshal([]byte(c.mustRun("jobs", "list", "--kind", "test.ping", "--state", "scheduled", "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || listed[0].ID != ids[2] || listed[1].ID != ids[1] {
		t.Fatalf("scheduled jobs, newest first: %+v", listed)
	}

	if out := c.mustRun("jobs", "retry", fmt.Sprint(dead)); !strings.Contains(out, "retried") || !strings.Contains(out, "now available") {
		t.Fatalf("jobs retry: %s", out)
	}
	if out := c.mustRun("jobs", "cancel", fmt.Sprint(ids[1])); !strings.Contains(out, "now cancelled") {
		t.Fatalf("jobs cancel: %s", out)
	}
	for id, want := range map[int64]string{dead: "available", ids[1]: "cancelled", ids[2]: "scheduled"} {
		var state string
		if err := db.SQL.QueryRow(`SELECT state::text FROM jobs.river_job WHERE id = $1`, id).Scan(&state); err != nil || state != want {
			t.Errorf("job %d is %s (%v), want %s", id, state, err, want)
		}
	}

	if _, errOut, code := c.run("jobs", "retry", "999999"); code != 1 || !strings.Contains(errOut, "no such job") {
		t.Errorf("retry of a missing job: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{{"jobs"}, {"jobs", "frob"}, {"jobs", "retry"}, {"jobs", "cancel", "x"}, {"jobs", "list", "--limit", "0"}} {
		if _, errOut, code := c.run(args...); code != 2 {
			t.Errorf("strata %v: exit %d, %s; want 2", args, code, errOut)
		}
	}
	if _, errOut, code := c.run("jobs", "list", "--state", "asleep"); code != 1 || !strings.Contains(errOut, `unknown state "asleep"`) {
		t.Errorf("unknown state: exit %d, %s", code, errOut)
	}
}

func TestJobsSettings(t *testing.T) {
	t.Parallel()
	cfg, err := loadConfig(map[string]string{"STRATA_JOBS_WORKERS": "3", "STRATA_JOBS_POLL_INTERVAL": "250ms",
		"STRATA_JOBS_TIMEOUT": "2m", "STRATA_JOBS_RESCUE_AFTER": "30m", "STRATA_JOBS_SHUTDOWN_GRACE": "5s",
		"STRATA_JOBS_RETENTION": "48h", "STRATA_JOBS_DEAD_RETENTION": "720h"})
	if err != nil {
		t.Fatal(err)
	}
	want := jobs.Config{Workers: 3, PollInterval: 250 * time.Millisecond, JobTimeout: 2 * time.Minute, RescueAfter: 30 * time.Minute,
		ShutdownGrace: 5 * time.Second, Retention: 48 * time.Hour, DeadRetention: 720 * time.Hour}
	if fmt.Sprint(cfg.Jobs) != fmt.Sprint(want) {
		t.Fatalf("jobs config %+v, want %+v", cfg.Jobs, want)
	}
	for env, name := range map[string]string{"STRATA_JOBS_WORKERS": "0", "STRATA_JOBS_POLL_INTERVAL": "soon",
		"STRATA_JOBS_RESCUE_AFTER": "30s"} {
		if _, errOut, code := (cli{t: t, env: map[string]string{env: name}}).run("version"); code != 2 || !strings.Contains(errOut, "STRATA_JOBS_") {
			t.Errorf("%s=%s: exit %d, %q", env, name, code, errOut)
		}
	}
}

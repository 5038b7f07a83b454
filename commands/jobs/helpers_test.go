package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(victimEnv) != "" {
		runVictim() // a process the kill test kills; never returns
	}
	pgtest.Main(m)
}

// effect is the test kind: its worker records each attempt in the table
// effects, so a test counts side effects.
type effect struct {
	N   int    `json:"n"`
	Tag string `json:"tag,omitempty"`
}

func (effect) Kind() string { return "test.effect" }

const effectsTable = `CREATE TABLE IF NOT EXISTS effects (job_id bigint NOT NULL, n int NOT NULL, worker text NOT NULL,
	attempt int NOT NULL, due timestamptz, periodic text, at timestamptz NOT NULL DEFAULT clock_timestamp())`

func createEffects(t testing.TB, db *sql.DB) {
	t.Helper()
	if _, err := db.Exec(effectsTable); err != nil {
		t.Fatal(err)
	}
}

// record writes one side effect of job, by worker.
func record(ctx context.Context, db *sql.DB, worker string, j *Job[effect]) error {
	var periodic *string
	if j.Periodic != "" {
		periodic = &j.Periodic
	}
	_, err := db.ExecContext(ctx, `INSERT INTO effects (job_id, n, worker, attempt, due, periodic) VALUES ($1, $2, $3, $4, $5, $6)`,
		j.ID, j.Args.N, worker, j.Attempt, j.Due, periodic)
	return err
}

// testConfig is quick to notice work.
func testConfig() Config {
	return Config{Workers: 4, PollInterval: 50 * time.Millisecond, JobTimeout: 20 * time.Second, RescueAfter: time.Minute}
}

// newService declares the effect kind with work and returns the service.
func newService(t testing.TB, db *sql.DB, cfg Config, work func(ctx context.Context, j *Job[effect]) error, opts KindOptions) *Service {
	t.Helper()
	s, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if work != nil {
		if err := Handle(s, work, opts); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func start(t testing.TB, s *Service) {
	t.Helper()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = s.Stop(ctx)
	})
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func count(t testing.TB, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func jobState(t testing.TB, db *sql.DB, id int64) (state string, attempt int) {
	t.Helper()
	if err := db.QueryRow(`SELECT state::text, attempt FROM jobs.river_job WHERE id = $1`, id).Scan(&state, &attempt); err != nil {
		t.Fatalf("job %d: %v", id, err)
	}
	return state, attempt
}

func mustEnqueue(t testing.TB, s *Service, args Args, opts *Opts) Enqueued {
	t.Helper()
	e, err := s.Enqueue(context.Background(), nil, args, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func describe(db *sql.DB, id int64) string {
	var state string
	var attempt int
	var errs []byte
	_ = db.QueryRow(`SELECT state::text, attempt, coalesce(array_to_json(errors)::text, '') FROM jobs.river_job WHERE id = $1`, id).Scan(&state, &attempt, &errs)
	return fmt.Sprintf("job %d: %s, attempt %d, errors %s", id, state, attempt, errs)
}

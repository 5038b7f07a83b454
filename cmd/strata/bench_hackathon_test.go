package main

import (
	"context"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/hackathon/hackathonbench"
)

// The hackathon bench runs end to end at a tiny size through `strata
// serve` (production wiring: identity accounts with API keys, invitations
// through the dev mailbox, the hackathon.v1 projector, the per-user rate
// limit) on a test database, and reports every figure with a value and a
// sample count, and its baseline where it has one. No target is asserted:
// targets are checked by the command, never in tests.
func TestBenchHackathonReportsEveryFigure(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	cfg, err := loadConfig(map[string]string{"STRATA_LOG_LEVEL": "error"})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := &command{cfg: cfg, stdout: &logs, stderr: &logs, wiring: productionWiring, logger: newLogger(&logs, cfg.LogLevel)}
	o := hackathonbench.Quick()
	o.Submissions, o.Judges, o.Batch, o.Clients, o.Measured, o.Leaderboard, o.Assignments = 40, 5, 15, 4, 20, 10, 2
	o.Progress = &logs
	o.Start = func(ctx context.Context) (*hackathonbench.Server, error) {
		return c.benchHackathonServer(ctx, db.URL, db.SQL)
	}
	rep, err := hackathonbench.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	want := []wantFigure{
		{"setup: 6 accounts registered (identity service, argon2id), 4 at a time", false},
		{"setup: 40 builders join + team + submission (Service.Do, synthetic ids, 15 per append)", false},
		{"GET .../judging/assignments p50, 40 subs x 5 judges (base: judging.Assign in process)", true},
		{"GET .../judging/assignments p95, 40 subs x 5 judges (base: judging.Assign in process)", true},
		{"setup: 100 scores over HTTP, 4 clients (judges' keys)", false},
		{"POST .../judging/scores p50, 1 client (base: GET /hackathons/{id})", true},
		{"POST .../judging/scores p95, 1 client (base: GET /hackathons/{id})", true},
		{"POST .../judging/scores p99, 1 client (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard p50 (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard p95 (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard?track_id= p50 (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard?track_id= p95 (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard after a revised score (ranked again) p50 (base: GET /hackathons/{id})", true},
		{"GET .../judging/leaderboard after a revised score (ranked again) p95 (base: GET /hackathons/{id})", true},
	}
	checkFigures(t, rep, want, false, "")
}

package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projcaptable "github.com/strata-platform/strata/projections/captable"
)

// TestParkedStreamCommands: a company stream holding an event the cap-table
// projector cannot decode is parked by the live runner; the CLI lists it
// (parked, status), a retry leaves it parked and says so, and a skip
// records who skipped what and releases the stream.
func TestParkedStreamCommands(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	populate(t, db)
	if _, err := db.SQL.Exec(`INSERT INTO es.events (event_id, stream_type, stream_id, stream_version, event_type, schema_version, payload, metadata, occurred_at)
		VALUES (gen_random_uuid(), 'captable.company', 'company-x', 1, 'captable.stakeholder_added', 1, '{"stakeholderId": 5}', '{}', now())`); err != nil {
		t.Fatal(err)
	}
	reg, err := testWiring().registry()
	if err != nil {
		t.Fatal(err)
	}
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), slog.New(slog.NewTextHandler(io.Discard, nil)),
		projections.Config{PollInterval: 10 * time.Millisecond}, projcaptable.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ps, _ := projections.ListParked(context.Background(), db.SQL, "")
		st, _ := projections.ReadStatus(context.Background(), db.SQL, []string{projcaptable.Name})
		if len(ps) == 1 && len(st) == 1 && st[0].LagEvents == 0 { // parked, and the checkpoint past it
			break
		}
	}
	cancel()
	<-done

	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error"}}
	if out := c.mustRun("projections", "parked"); !strings.Contains(out, "company-x") || !strings.Contains(out, "captable.stakeholder_added") {
		t.Fatalf("projections parked:\n%s", out)
	}
	if out := c.mustRun("projections", "status"); !strings.Contains(out, "PARKED") || !strings.Contains(out, "Parked streams") || !strings.Contains(out, "company-x") {
		t.Fatalf("projections status:\n%s", out)
	}
	if out, errOut, code := c.run("projections", "retry", "captable.v1", "company-x"); code == 0 || !strings.Contains(out, "still parked") {
		t.Fatalf("retry without a fix: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := c.run("projections", "skip", "captable.v1", "company-x"); code != 2 || !strings.Contains(errOut, "--reason") {
		t.Fatalf("skip without a reason: exit %d\n%s", code, errOut)
	}
	out := c.mustRun("projections", "skip", "captable.v1", "company-x", "--reason", "hand-written row", "--actor", "ops@example.com")
	if !strings.Contains(out, "released") {
		t.Fatalf("skip:\n%s", out)
	}
	ops := exportLines(t, c.mustRun("events", "export", "--stream", "projections-ops:captable.v1"))
	if len(ops) != 1 || ops[0]["event_type"] != "projections.event_skipped" ||
		ops[0]["payload"].(map[string]any)["actor"] != "ops@example.com" || ops[0]["payload"].(map[string]any)["reason"] != "hand-written row" {
		t.Fatalf("the skip's record: %v", ops)
	}
	if out := c.mustRun("projections", "parked"); !strings.Contains(out, "no parked streams") {
		t.Fatalf("after the skip:\n%s", out)
	}
}

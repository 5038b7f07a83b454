package projections

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// The listener's reconnect delay starts again from its minimum once a
// connection has worked: after the database dropped it several times (a
// restart, an operator ending sessions), the next drop still heals in a
// fraction of a second, not the longest backoff.
func TestListenReconnectsPromptlyAfterRepeatedDrops(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); Listen(ctx, db.URL, NewSignal(), slog.New(slog.DiscardHandler)) }()
	defer func() { cancel(); <-done }()
	listener := func() int {
		var pid int
		_ = db.SQL.QueryRow(`SELECT pid FROM pg_stat_activity
			WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`).Scan(&pid)
		return pid
	}
	// waitListener waits for a listener other than the one of pid old.
	waitListener := func(old int, within time.Duration) time.Duration {
		began := time.Now()
		for p := listener(); p == 0 || p == old; p = listener() {
			if time.Since(began) > within {
				t.Fatalf("no listener within %v", within)
			}
			time.Sleep(10 * time.Millisecond)
		}
		return time.Since(began)
	}
	waitListener(0, 10*time.Second)
	for drop := 1; drop <= 7; drop++ {
		pid := listener()
		if _, err := db.SQL.Exec(`SELECT pg_terminate_backend($1, 5000)`, pid); err != nil {
			t.Fatal(err)
		}
		took := waitListener(pid, 15*time.Second)
		t.Logf("drop %d: listening again after %v", drop, took)
		if took > 2*time.Second {
			t.Fatalf("drop %d: the listener took %v to come back; the backoff was not reset after a working connection", drop, took)
		}
	}
}

package signin

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/strata-platform/strata/eventstore"
)

// counter is one row of platform.signin_counters.
type counter struct {
	key          []byte
	failures     int
	windowStart  time.Time
	lastFailure  time.Time
	blockedUntil time.Time
	expiresAt    time.Time
}

// count records one more failure at now followed by a delay of d.
func (c *counter) count(now time.Time, d time.Duration) {
	c.failures++
	c.lastFailure, c.blockedUntil = now, now.Add(d)
	c.expiresAt = c.blockedUntil
	if forget := now.Add(FailureMemory); forget.After(c.expiresAt) {
		c.expiresAt = forget
	}
}

// lockRows creates the attempt's three counters if they are missing and
// locks them (one upsert, keys in a fixed order so that concurrent attempts
// lock in the same order), and reports whether the address is known to the
// account.
func lockRows(ctx context.Context, tx *stdsql.Tx, now time.Time, a *Attempt) (map[string]*counter, bool, error) {
	keys := [][]byte{a.pair, a.account, a.address}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i], keys[j]) < 0 })
	rows, err := tx.QueryContext(ctx, `
INSERT INTO platform.signin_counters AS c (key, failures, window_start, last_failure, blocked_until, expires_at)
SELECT k, 0, $4, $4, $4, $5 FROM unnest(ARRAY[$1::bytea, $2::bytea, $3::bytea]) WITH ORDINALITY AS u(k, i) ORDER BY i
ON CONFLICT (key) DO UPDATE SET failures = c.failures
RETURNING key, failures, window_start, last_failure, blocked_until, expires_at`,
		keys[0], keys[1], keys[2], now, now.Add(FailureMemory))
	if err != nil {
		return nil, false, fmt.Errorf("lock counters: %w", err)
	}
	defer rows.Close()
	out := make(map[string]*counter, 3)
	for rows.Next() {
		c := &counter{}
		if err := rows.Scan(&c.key, &c.failures, &c.windowStart, &c.lastFailure, &c.blockedUntil, &c.expiresAt); err != nil {
			return nil, false, fmt.Errorf("read counters: %w", err)
		}
		out[string(c.key)] = c
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("lock counters: %w", err)
	}
	if len(out) != 3 {
		return nil, false, fmt.Errorf("lock counters: %d rows, want 3", len(out))
	}
	var known bool
	err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM platform.signin_known_addresses WHERE pair = $1 AND expires_at > $2)`,
		a.pair, now).Scan(&known)
	if err != nil {
		return nil, false, fmt.Errorf("known address: %w", err)
	}
	return out, known, nil
}

// saveRows writes counters back.
func saveRows(ctx context.Context, tx *stdsql.Tx, cs ...*counter) error {
	for _, c := range cs {
		_, err := tx.ExecContext(ctx, `UPDATE platform.signin_counters SET failures = $2, window_start = $3,
    last_failure = $4, blocked_until = $5, expires_at = $6 WHERE key = $1`,
			c.key, c.failures, c.windowStart, c.lastFailure, c.blockedUntil, c.expiresAt)
		if err != nil {
			return fmt.Errorf("save counter: %w", err)
		}
	}
	return nil
}

// inTx runs fn in a transaction, again (up to three times) when PostgreSQL
// aborted it as a deadlock or serialization failure.
func inTx(ctx context.Context, db *stdsql.DB, fn func(tx *stdsql.Tx) error) error {
	for attempt := 0; ; attempt++ {
		err := eventstore.RunInTx(ctx, db, nil, fn)
		var pe *pgconn.PgError
		if attempt < 3 && errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") {
			continue
		}
		return err
	}
}

// maybeSweep sweeps when this process has not swept for SweepEvery.
func (l *Limiter) maybeSweep(ctx context.Context, now time.Time) error {
	last := l.lastSweep.Load()
	if now.UnixNano()-last < int64(SweepEvery) || !l.lastSweep.CompareAndSwap(last, now.UnixNano()) {
		return nil
	}
	_, err := l.Sweep(ctx)
	return err
}

// Sweep deletes up to SweepBatch expired counters and as many forgotten
// known addresses, and returns how many rows it deleted. Begin calls it at
// most once per SweepEvery per process; a row that expired but is still
// there counts as expired anyway.
func (l *Limiter) Sweep(ctx context.Context) (int64, error) {
	now := l.clock.Now().UTC()
	var n int64
	err := l.db.QueryRowContext(ctx, `
WITH c AS (DELETE FROM platform.signin_counters WHERE expires_at <= $1 AND key IN
        (SELECT key FROM platform.signin_counters WHERE expires_at <= $1 LIMIT $2) RETURNING 1),
k AS (DELETE FROM platform.signin_known_addresses WHERE expires_at <= $1 AND pair IN
        (SELECT pair FROM platform.signin_known_addresses WHERE expires_at <= $1 LIMIT $2) RETURNING 1)
SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM k)`, now, SweepBatch).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sign-in throttle: sweep: %w", err)
	}
	return n, nil
}

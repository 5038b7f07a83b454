package ratelimit

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Uses counts uses of a key in a sliding window (at most limit in any
// window-long span), in PostgreSQL (platform.rate_uses), for every
// process: the limits of rare, sensitive commands (a password reset mail,
// a trial key, a client registration) whose windows are hours long.
type Uses struct {
	db    *stdsql.DB
	clock kernel.Clock
	sweeps
}

// NewUses returns a sliding-window counter over db.
func NewUses(db *stdsql.DB, clock kernel.Clock) *Uses { return &Uses{db: db, clock: clock} }

// MaxWindow is the longest window Take serves: uses older than it are
// deleted.
const MaxWindow = 24 * time.Hour

// Take counts one use of key if it stays within limit uses in the last
// window; when it does not, the use is not counted and wait says when
// the next one will be allowed. Concurrent takes of one key queue on a
// transaction lock, so the limit holds exactly across processes.
func (u *Uses) Take(ctx context.Context, key string, limit int, window time.Duration) (wait time.Duration, ok bool, err error) {
	if window > MaxWindow {
		return 0, false, fmt.Errorf("ratelimit: window %s is longer than %s", window, MaxWindow)
	}
	now := u.clock.Now().UTC().Truncate(time.Microsecond)
	u.sweep(ctx, now)
	tx, err := u.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	// A lost count (a crash before the WAL flush) lets one use more
	// through: the commit need not wait for the disk.
	if _, err = tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('ratelimit.uses:' || $1, 0)),
		set_config('synchronous_commit', 'off', true)`, key); err != nil {
		return 0, false, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT at FROM platform.rate_uses WHERE key = $1 AND at > $2 ORDER BY at`, key, now.Add(-window))
	if err != nil {
		return 0, false, err
	}
	var uses []time.Time
	for rows.Next() {
		var at time.Time
		if err = rows.Scan(&at); err != nil {
			rows.Close()
			return 0, false, err
		}
		uses = append(uses, at)
	}
	rows.Close()
	if err = rows.Err(); err != nil {
		return 0, false, err
	}
	if len(uses) >= limit {
		wait = uses[len(uses)-limit].Add(window).Sub(now)
		return max(wait, time.Second), false, tx.Commit()
	}
	if _, err = tx.ExecContext(ctx, `INSERT INTO platform.rate_uses (key, at) VALUES ($1, $2)`, key, now); err != nil {
		return 0, false, err
	}
	return 0, true, tx.Commit()
}

// sweep deletes uses older than MaxWindow, at most once a minute per
// process.
func (u *Uses) sweep(ctx context.Context, now time.Time) {
	if u.due(now) {
		_, _ = u.db.ExecContext(ctx, `DELETE FROM platform.rate_uses WHERE at < $1`, now.Add(-MaxWindow))
	}
}

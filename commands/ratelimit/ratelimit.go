// Package ratelimit is the platform's shared rate limiter: fixed
// one-minute windows counted in PostgreSQL (platform.rate_windows), one
// statement a request, so a limit holds across every process that serves
// (ARCHITECTURE.md section 10). Keys name what is limited ("audit.quick:
// 203.0.113.9").
package ratelimit

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limiter counts requests per key and minute.
type Limiter struct {
	db    *stdsql.DB
	clock kernel.Clock
	sweeps
}

// sweeps spaces a counter's deletions of old rows: at most one a minute
// per process.
type sweeps struct {
	mu   sync.Mutex
	last time.Time
}

// due reports whether a sweep is due at now, and if so records it.
func (s *sweeps) due(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.last) < time.Minute {
		return false
	}
	s.last = now
	return true
}

// New returns a limiter over db.
func New(db *stdsql.DB, clock kernel.Clock) *Limiter { return &Limiter{db: db, clock: clock} }

// Decision is a limiter's answer for one request.
type Decision struct {
	Allowed    bool
	Limit      int
	Remaining  int
	Reset      time.Time     // when the window ends
	RetryAfter time.Duration // refused: until the window ends
}

// Take counts one request of key against perMinute; over the limit it is
// refused (and not counted further: a refused request does not push the
// next window).
func (l *Limiter) Take(ctx context.Context, key string, perMinute int) (Decision, error) {
	now := l.clock.Now().UTC()
	start := now.Truncate(time.Minute)
	d := Decision{Limit: perMinute, Reset: start.Add(time.Minute)}
	l.sweep(ctx, now)
	var n int
	// The commit does not wait for its WAL flush (synchronous_commit off
	// for this transaction, as the gateway's limiter does): a count lost
	// in a crash lets a few requests more through in that minute, and
	// every limited request is spared a disk flush.
	err := l.db.QueryRowContext(ctx, `INSERT INTO platform.rate_windows (key, window_start, count)
		SELECT $1, $2, 1 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
		ON CONFLICT (key, window_start) DO UPDATE SET count = platform.rate_windows.count + 1
			WHERE platform.rate_windows.count <= $3
		RETURNING count`, key, start, perMinute).Scan(&n)
	switch {
	case err == stdsql.ErrNoRows: // the row is past the limit: not counted again
		n = perMinute + 1
	case err != nil:
		return d, fmt.Errorf("rate limit %s: %w", key, err)
	}
	d.Allowed = n <= perMinute
	d.Remaining = max(0, perMinute-n)
	if !d.Allowed {
		d.RetryAfter = max(time.Second, d.Reset.Sub(now))
	}
	return d, nil
}

// sweep deletes windows older than ten minutes, at most once a minute per
// process.
func (l *Limiter) sweep(ctx context.Context, now time.Time) {
	if l.due(now) {
		_, _ = l.db.ExecContext(ctx, `DELETE FROM platform.rate_windows WHERE window_start < $1`, now.Add(-10*time.Minute))
	}
}

// Headers sets X-RateLimit-Limit, -Remaining and -Reset (Unix seconds).
func (d Decision) Headers(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(d.Reset.Unix(), 10))
}

// TakeMinute is Take for httpx.WindowLimiter's Shared interface.
func (l *Limiter) TakeMinute(ctx context.Context, key string, perMinute int) (bool, int, time.Time, time.Duration, error) {
	d, err := l.Take(ctx, key, perMinute)
	return d.Allowed, d.Remaining, d.Reset, d.RetryAfter, err
}

package gateway

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
)

// RateLimiter counts gateway requests per account and UTC hour in
// PostgreSQL (platform.gateway_request_windows), so every process shares
// the plan's limit: a fixed window per clock hour, moved by one atomic
// upsert that stops at the limit. Exactly the plan's number of requests
// is allowed each hour, whatever the number of processes; a refused
// request is not counted. Clocks of the processes must agree (the window
// is the injected clock's hour). Concurrent requests of a process are
// counted together, one upsert of many accounts' rows (a group: at most
// one request per account and hour in each, so each row moves once and
// stops at its limit as alone). A count is committed without waiting for
// its WAL flush (synchronous_commit off for that transaction): it is
// visible to every process at once, and only a crash of PostgreSQL itself
// can lose the counts of its last moments (up to three WAL writer
// delays, 600 ms by default), letting that many requests more through in
// the hour; a request does not wait for a disk flush to be counted. It is
// safe for concurrent use.
type RateLimiter struct {
	db        *stdsql.DB
	clock     kernel.Clock
	lastSweep atomic.Int64 // unix seconds of this process's last cleanup
	counts    *group[count]
}

// count is one request to count: an account's window and limit, and the
// outcome.
type count struct {
	account string
	start   time.Time
	limit   int64
	used    int64 // the window's count after this request, when allowed
	allowed bool
}

func (c *count) key() string { return c.account + "\x00" + strconv.FormatInt(c.start.UnixNano(), 10) }

// NewRateLimiter returns the limiter over db.
func NewRateLimiter(db *stdsql.DB, clock kernel.Clock) *RateLimiter {
	l := &RateLimiter{db: db, clock: clock}
	l.counts = newGroup((*count).key, l.countAll)
	return l
}

// Decision is a limiter's answer.
type Decision struct {
	Allowed    bool
	Limit      int64         // requests an hour (credits.Unlimited: none)
	Used       int64         // requests counted in this hour, this one included when allowed
	Reset      time.Time     // when the hour's window ends
	RetryAfter time.Duration // refused: how long until the next window
}

// Allow counts one request of account against limit requests an hour, or
// refuses it once the hour's count has reached the limit. An unlimited
// plan is allowed without a query; a limit of 0 refuses everything.
func (l *RateLimiter) Allow(ctx context.Context, account string, limit int64) (Decision, error) {
	now := l.clock.Now().UTC()
	start := now.Truncate(time.Hour)
	d := Decision{Limit: limit, Reset: start.Add(time.Hour)}
	if limit == credits.Unlimited {
		d.Allowed = true
		return d, nil
	}
	l.sweep(ctx, now)
	if limit > 0 {
		c := &count{account: account, start: start, limit: limit}
		if err := l.counts.do(ctx, c); err != nil {
			return d, fmt.Errorf("gateway rate limit: %w", err)
		}
		if c.allowed {
			d.Allowed, d.Used = true, c.used
			return d, nil
		}
	}
	d.Used, d.RetryAfter = limit, d.Reset.Sub(now)
	return d, nil
}

// countAll counts a group's requests in one statement (each account's
// window at most once), committed without waiting for its WAL flush: a
// window below its limit is incremented (created at 1), one at its limit
// is left as it is and not returned.
func (l *RateLimiter) countAll(ctx context.Context, cs []*count) error {
	accounts, starts, limits := make([]string, len(cs)), make([]time.Time, len(cs)), make([]int64, len(cs))
	for i, c := range cs {
		accounts[i], starts[i], limits[i] = c.account, c.start, c.limit
	}
	rows, err := l.db.QueryContext(ctx, `INSERT INTO platform.gateway_request_windows AS w (account_id, window_start, count)
		SELECT r.account_id, r.window_start, 1
		FROM unnest($1::text[], $2::timestamptz[], $3::bigint[]) AS r(account_id, window_start, lim),
			(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
		ON CONFLICT (account_id, window_start) DO UPDATE SET count = w.count + 1
		WHERE w.count < (SELECT r.lim FROM unnest($1::text[], $2::timestamptz[], $3::bigint[]) AS r(account_id, window_start, lim)
			WHERE r.account_id = w.account_id AND r.window_start = w.window_start)
		RETURNING account_id, window_start, count`, accounts, starts, limits)
	if err != nil {
		return err
	}
	defer rows.Close()
	byKey := make(map[string]*count, len(cs))
	for _, c := range cs {
		byKey[c.key()] = c
	}
	for rows.Next() {
		var r count
		if err := rows.Scan(&r.account, &r.start, &r.used); err != nil {
			return err
		}
		if c, ok := byKey[r.key()]; ok {
			c.allowed, c.used = true, r.used
		}
	}
	return rows.Err()
}

// Used returns the requests counted for account in the current hour and
// when the hour ends.
func (l *RateLimiter) Used(ctx context.Context, account string) (int64, time.Time, error) {
	start := l.clock.Now().UTC().Truncate(time.Hour)
	var n int64
	err := l.db.QueryRowContext(ctx, `SELECT coalesce(max(count), 0) FROM platform.gateway_request_windows
		WHERE account_id = $1 AND window_start = $2`, account, start).Scan(&n)
	if err != nil {
		return 0, start, fmt.Errorf("gateway rate limit: %w", err)
	}
	return n, start.Add(time.Hour), nil
}

// sweep deletes windows older than two hours, at most once a minute per
// process and 1,000 rows at a time; a failure only delays it.
func (l *RateLimiter) sweep(ctx context.Context, now time.Time) {
	last := l.lastSweep.Load()
	if now.Unix()-last < 60 || !l.lastSweep.CompareAndSwap(last, now.Unix()) {
		return
	}
	_, _ = l.db.ExecContext(ctx, `DELETE FROM platform.gateway_request_windows WHERE ctid IN (
		SELECT ctid FROM platform.gateway_request_windows WHERE window_start < $1 LIMIT 1000)`, now.Add(-2*time.Hour))
}

// RateLimited is a request refused by the plan's requests-per-hour limit:
// a rate_limited error (429) whose RetryAfter is the wait until the next
// hour's window.
type RateLimited struct {
	Plan       string
	Limit      int64
	RetryAfter time.Duration
	Reset      time.Time
}

// Error implements error.
func (e *RateLimited) Error() string { return e.kernel().Error() }

// Unwrap gives the kernel error, so the kind decides the status.
func (e *RateLimited) Unwrap() error { return e.kernel() }

func (e *RateLimited) kernel() *kernel.Error {
	return &kernel.Error{Kind: kernel.KindRateLimited, Rule: "requests_per_hour", Message: e.Message()}
}

// Message is the refusal's text for the client.
func (e *RateLimited) Message() string {
	return fmt.Sprintf("the %s plan allows %d requests an hour; try again in %d seconds", e.Plan, e.Limit,
		int64((e.RetryAfter+time.Second-1)/time.Second))
}

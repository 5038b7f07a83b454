package gateway

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
)

// RateLimiter counts gateway requests per account and UTC hour against
// the plan's limit, shared by every process through PostgreSQL
// (platform.gateway_request_windows: one row per account and hour, whose
// count never passes the limit), without a statement per request: a
// process leases a few of the hour's requests from the row at once (one
// atomic upsert that stops at the limit) and admits them from memory.
//
//   - Never more than the limit: a lease takes only what the row has left,
//     and a request is allowed only out of a lease.
//   - Exact in one process: a request is refused only when the row is at
//     its limit and the process holds nothing. Between processes, one may
//     refuse while another holds unused leased requests; a process gives
//     back what it holds of a window idle for IdleReturn (1 s by default)
//     and on Close, so the hour's remainder is anyone's again. A process
//     that crashes loses what it held: those requests are refused in that
//     hour (never over the limit).
//   - A lease takes a sixteenth of what the row has left, between 1 and 64
//     requests: near the limit each request is its own lease, so what
//     processes hold is never much of the remainder. The next lease is
//     taken in the background once half of one is used: a request waits
//     for PostgreSQL only on its account's first request of the hour, when
//     a burst outruns the background lease, and to be refused.
//
// A lease commits without waiting for its WAL flush (synchronous_commit
// off for that statement): only a crash of PostgreSQL itself can lose the
// leases of its last moments (up to three WAL writer delays, 600 ms by
// default), letting that many requests more through in the hour.
// Concurrent leases of a process are one statement (a group: at most one
// per account and hour each). Clocks of the processes must agree (the
// window is the injected clock's hour). It is safe for concurrent use.
type RateLimiter struct {
	db        *stdsql.DB
	clock     kernel.Clock
	cfg       LimiterConfig
	lastSweep atomic.Int64 // unix seconds of this process's last cleanup
	leases    *group[lease]

	mu      sync.Mutex
	windows map[windowKey]*window
}

// LimiterConfig tunes the limiter; zero values take the defaults.
type LimiterConfig struct {
	// MaxLease bounds one lease (default 64 requests).
	MaxLease int64
	// IdleReturn: what this process holds of a window that served no
	// request for this long is given back (default 1 s).
	IdleReturn time.Duration
	Logger     *slog.Logger
}

type windowKey struct {
	account string
	start   int64 // unix seconds of the window's hour
}

// window is this process's part of one account's hour.
type window struct {
	mu       sync.Mutex
	held     int64         // requests leased and not used yet
	limit    int64         // the limit of the last request
	rowCount int64         // the row's count after this process's last lease
	lastUse  time.Time     // wall clock of the last request or lease
	leasing  chan struct{} // closed when the lease in flight ends; nil: none
}

// lease is one lease to take: an account's window, the limit and the
// requests wanted, and the outcome.
type lease struct {
	account string
	start   time.Time
	limit   int64
	want    int64
	granted int64 // requests taken (0: the row is at its limit)
	count   int64 // the row's count after the lease
}

func (c *lease) key() string { return c.account + "\x00" + strconv.FormatInt(c.start.UnixNano(), 10) }

// NewRateLimiter returns the limiter over db with the default
// configuration.
func NewRateLimiter(db *stdsql.DB, clock kernel.Clock) *RateLimiter {
	return NewRateLimiterWith(db, clock, LimiterConfig{})
}

// NewRateLimiterWith returns the limiter over db with cfg.
func NewRateLimiterWith(db *stdsql.DB, clock kernel.Clock, cfg LimiterConfig) *RateLimiter {
	if cfg.MaxLease <= 0 {
		cfg.MaxLease = 64
	}
	if cfg.IdleReturn <= 0 {
		cfg.IdleReturn = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l := &RateLimiter{db: db, clock: clock, cfg: cfg, windows: map[windowKey]*window{}}
	l.leases = newGroup((*lease).key, l.leaseAll)
	return l
}

// Decision is a limiter's answer.
type Decision struct {
	Allowed bool
	Limit   int64 // requests an hour (credits.Unlimited: none)
	// Used: requests of the hour counted when the answer was made, this
	// one included when allowed (what other running processes hold
	// unused counts as used).
	Used       int64
	Reset      time.Time     // when the hour's window ends
	RetryAfter time.Duration // refused: how long until the next window
}

// Allow counts one request of account against limit requests an hour, or
// refuses it once the hour's requests are all taken. An unlimited plan is
// allowed without a query; a limit of 0 refuses everything.
func (l *RateLimiter) Allow(ctx context.Context, account string, limit int64) (Decision, error) {
	now := l.clock.Now().UTC()
	start := now.Truncate(time.Hour)
	d := Decision{Limit: limit, Reset: start.Add(time.Hour)}
	if limit == credits.Unlimited {
		d.Allowed = true
		return d, nil
	}
	d.Used, d.RetryAfter = limit, d.Reset.Sub(now)
	if limit <= 0 {
		return d, nil
	}
	l.sweep(ctx, now)
	w := l.window(account, start)
	for {
		w.mu.Lock()
		if limit < w.limit {
			// A lower limit (a downgrade within the hour): keep no more
			// than it leaves of the hour.
			w.held = max(min(w.held, limit-(w.rowCount-w.held)), 0)
		}
		w.limit = limit
		if w.held > 0 {
			w.held--
			w.lastUse = time.Now()
			d.Allowed, d.Used, d.RetryAfter = true, w.rowCount-w.held, 0
			if w.leasing == nil && w.held <= l.size(limit, w.rowCount)/2 && w.rowCount < limit {
				done := make(chan struct{})
				w.leasing = done
				go func() {
					bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), groupTimeout)
					defer cancel()
					if _, err := l.lease(bctx, w, account, start, limit, done); err != nil {
						l.cfg.Logger.Warn("gateway rate limit: a background lease failed", "account", account, "err", err)
					}
				}()
			}
			w.mu.Unlock()
			return d, nil
		}
		if wait := w.leasing; wait != nil {
			w.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return d, ctx.Err()
			}
		}
		done := make(chan struct{})
		w.leasing = done
		w.mu.Unlock()
		granted, err := l.lease(ctx, w, account, start, limit, done)
		if err != nil {
			return d, fmt.Errorf("gateway rate limit: %w", err)
		}
		if granted == 0 {
			return d, nil // the row is at its limit and this process holds nothing
		}
	}
}

// size is how many requests a lease asks for when the row has count of
// limit taken: a sixteenth of the rest, between 1 and MaxLease.
func (l *RateLimiter) size(limit, count int64) int64 {
	return min(max((limit-count)/16, 1), l.cfg.MaxLease)
}

// window returns this process's state of account's hour at start.
func (l *RateLimiter) window(account string, start time.Time) *window {
	k := windowKey{account, start.Unix()}
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.windows[k]
	if !ok {
		w = &window{}
		l.windows[k] = w
	}
	return w
}

// lease takes the next lease of w (whose leasing is done, set by the
// caller) and adds it to what w holds; done is closed when it ends.
func (l *RateLimiter) lease(ctx context.Context, w *window, account string, start time.Time, limit int64, done chan struct{}) (int64, error) {
	w.mu.Lock()
	c := &lease{account: account, start: start, limit: limit, want: l.size(limit, w.rowCount)}
	w.mu.Unlock()
	err := l.leases.do(ctx, c)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.leasing = nil
	close(done)
	if err != nil {
		return 0, err
	}
	w.held += c.granted
	if c.granted > 0 || c.count > w.rowCount {
		w.rowCount = c.count
	}
	w.lastUse = time.Now()
	return c.granted, nil
}

// leaseAll takes a group's leases in one statement (each account's window
// at most once), committed without waiting for its WAL flush: a window
// below its limit gives what it has left up to the lease's size (created
// with it), one at its limit is left as it is and not returned.
func (l *RateLimiter) leaseAll(ctx context.Context, cs []*lease) error {
	accounts, starts, wants, limits := make([]string, len(cs)), make([]time.Time, len(cs)), make([]int64, len(cs)), make([]int64, len(cs))
	for i, c := range cs {
		accounts[i], starts[i], wants[i], limits[i] = c.account, c.start, c.want, c.limit
		c.granted, c.count = 0, c.limit
	}
	rows, err := l.db.QueryContext(ctx, `INSERT INTO platform.gateway_request_windows AS w
			(account_id, window_start, count, last_grant, limit_per_hour)
		SELECT r.account_id, r.window_start, LEAST(r.want, r.lim), LEAST(r.want, r.lim), r.lim
		FROM unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::bigint[]) AS r(account_id, window_start, want, lim),
			(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
		ON CONFLICT (account_id, window_start) DO UPDATE
		SET count = LEAST(w.count + EXCLUDED.count, EXCLUDED.limit_per_hour),
			last_grant = LEAST(w.count + EXCLUDED.count, EXCLUDED.limit_per_hour) - w.count,
			limit_per_hour = EXCLUDED.limit_per_hour
		WHERE w.count < EXCLUDED.limit_per_hour
		RETURNING account_id, window_start, count, last_grant`, accounts, starts, wants, limits)
	if err != nil {
		return err
	}
	defer rows.Close()
	byKey := make(map[string]*lease, len(cs))
	for _, c := range cs {
		byKey[c.key()] = c
	}
	for rows.Next() {
		var r lease
		if err := rows.Scan(&r.account, &r.start, &r.count, &r.granted); err != nil {
			return err
		}
		if c, ok := byKey[r.key()]; ok {
			c.granted, c.count = r.granted, r.count
		}
	}
	return rows.Err()
}

// Used returns the requests counted for account in the current hour (what
// other running processes hold unused counts as used) and when the hour
// ends.
func (l *RateLimiter) Used(ctx context.Context, account string) (int64, time.Time, error) {
	start := l.clock.Now().UTC().Truncate(time.Hour)
	var n int64
	err := l.db.QueryRowContext(ctx, `SELECT coalesce(max(count), 0) FROM platform.gateway_request_windows
		WHERE account_id = $1 AND window_start = $2`, account, start).Scan(&n)
	if err != nil {
		return 0, start, fmt.Errorf("gateway rate limit: %w", err)
	}
	l.mu.Lock()
	w := l.windows[windowKey{account, start.Unix()}]
	l.mu.Unlock()
	if w != nil {
		w.mu.Lock()
		n -= w.held
		w.mu.Unlock()
	}
	return max(n, 0), start.Add(time.Hour), nil
}

// ReturnIdle gives back what this process holds of the windows that
// served no request for idle (all of them with idle 0) and forgets the
// windows of past hours. A failure keeps what could not be given back
// held (it is tried again).
func (l *RateLimiter) ReturnIdle(ctx context.Context, idle time.Duration) error {
	current := l.clock.Now().UTC().Truncate(time.Hour).Unix()
	cutoff := time.Now().Add(-idle)
	type back struct {
		w *window
		k windowKey
		n int64
	}
	var backs []back
	l.mu.Lock()
	for k, w := range l.windows {
		w.mu.Lock()
		switch {
		case k.start < current && w.leasing == nil:
			delete(l.windows, k) // a past hour: what it holds no longer matters
		case w.held > 0 && w.leasing == nil && !w.lastUse.After(cutoff):
			backs = append(backs, back{w, k, w.held})
			w.held = 0
		}
		w.mu.Unlock()
	}
	l.mu.Unlock()
	if len(backs) == 0 {
		return nil
	}
	accounts, starts, ns := make([]string, len(backs)), make([]time.Time, len(backs)), make([]int64, len(backs))
	for i, b := range backs {
		accounts[i], starts[i], ns[i] = b.k.account, time.Unix(b.k.start, 0).UTC(), b.n
	}
	_, err := l.db.ExecContext(ctx, `UPDATE platform.gateway_request_windows AS w SET count = GREATEST(w.count - r.n, 0)
		FROM unnest($1::text[], $2::timestamptz[], $3::bigint[]) AS r(account_id, window_start, n)
		WHERE w.account_id = r.account_id AND w.window_start = r.window_start`, accounts, starts, ns)
	if err != nil {
		for _, b := range backs {
			b.w.mu.Lock()
			b.w.held += b.n
			b.w.mu.Unlock()
		}
		return fmt.Errorf("gateway rate limit: give back leased requests: %w", err)
	}
	for _, b := range backs {
		b.w.mu.Lock()
		b.w.rowCount -= b.n
		b.w.mu.Unlock()
	}
	return nil
}

// Run gives back idle leases every half IdleReturn until ctx ends, then
// everything held.
func (l *RateLimiter) Run(ctx context.Context) {
	t := time.NewTicker(l.cfg.IdleReturn / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := l.ReturnIdle(cctx, 0); err != nil {
				l.cfg.Logger.Warn("gateway rate limit: leases not given back at shutdown (refused for the rest of their hour)", "err", err)
			}
			cancel()
			return
		case <-t.C:
			if err := l.ReturnIdle(ctx, l.cfg.IdleReturn); err != nil && ctx.Err() == nil {
				l.cfg.Logger.Warn("gateway rate limit: giving back idle leases failed", "err", err)
			}
		}
	}
}

// sweep deletes windows older than two hours, at most once a minute per
// process and 1,000 rows at a time; a failure only delays it.
func (l *RateLimiter) sweep(ctx context.Context, now time.Time) {
	last := l.lastSweep.Load()
	if now.Unix()-last < 60 || !l.lastSweep.CompareAndSwap(last, now.Unix()) {
		return
	}
	go func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = l.db.ExecContext(sctx, `DELETE FROM platform.gateway_request_windows WHERE ctid IN (
			SELECT ctid FROM platform.gateway_request_windows WHERE window_start < $1 LIMIT 1000)`, now.Add(-2*time.Hour))
	}()
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

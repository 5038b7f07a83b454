// Package signin throttles password sign-in for every surface that has one
// (platform identity and its OAuth sign-in page, the cap table), with its
// state in PostgreSQL (schema platform) so that every process counts the
// same failures. It follows OWASP's Authentication Cheat Sheet, Keycloak's
// brute-force detection and Auth0's per-address-per-account blocking:
//
//   - per (account, client address): PairFreeFailures free failures, then a
//     delay that doubles with each further failure from PairBaseDelay up to
//     PairMaxDelay;
//   - per account, across addresses: past AccountFreeFailures the same kind
//     of growing delay, which applies only to addresses the account has never
//     signed in from, so the owner's known address is never slowed by others;
//   - per client address, across accounts: AddressFailureLimit failures per
//     AddressWindow (credential stuffing).
//
// An attempt is counted as a failure before the password is checked, under
// row locks, and taken back when it succeeds, so parallel guesses cannot all
// pass the check before any of them fails. Accounts need not exist: an
// unknown account is counted and refused exactly like a known one.
package signin

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// The limits. A failure is forgotten FailureMemory after the last failure
// of its subject (Keycloak's default failure reset time); a known address
// is forgotten KnownAddressMemory after its last successful sign-in.
const (
	PairFreeFailures    = 5
	PairBaseDelay       = 2 * time.Second
	PairMaxDelay        = 15 * time.Minute
	AccountFreeFailures = 20
	AccountBaseDelay    = 2 * time.Second
	AccountMaxDelay     = 15 * time.Minute
	AddressFailureLimit = 20
	AddressWindow       = 15 * time.Minute
	FailureMemory       = 12 * time.Hour
	KnownAddressMemory  = 90 * 24 * time.Hour
	// SweepEvery is how often a process deletes expired rows (at most
	// SweepBatch of each table per sweep), from the first Begin after it.
	SweepEvery = time.Minute
	SweepBatch = 1000
)

// Throttled refuses an attempt while a delay runs. Its message is the same
// for every account and address, existing or not.
type Throttled struct {
	RetryAfter time.Duration
	Message    string
}

func (e *Throttled) Error() string { return e.Message }

// Unwrap gives the kernel kind (rate limited) to the HTTP edge.
func (e *Throttled) Unwrap() error { return kernel.E(kernel.KindRateLimited, e.Message) }

// throttled builds the one refusal; the wait is whole seconds, rounded up.
func throttled(wait time.Duration) *Throttled {
	secs := (wait + time.Second - 1) / time.Second
	return &Throttled{RetryAfter: wait, Message: fmt.Sprintf("too many failed sign-in attempts; try again in %d seconds", secs)}
}

// errRefused rolls back the transaction of a refused attempt.
var errRefused = errors.New("refused")

// Limiter throttles sign-in attempts; one value serves every surface and
// is safe for concurrent use. Several processes on one database share it.
type Limiter struct {
	db        *stdsql.DB
	clock     kernel.Clock
	key       []byte
	lastSweep atomic.Int64 // unix nanoseconds of this process's last sweep
}

// New returns a limiter over db (migration 00012). key keys the HMAC under
// which accounts and addresses are stored; keep it secret and stable (cmd/
// strata derives it from the master key): a new key forgets every counter
// and known address.
func New(db *stdsql.DB, clock kernel.Clock, key []byte) *Limiter {
	return &Limiter{db: db, clock: clock, key: append([]byte(nil), key...)}
}

// Attempt is an attempt that Begin let through and counted as a failure.
// Pass it to Succeed when the password was right; a failure needs nothing.
type Attempt struct {
	pair, account, address []byte
	at                     time.Time
	accountFailures        int       // the account's count with this attempt
	accountBlockedBefore   time.Time // its delay before this attempt
	addressWindow          time.Time
}

// digest names one subject of realm: kind "p" (account, address), "a"
// (account) or "c" (client address).
func (l *Limiter) digest(realm, kind string, parts ...string) []byte {
	m := hmac.New(sha256.New, l.key)
	for _, p := range append([]string{realm, kind}, parts...) {
		fmt.Fprintf(m, "%d:%s;", len(p), p)
	}
	return m.Sum(nil)
}

// delay is the wait after n failures: none below free, then base doubling
// with each further failure, capped at max.
func delay(n, free int, base, max time.Duration) time.Duration {
	if n < free {
		return 0
	}
	d := base
	for i := free; i < n && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

// Begin starts a sign-in attempt of account (as the caller typed it,
// normalised by the caller) from address in realm (the surface's account
// namespace). It returns *Throttled while a delay runs for the attempt's
// address, pair or (from an address the account has not signed in from)
// account; otherwise it counts the attempt as a failure before returning.
func (l *Limiter) Begin(ctx context.Context, realm, account, address string) (*Attempt, error) {
	now := l.clock.Now().UTC().Truncate(time.Microsecond)
	if err := l.maybeSweep(ctx, now); err != nil {
		return nil, err
	}
	a := &Attempt{pair: l.digest(realm, "p", account, address), account: l.digest(realm, "a", account),
		address: l.digest(realm, "c", address), at: now}
	var refusal *Throttled
	err := inTx(ctx, l.db, func(tx *stdsql.Tx) error {
		rows, known, err := lockRows(ctx, tx, now, a)
		if err != nil {
			return err
		}
		pair, acct, addr := rows[string(a.pair)], rows[string(a.account)], rows[string(a.address)]
		for _, c := range []*counter{pair, acct} {
			if now.Sub(c.lastFailure) >= FailureMemory {
				c.failures = 0
			}
		}
		if !now.Before(addr.windowStart.Add(AddressWindow)) {
			addr.failures, addr.windowStart = 0, now
		}
		wait := pair.blockedUntil.Sub(now)
		if !known {
			wait = max(wait, acct.blockedUntil.Sub(now))
		}
		if addr.failures >= AddressFailureLimit {
			wait = max(wait, addr.windowStart.Add(AddressWindow).Sub(now))
		}
		if wait > 0 {
			refusal = throttled(wait)
			return errRefused // roll back: nothing is counted
		}
		a.accountBlockedBefore = acct.blockedUntil
		pair.count(now, delay(pair.failures+1, PairFreeFailures, PairBaseDelay, PairMaxDelay))
		acct.count(now, delay(acct.failures+1, AccountFreeFailures, AccountBaseDelay, AccountMaxDelay))
		addr.count(now, 0)
		addr.expiresAt = addr.windowStart.Add(AddressWindow)
		a.accountFailures, a.addressWindow = acct.failures, addr.windowStart
		return saveRows(ctx, tx, pair, acct, addr)
	})
	if errors.Is(err, errRefused) {
		return nil, refusal
	}
	if err != nil {
		return nil, fmt.Errorf("sign-in throttle: %w", err)
	}
	return a, nil
}

// Succeed ends an attempt whose password was right: the pair's failures are
// cleared, the account's and the address's counts lose this attempt, and
// the address becomes known to the account.
func (l *Limiter) Succeed(ctx context.Context, a *Attempt) error {
	now := l.clock.Now().UTC()
	_, err := l.db.ExecContext(ctx, `
WITH pair AS (DELETE FROM platform.signin_counters WHERE key = $1),
acct AS (UPDATE platform.signin_counters SET failures = greatest(failures - 1, 0),
        blocked_until = CASE WHEN failures = $3 THEN $4 ELSE blocked_until END
    WHERE key = $2),
addr AS (UPDATE platform.signin_counters SET failures = greatest(failures - 1, 0)
    WHERE key = $5 AND window_start = $6)
INSERT INTO platform.signin_known_addresses (pair, account, last_success, expires_at) VALUES ($1, $2, $7, $8)
ON CONFLICT (pair) DO UPDATE SET last_success = excluded.last_success, expires_at = excluded.expires_at`,
		a.pair, a.account, a.accountFailures, a.accountBlockedBefore, a.address, a.addressWindow,
		now, now.Add(KnownAddressMemory))
	if err != nil {
		return fmt.Errorf("sign-in throttle: record success: %w", err)
	}
	return nil
}

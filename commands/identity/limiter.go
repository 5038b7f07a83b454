package identity

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Brute-force limits: failed sign-ins within LimitWindow, per account and
// per client address. When either is reached, sign-in for that account (or
// from that client) is refused with 429 until the oldest failure leaves the
// window. A successful sign-in clears the account's count, not the client's.
const (
	AccountFailureLimit = 5
	ClientFailureLimit  = 20
	LimitWindow         = 15 * time.Minute
)

// Throttled is a refusal because of too many attempts; RetryAfter says when
// to try again.
type Throttled struct {
	RetryAfter time.Duration
	Message    string
}

func (e *Throttled) Error() string { return e.Message }

// Limiter counts failures in memory, per process. (Several processes behind
// a load balancer each count on their own; see docs/architecture.md.)
type Limiter struct {
	clock kernel.Clock
	mu    sync.Mutex
	fails map[string][]time.Time // "a:<account>" or "c:<client>" -> failure times, oldest first
	sweep time.Time
}

// NewLimiter returns an empty limiter.
func NewLimiter(clock kernel.Clock) *Limiter {
	return &Limiter{clock: clock, fails: map[string][]time.Time{}}
}

// Check refuses when account or client has reached its limit.
func (l *Limiter) Check(account, client string) error {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maybeSweep(now)
	for _, c := range []struct {
		key   string
		limit int
		what  string
	}{{"a:" + account, AccountFailureLimit, "this account"}, {"c:" + client, ClientFailureLimit, "this client"}} {
		f := l.recent(c.key, now)
		if len(f) >= c.limit {
			wait := f[len(f)-c.limit].Add(LimitWindow).Sub(now)
			return &Throttled{RetryAfter: wait, Message: fmt.Sprintf("too many failed sign-ins for %s; try again in %d seconds", c.what, int(wait.Seconds())+1)}
		}
	}
	return nil
}

// Fail records a failed attempt.
func (l *Limiter) Fail(account, client string) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range []string{"a:" + account, "c:" + client} {
		l.fails[k] = append(l.recent(k, now), now)
	}
}

// Succeed clears the account's failures.
func (l *Limiter) Succeed(account string) {
	l.mu.Lock()
	delete(l.fails, "a:"+account)
	l.mu.Unlock()
}

// Take counts one use of key and reports whether it stays within limit uses
// per window; when it does not, the use is not counted and wait says when
// the next one will be allowed.
func (l *Limiter) Take(key string, limit int, window time.Duration) (time.Duration, bool) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	uses := l.fails["u:"+key]
	i := 0
	for i < len(uses) && !now.Before(uses[i].Add(window)) {
		i++
	}
	uses = uses[i:]
	if len(uses) >= limit {
		l.fails["u:"+key] = uses
		return uses[len(uses)-limit].Add(window).Sub(now), false
	}
	l.fails["u:"+key] = append(uses, now)
	return 0, true
}

// recent drops failures older than the window (l.mu held).
func (l *Limiter) recent(key string, now time.Time) []time.Time {
	f := l.fails[key]
	i := 0
	for i < len(f) && !now.Before(f[i].Add(LimitWindow)) {
		i++
	}
	if i == len(f) {
		delete(l.fails, key)
		return nil
	}
	f = f[i:]
	l.fails[key] = f
	return f
}

func (l *Limiter) maybeSweep(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for k, times := range l.fails {
		if strings.HasPrefix(k, "u:") { // Take's windows differ; drop only long-idle keys
			if len(times) == 0 || now.Sub(times[len(times)-1]) > 24*time.Hour {
				delete(l.fails, k)
			}
			continue
		}
		l.recent(k, now)
	}
}

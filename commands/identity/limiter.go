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

// Begin starts a sign-in attempt: it refuses when account or client has
// reached its limit, and otherwise counts the attempt as a failure at once,
// under the same lock, so that concurrent attempts cannot all pass the check
// before any of them fails. Succeed takes the attempt back; a failed attempt
// needs nothing more.
func (l *Limiter) Begin(account, client string) (time.Time, error) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maybeSweep(now)
	keys := []struct {
		key   string
		limit int
		what  string
	}{{"a:" + account, AccountFailureLimit, "this account"}, {"c:" + client, ClientFailureLimit, "this client"}}
	for _, c := range keys {
		f := l.recent(c.key, now)
		if len(f) >= c.limit {
			wait := f[len(f)-c.limit].Add(LimitWindow).Sub(now)
			return now, &Throttled{RetryAfter: wait, Message: fmt.Sprintf("too many failed sign-ins for %s; try again in %d seconds", c.what, int(wait.Seconds())+1)}
		}
	}
	for _, c := range keys {
		l.fails[c.key] = append(l.recent(c.key, now), now)
	}
	return now, nil
}

// Succeed ends a successful attempt begun at: the account's failures are
// cleared and the client's count loses this attempt.
func (l *Limiter) Succeed(account, client string, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, "a:"+account)
	f := l.fails["c:"+client]
	for i := len(f) - 1; i >= 0; i-- {
		if f[i].Equal(at) {
			l.fails["c:"+client] = append(f[:i:i], f[i+1:]...)
			break
		}
	}
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

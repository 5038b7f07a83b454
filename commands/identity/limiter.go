package identity

import (
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/signin"
	"github.com/strata-platform/strata/domain/kernel"
)

// Throttled is a refusal because of too many attempts; RetryAfter says when
// to try again. It is the sign-in throttle's refusal (commands/signin), and
// the refusal of the per-process limits below.
type Throttled = signin.Throttled

// Limiter counts uses of rate-limited commands (forgot-password, temporary
// keys, OAuth client registration) in memory, per process: several processes
// behind a load balancer each count on their own (docs/architecture.md).
// Password sign-in is throttled by commands/signin, in PostgreSQL.
type Limiter struct {
	clock kernel.Clock
	mu    sync.Mutex
	uses  map[string][]time.Time // key -> use times, oldest first
	sweep time.Time
}

// NewLimiter returns an empty limiter.
func NewLimiter(clock kernel.Clock) *Limiter {
	return &Limiter{clock: clock, uses: map[string][]time.Time{}}
}

// Take counts one use of key and reports whether it stays within limit uses
// per window; when it does not, the use is not counted and wait says when
// the next one will be allowed.
func (l *Limiter) Take(key string, limit int, window time.Duration) (time.Duration, bool) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maybeSweep(now)
	uses := l.uses[key]
	i := 0
	for i < len(uses) && !now.Before(uses[i].Add(window)) {
		i++
	}
	uses = uses[i:]
	if len(uses) >= limit {
		l.uses[key] = uses
		return uses[len(uses)-limit].Add(window).Sub(now), false
	}
	l.uses[key] = append(uses, now)
	return 0, true
}

// maybeSweep drops, once a minute, keys unused for a day (l.mu held); every
// window of Take is shorter than that.
func (l *Limiter) maybeSweep(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for k, times := range l.uses {
		if len(times) == 0 || now.Sub(times[len(times)-1]) > 24*time.Hour {
			delete(l.uses, k)
		}
	}
}

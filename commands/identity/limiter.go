package identity

import (
	"context"
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
// keys, OAuth client registration, invitations, checkouts) in sliding
// windows: through a Shared log every process counts against (serve wires
// commands/ratelimit.Uses, in PostgreSQL), or in memory for one process
// (tests; and the fallback while the shared log cannot be reached).
// Password sign-in is throttled by commands/signin, in PostgreSQL.
type Limiter struct {
	clock  kernel.Clock
	shared Shared
	mu     sync.Mutex
	uses   map[string][]time.Time // key -> use times, oldest first
	sweep  time.Time
}

// Shared is a sliding-window log every process counts against.
type Shared interface {
	Take(ctx context.Context, key string, limit int, window time.Duration) (wait time.Duration, ok bool, err error)
}

// sharedTimeout bounds one shared count.
const sharedTimeout = 5 * time.Second

// NewSharedLimiter returns a limiter counting through shared.
func NewSharedLimiter(clock kernel.Clock, shared Shared) *Limiter {
	l := NewLimiter(clock)
	l.shared = shared
	return l
}

// NewLimiter returns an empty limiter.
func NewLimiter(clock kernel.Clock) *Limiter {
	return &Limiter{clock: clock, uses: map[string][]time.Time{}}
}

// Take counts one use of key and reports whether it stays within limit uses
// per window; when it does not, the use is not counted and wait says when
// the next one will be allowed.
func (l *Limiter) Take(key string, limit int, window time.Duration) (time.Duration, bool) {
	if l.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		defer cancel()
		if wait, ok, err := l.shared.Take(ctx, key, limit, window); err == nil {
			return wait, ok
		}
		// The shared log is out of reach: count in this process rather
		// than let every use through.
	}
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

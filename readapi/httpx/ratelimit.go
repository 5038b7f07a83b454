package httpx

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// WindowLimiter counts requests per key in fixed one-minute windows: in
// memory (each process on its own: tests, one node), or through a Shared
// counter every process uses (commands/ratelimit: PostgreSQL), which is
// what serve wires (ARCHITECTURE.md section 10). The hackathon and voice
// surfaces use it. It is safe for concurrent use.
type WindowLimiter struct {
	perMinute int
	now       func() time.Time
	shared    Shared
	mu        sync.Mutex
	start     time.Time
	counts    map[string]int
}

// Shared counts a key's requests in the current one-minute window for
// every process: it counts one request (not beyond the limit) and says
// whether it is allowed, how many remain, when the window ends and, when
// refused, how long until then.
type Shared interface {
	TakeMinute(ctx context.Context, key string, perMinute int) (allowed bool, remaining int, reset time.Time, retryAfter time.Duration, err error)
}

// NewWindowLimiter returns a limiter of perMinute requests per key and
// minute; now is its clock (time.Now when nil).
func NewWindowLimiter(perMinute int, now func() time.Time) *WindowLimiter {
	if now == nil {
		now = time.Now
	}
	return &WindowLimiter{perMinute: perMinute, now: now, counts: map[string]int{}}
}

// NewSharedWindowLimiter returns a limiter of perMinute requests per key
// and minute counted by shared, for every process at once.
func NewSharedWindowLimiter(perMinute int, shared Shared) *WindowLimiter {
	l := NewWindowLimiter(perMinute, nil)
	l.shared = shared
	return l
}

// PerMinute is the limit.
func (l *WindowLimiter) PerMinute() int { return l.perMinute }

// Take counts one request of key, sets X-RateLimit-Limit, -Remaining and
// -Reset (Unix seconds), and refuses it over the limit: a rate-limited
// error (429 with Retry-After until the window ends) saying who is
// limited ("per user", "per tenant").
func (l *WindowLimiter) Take(ctx context.Context, w http.ResponseWriter, key, per string) error {
	var allowed bool
	var remaining int
	var reset time.Time
	var retry time.Duration
	if l.shared != nil {
		var err error
		if allowed, remaining, reset, retry, err = l.shared.TakeMinute(ctx, key, l.perMinute); err != nil {
			return err
		}
	} else {
		now := l.now()
		start := now.Truncate(time.Minute)
		l.mu.Lock()
		if !start.Equal(l.start) {
			l.start, l.counts = start, map[string]int{}
		}
		n := l.counts[key] + 1
		if n <= l.perMinute {
			l.counts[key] = n
		}
		l.mu.Unlock()
		reset = start.Add(time.Minute)
		allowed, remaining, retry = n <= l.perMinute, max(0, l.perMinute-n), max(time.Second, reset.Sub(now))
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.perMinute))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	if !allowed {
		return RateLimited("rate limit exceeded: "+strconv.Itoa(l.perMinute)+" requests a minute "+per, retry)
	}
	return nil
}

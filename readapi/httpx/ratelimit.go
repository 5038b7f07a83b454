package httpx

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// WindowLimiter counts requests per key in fixed one-minute windows, in
// memory: several processes behind a load balancer each count on their own
// (docs/architecture.md). The hackathon and voice surfaces use it. It is
// safe for concurrent use.
type WindowLimiter struct {
	perMinute int
	now       func() time.Time
	mu        sync.Mutex
	start     time.Time
	counts    map[string]int
}

// NewWindowLimiter returns a limiter of perMinute requests per key and
// minute; now is its clock (time.Now when nil).
func NewWindowLimiter(perMinute int, now func() time.Time) *WindowLimiter {
	if now == nil {
		now = time.Now
	}
	return &WindowLimiter{perMinute: perMinute, now: now, counts: map[string]int{}}
}

// PerMinute is the limit.
func (l *WindowLimiter) PerMinute() int { return l.perMinute }

// Take counts one request of key, sets X-RateLimit-Limit, -Remaining and
// -Reset (Unix seconds), and refuses it over the limit: a rate-limited
// error (429 with Retry-After until the window ends) saying who is
// limited ("per user", "per tenant").
func (l *WindowLimiter) Take(w http.ResponseWriter, key, per string) error {
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
	reset := start.Add(time.Minute)
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.perMinute))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, l.perMinute-n)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	if n > l.perMinute {
		return RateLimited("rate limit exceeded: "+strconv.Itoa(l.perMinute)+" requests a minute "+per, max(time.Second, reset.Sub(now)))
	}
	return nil
}

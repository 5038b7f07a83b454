package hackathon

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/readapi/httpx"
)

// DefaultRate is the hackathon surface's rate limit: requests per minute
// per signed-in user, counted per process in fixed one-minute windows.
const DefaultRate = 300

// Limiter counts requests per key in fixed one-minute windows, in memory:
// several processes behind a load balancer each count on their own
// (docs/architecture.md). It is safe for concurrent use.
type Limiter struct {
	perMinute int
	now       func() time.Time
	mu        sync.Mutex
	start     time.Time
	counts    map[string]int
}

// NewLimiter returns a limiter of perMinute requests per key and minute;
// now is its clock (time.Now when nil).
func NewLimiter(perMinute int, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{perMinute: perMinute, now: now, counts: map[string]int{}}
}

// take counts one request of key, sets X-RateLimit-Limit, -Remaining and
// -Reset (Unix seconds), and refuses it over the limit (429 with
// Retry-After until the window ends).
func (l *Limiter) take(w http.ResponseWriter, key string) error {
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
		return httpx.RateLimited("rate limit exceeded: "+strconv.Itoa(l.perMinute)+" requests a minute per user", max(time.Second, reset.Sub(now)))
	}
	return nil
}

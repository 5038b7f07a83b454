package hackathon

import (
	"net/http"
	"time"

	"github.com/strata-platform/strata/readapi/httpx"
)

// DefaultRate is the hackathon surface's rate limit: requests per minute
// per signed-in user, in fixed one-minute windows (serve counts them in
// PostgreSQL for every process).
const DefaultRate = 300

// Limiter is the hackathon surface's rate limiter (httpx.WindowLimiter).
type Limiter = httpx.WindowLimiter

// NewLimiter returns a limiter of perMinute requests per user and minute;
// now is its clock (time.Now when nil).
func NewLimiter(perMinute int, now func() time.Time) *Limiter {
	return httpx.NewWindowLimiter(perMinute, now)
}

// take counts one request of key against l.
func take(r *http.Request, l *Limiter, w http.ResponseWriter, key string) error {
	return l.Take(r.Context(), w, key, "per user")
}

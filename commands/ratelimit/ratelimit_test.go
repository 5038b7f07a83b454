package ratelimit_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/httpx"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Two limiters (two processes) on one database share a key's minute:
// exactly the limit is allowed however the requests are spread, the
// refusals say until when, and the next minute starts afresh.
func TestLimitIsSharedAcrossProcesses(t *testing.T) {
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 27, 10, 0, 15, 0, time.UTC))
	a, b := ratelimit.New(db.SQL, clock), ratelimit.New(db.SQL, clock)
	var mu sync.Mutex
	allowed, refused := 0, 0
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := a
			if i%2 == 1 {
				l = b
			}
			d, err := l.Take(context.Background(), "audit.quick:203.0.113.9", 20)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if d.Allowed {
				allowed++
			} else {
				refused++
				if d.RetryAfter != 45*time.Second || d.Remaining != 0 {
					t.Errorf("refusal: %+v", d)
				}
			}
		}()
	}
	wg.Wait()
	if allowed != 20 || refused != 30 {
		t.Fatalf("allowed %d refused %d, want 20 and 30", allowed, refused)
	}
	if d, _ := a.Take(context.Background(), "audit.quick:198.51.100.1", 20); !d.Allowed || d.Remaining != 19 {
		t.Errorf("another key: %+v", d)
	}
	clock.Advance(time.Minute)
	if d, _ := b.Take(context.Background(), "audit.quick:203.0.113.9", 20); !d.Allowed || d.Remaining != 19 {
		t.Errorf("the next minute: %+v", d)
	}
}

// The surfaces' limiter (httpx.WindowLimiter) counts through the shared
// limiter when serve wires it so: two processes' limiters, one budget;
// the headers and the 429's Retry-After come from the shared window.
func TestSurfaceLimiterIsShared(t *testing.T) {
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 27, 10, 0, 50, 0, time.UTC))
	a := httpx.NewSharedWindowLimiter(3, ratelimit.New(db.SQL, clock))
	b := httpx.NewSharedWindowLimiter(3, ratelimit.New(db.SQL, clock))
	for i, l := range []*httpx.WindowLimiter{a, b, a} {
		rec := httptest.NewRecorder()
		if err := l.Take(context.Background(), rec, "tenant:acme", "per tenant"); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got := rec.Header().Get("X-RateLimit-Remaining"); got != strconv.Itoa(2-i) {
			t.Errorf("request %d: remaining %s", i, got)
		}
	}
	rec := httptest.NewRecorder()
	err := b.Take(context.Background(), rec, "tenant:acme", "per tenant")
	var ra *httpx.RetryAfter
	if !errors.As(err, &ra) || ra.After != 10*time.Second || rec.Header().Get("X-RateLimit-Reset") != strconv.FormatInt(time.Date(2026, 11, 27, 10, 1, 0, 0, time.UTC).Unix(), 10) {
		t.Fatalf("the fourth request across two processes: %v %v", err, rec.Header())
	}
}

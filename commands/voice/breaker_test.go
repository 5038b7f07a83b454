package voice

import (
	"errors"
	"testing"
	"time"
)

func TestBreakerOpensAfterFailuresAndHalfOpensAfterCooldown(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	b := NewBreaker(BreakerConfig{Failures: 3, Cooldown: 30 * time.Second, Now: func() time.Time { return now }})
	boom := errors.New("no answer")
	for i := range 2 {
		b.Failure(boom)
		if !b.Allow() {
			t.Fatalf("open after %d failures", i+1)
		}
	}
	b.Failure(boom)
	if b.Allow() {
		t.Fatal("closed after 3 consecutive failures")
	}
	if st, last := b.State(); st != BreakerOpen || last != "no answer" {
		t.Fatalf("state %s %q", st, last)
	}
	now = now.Add(29 * time.Second)
	if b.Allow() {
		t.Fatal("half-open before the cooldown")
	}
	now = now.Add(time.Second)
	if !b.Allow() {
		t.Fatal("no trial after the cooldown")
	}
	b.Failure(boom) // the trial failed: open again at once
	if b.Allow() {
		t.Fatal("a failed trial left it half-open")
	}
	now = now.Add(30 * time.Second)
	b.Allow()
	b.Success()
	if st, _ := b.State(); st != BreakerClosed || !b.Allow() {
		t.Fatalf("a good trial did not close it: %s", st)
	}
}

func TestBreakerTripsOnAFailedPing(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	b := NewBreaker(BreakerConfig{Now: func() time.Time { return now }})
	b.Trip(errors.New("OPTIONS timed out"))
	if b.Allow() {
		t.Fatal("a failed ping left the breaker closed")
	}
	b.Success()
	if !b.Allow() {
		t.Fatal("a good ping did not close it")
	}
}

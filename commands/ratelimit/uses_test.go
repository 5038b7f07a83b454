package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// Two counters (two processes) on one database share a key's sliding
// window: exactly the limit is allowed however the uses are spread, a
// refusal says when the oldest counted use leaves the window, and uses
// leave it one by one (a sliding window, not a fixed one).
func TestUsesAreSharedAcrossProcessesInASlidingWindow(t *testing.T) {
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC))
	a, b := ratelimit.NewUses(db.SQL, clock), ratelimit.NewUses(db.SQL, clock)
	ctx := context.Background()
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := a
			if i%2 == 1 {
				u = b
			}
			_, ok, err := u.Take(ctx, "tmp:203.0.113.9", 3, time.Hour)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 3 {
		t.Fatalf("%d uses allowed, want 3", allowed)
	}
	clock.Advance(20 * time.Minute)
	if _, ok, _ := a.Take(ctx, "tmp:203.0.198.51", 3, time.Hour); !ok {
		t.Fatal("another key is refused")
	}
	wait, ok, err := b.Take(ctx, "tmp:203.0.113.9", 3, time.Hour)
	if err != nil || ok || wait != 40*time.Minute {
		t.Fatalf("a fourth use 20 minutes later: wait %s ok %v err %v, want refused for 40m", wait, ok, err)
	}
	clock.Advance(40 * time.Minute)
	if _, ok, _ := a.Take(ctx, "tmp:203.0.113.9", 3, time.Hour); !ok {
		t.Fatal("refused once the first uses left the window")
	}
	if _, _, err := a.Take(ctx, "k", 1, 25*time.Hour); err == nil {
		t.Fatal("a window longer than a day is served")
	}
}

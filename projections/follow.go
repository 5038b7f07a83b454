package projections

import (
	"context"
	"time"
)

// Follow runs catchUp until ctx ends: at once, whenever wake delivers (a
// commit in any process; armed before each catch-up, so a commit during it
// wakes the next one), at most once per minInterval after a wake-up, and
// at least every poll interval. A failed catch-up goes to onErr and is
// tried again at the next wake-up or poll. The in-memory views that tail
// the store (the gateway's catalog and credits) share this loop.
func Follow(ctx context.Context, wake func() <-chan struct{}, poll, minInterval time.Duration,
	catchUp func(context.Context) error, onErr func(error)) {
	for {
		var w <-chan struct{}
		if wake != nil {
			w = wake()
		}
		last := time.Now()
		if err := catchUp(ctx); err != nil && ctx.Err() == nil {
			onErr(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-w:
			if minInterval > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Until(last.Add(minInterval))):
				}
			}
		case <-time.After(poll):
		}
	}
}

package storebench

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// outcome is what a driven workload did.
type outcome struct {
	ops  int64         // operations completed
	wall time.Duration // from the start until the last client stopped
	lat  durations     // each operation's duration
}

func (o outcome) rate(perOp int) float64 { return rate(o.ops*int64(perOp), o.wall) }

// drive runs op from clients goroutines until d has passed (d > 0) or, with
// d == 0, until total operations have been handed out. op gets the client
// number and a sequence number unique in this call. The first error stops
// every client and is returned.
func drive(ctx context.Context, clients int, d time.Duration, total int64, op func(ctx context.Context, client int, seq int64) error) (outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		mu      sync.Mutex
		lat     durations
		firstEr error
	)
	start := time.Now()
	deadline := start.Add(d)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make(durations, 0, 1024)
			defer func() { mu.Lock(); lat = append(lat, mine...); mu.Unlock() }()
			for ctx.Err() == nil {
				if d > 0 && time.Now().After(deadline) {
					return
				}
				seq := next.Add(1) - 1
				if d == 0 && seq >= total {
					return
				}
				t0 := time.Now()
				if err := op(ctx, c, seq); err != nil {
					mu.Lock()
					if firstEr == nil {
						firstEr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				mine = append(mine, time.Since(t0))
			}
		}()
	}
	wg.Wait()
	out := outcome{ops: int64(len(lat)), wall: time.Since(start), lat: lat}
	if firstEr == nil {
		firstEr = ctx.Err()
	}
	return out, firstEr
}

// pace runs op from workers goroutines at rate operations per second until
// ctx ends; it returns how many operations completed and the first error.
func pace(ctx context.Context, workers, perSecond int, op func(ctx context.Context, seq int64) error) (int64, error) {
	var (
		next, done atomic.Int64
		wg         sync.WaitGroup
		once       sync.Once
		firstErr   error
	)
	start := time.Now()
	interval := time.Second / time.Duration(perSecond)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				seq := next.Add(1) - 1
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Until(start.Add(time.Duration(seq) * interval))):
				}
				if err := op(ctx, seq); err != nil {
					if ctx.Err() == nil {
						once.Do(func() { firstErr = err })
					}
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return done.Load(), firstErr
}

package memorybench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// Remember targets.
const (
	rememberP95Ms = 30
	rememberRate  = 500
)

// load is what concurrent writers achieved.
type load struct {
	lat     []time.Duration
	elapsed time.Duration
}

func (l load) rate() float64 { return float64(len(l.lat)) / l.elapsed.Seconds() }

// drive runs do with writers concurrent writers for d, each call with a
// new number n, and returns every call's latency.
func drive(writers int, d time.Duration, do func(n int) error) (load, error) {
	var next atomic.Int64
	lats := make([][]time.Duration, writers)
	errs := make([]error, writers)
	begin := time.Now()
	deadline := begin.Add(d)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				n := int(next.Add(1)) - 1
				t0 := time.Now()
				if err := do(n); err != nil {
					errs[w] = err
					return
				}
				lats[w] = append(lats[w], time.Since(t0))
			}
		})
	}
	wg.Wait()
	out := load{elapsed: time.Since(begin)}
	for _, l := range lats {
		out.lat = append(out.lat, l...)
	}
	return out, errors.Join(errs...)
}

// writes measures remember under o.Writers concurrent writers for
// o.WriteDuration, each write a new memory (an original corpus memory
// stating no fact, with a counter appended so that no write is a
// near-duplicate of another), through the command service with
// read-your-writes, next to plain appends of one event of the same sealed
// size to a new stream for as long.
func (b *bench) writes(ctx context.Context) ([]Figure, error) {
	var src []int
	for i, m := range b.c.Memories {
		if m.DuplicateOf == "" && m.Fact == nil {
			src = append(src, i)
		}
	}
	input := func(n int) memory.RememberInput {
		in := b.input(src[n%len(src)])
		in.Content = fmt.Sprintf("%s (follow-up %d)", in.Content, n+1)
		in.At = time.Time{} // now
		return in
	}
	ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: benchUser})
	o := b.o
	o.Logf("baseline: plain appends of one sealed memory, %d writers for %s ...", o.Writers, o.WriteDuration)
	base, err := drive(o.Writers, o.WriteDuration, func(n int) error {
		ev, err := b.seal(input(n))
		if err != nil {
			return err
		}
		stream := eventstore.Stream{Type: baselineStream, ID: "write-" + uuid.Must(uuid.NewV7()).String()}
		_, err = b.store.Append(ctx, stream, eventstore.NoStream, ev)
		return err
	})
	if err != nil {
		return nil, err
	}
	o.Logf("remember, %d writers for %s ...", o.Writers, o.WriteDuration)
	var merged atomic.Int64
	ours, err := drive(o.Writers, o.WriteDuration, func(n int) error {
		r, err := b.svc.Remember(ctx, benchUser, input(n))
		if r.Merged {
			merged.Add(1)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	q := identitybench.Quantile
	o.Logf("  remember %.0f/s, p50 %.2f p95 %.2f p99 %.2f ms (%d merged); append %.0f/s, p50 %.2f p95 %.2f ms",
		ours.rate(), q(ours.lat, .5), q(ours.lat, .95), q(ours.lat, .99), merged.Load(), base.rate(),
		q(base.lat, .5), q(base.lat, .95))
	name := fmt.Sprintf("remember, %d writers, read-your-writes", o.Writers)
	return []Figure{
		{Name: name + " (rate)", Unit: UnitMemS, Ours: ours.rate(), Baseline: base.rate(), HasBaseline: true,
			Target: AtLeast(rememberRate), Samples: len(ours.lat)},
		{Name: name + " p50", Unit: UnitMs, Ours: q(ours.lat, .5), Baseline: q(base.lat, .5), HasBaseline: true,
			Samples: len(ours.lat)},
		{Name: name + " p95", Unit: UnitMs, Ours: q(ours.lat, .95), Baseline: q(base.lat, .95), HasBaseline: true,
			Target: AtMost(rememberP95Ms), Samples: len(ours.lat)},
	}, nil
}

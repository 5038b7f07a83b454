package storebench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// liveRun is a projections.Runner running with its LISTEN connection.
type liveRun struct {
	runner *projections.Runner
	stop   func()
}

func (b *bench) startLive(ctx context.Context, p projections.Projector) (*liveRun, error) {
	wake := projections.NewSignal()
	r, err := projections.NewRunner(b.db, b.reg, wake, b.log, projections.Config{}, p)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); projections.Listen(ctx, b.o.URL, wake, b.log) }()
	go func() { defer wg.Done(); r.Run(ctx) }()
	return &liveRun{runner: r, stop: func() { cancel(); wg.Wait() }}, nil
}

// lastKey returns the key of the store's last event in consumption order.
func (b *bench) lastKey(ctx context.Context) (eventstore.Key, error) {
	var k eventstore.Key
	err := b.db.QueryRowContext(ctx, `SELECT transaction_id::text::bigint, position FROM es.events
		ORDER BY transaction_id DESC, position DESC LIMIT 1`).Scan(&k.TransactionID, &k.Position)
	return k, err
}

// catchUp places p's checkpoint LiveEvents events before the end of the
// store, starts a runner and times until p's checkpoint passes the last
// event. It returns the running runner (the caller stops it) and the rate.
func (b *bench) catchUp(ctx context.Context, p projections.Projector) (*liveRun, float64, error) {
	total, err := b.storeSize(ctx)
	if err != nil {
		return nil, 0, err
	}
	if err := b.placeCheckpoint(ctx, p.Name(), total-int64(b.o.LiveEvents)); err != nil {
		return nil, 0, err
	}
	last, err := b.lastKey(ctx)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	run, err := b.startLive(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	if err := projections.WaitFor(ctx, b.db, run.runner.Progress(), last, p.Name()); err != nil {
		run.stop()
		return nil, 0, fmt.Errorf("catch up %s: %w", p.Name(), err)
	}
	d := time.Since(start)
	b.progress("  live catch-up, %s: %d events in %s", p.Name(), b.o.LiveEvents, d.Round(time.Millisecond))
	return run, rate(int64(b.o.LiveEvents), d), nil
}

// live measures the live catch-up rate of a no-op and of the counter
// projector, then, with the counter's runner live, commit-to-visible
// latency idle and under a background load.
func (b *bench) live(ctx context.Context) ([]Figure, error) {
	n := noop{name: "bench.live_noop.v1"}
	if _, err := b.createReadModel(ctx, n.name, true); err != nil {
		return nil, err
	}
	run, noopRate, err := b.catchUp(ctx, n)
	if err != nil {
		return nil, err
	}
	run.stop()
	c := counter{name: "bench.live_counter.v1"}
	schema, err := b.createReadModel(ctx, c.Name(), false)
	if err != nil {
		return nil, err
	}
	run, counterRate, err := b.catchUp(ctx, c)
	if err != nil {
		return nil, err
	}
	defer run.stop()
	name := fmt.Sprintf("live catch-up, %%s projector, %d events", b.o.LiveEvents)
	figs := []Figure{
		{Name: fmt.Sprintf(name, "counter"), Unit: UnitRate, Ours: counterRate, Target: Target{Min: 30_000}, Samples: b.o.LiveEvents},
		{Name: fmt.Sprintf(name, "no-op"), Unit: UnitRate, Ours: noopRate, Samples: b.o.LiveEvents},
	}
	v := &visibility{b: b, run: run, projector: c.Name(), table: schema + ".counters"}
	idle, err := v.sample(ctx, "visible-idle")
	if err != nil {
		return nil, err
	}
	loaded, achieved, err := v.underLoad(ctx)
	if err != nil {
		return nil, err
	}
	b.progress("  commit-to-visible: idle p50 %.1f ms p99 %.1f ms; under %.0f ev/s p50 %.1f ms p99 %.1f ms",
		idle.quantile(0.5), idle.quantile(0.99), achieved, loaded.quantile(0.5), loaded.quantile(0.99))
	load := fmt.Sprintf("%d ev/s load", b.o.LoadRate)
	return append(figs,
		Figure{Name: "commit-to-visible p50, idle", Unit: UnitMs, Ours: idle.quantile(0.5), Target: Target{Max: 10}, Samples: len(idle)},
		Figure{Name: "commit-to-visible p99, idle", Unit: UnitMs, Ours: idle.quantile(0.99), Target: Target{Max: 50}, Samples: len(idle)},
		Figure{Name: "commit-to-visible p50, " + load, Unit: UnitMs, Ours: loaded.quantile(0.5), Samples: len(loaded)},
		Figure{Name: "commit-to-visible p99, " + load, Unit: UnitMs, Ours: loaded.quantile(0.99), Target: Target{Max: 100}, Samples: len(loaded)},
	), nil
}

// visibility measures how long after an append's commit a reader sees the
// event in the counter's read model.
type visibility struct {
	b         *bench
	run       *liveRun
	projector string
	table     string
}

// sample appends one event at a time to a new stream, after a random idle
// gap, and times from Append's return (the commit) until the stream's counter
// in the read model shows it: WaitFor on the projector's checkpoint (woken by
// the runner's progress signal), then a read of the read-model row, polled
// until it shows the event.
func (v *visibility) sample(ctx context.Context, stream string) (durations, error) {
	var out durations
	var version int64
	for range v.b.o.LatencySamples {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(v.b.o.LatencyGap)):
		}
		a, err := v.b.store.Append(ctx, eventstore.Stream{Type: oursStreamType, ID: stream}, version, Tick{N: int(version)})
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		version = a.ToVersion
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = projections.WaitFor(wctx, v.b.db, v.run.runner.Progress(), a.Last, v.projector)
		for err == nil {
			var seen int64
			if err = v.b.db.QueryRowContext(wctx, `SELECT coalesce(max(events), 0) FROM `+v.table+` WHERE stream_id = $1`, stream).Scan(&seen); err != nil || seen >= version {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
		if err != nil {
			return nil, fmt.Errorf("wait for the read model: %w", err)
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}

// underLoad samples while 8 workers make LoadRate single-event appends per
// second (each to a new stream); it returns the samples and the achieved rate.
func (v *visibility) underLoad(ctx context.Context) (durations, float64, error) {
	lctx, stop := context.WithCancel(ctx)
	type result struct {
		n   int64
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		n, err := pace(lctx, 8, v.b.o.LoadRate, func(ctx context.Context, seq int64) error {
			return v.b.oursAppend(ctx, "load-"+strconv.FormatInt(seq, 10), 0, 1, seq)
		})
		done <- result{n, err}
	}()
	time.Sleep(200 * time.Millisecond) // let the load settle
	d, err := v.sample(ctx, "visible-loaded")
	stop()
	res := <-done
	elapsed := time.Since(start)
	if err == nil {
		err = res.err
	}
	return d, rate(res.n, elapsed), err
}

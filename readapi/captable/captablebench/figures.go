package captablebench

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/waterfall"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Units of the figures.
const (
	unitMs   = "ms"
	unitRate = "req/s"
)

// Targets of the issue, and the exit values of the waterfall figures.
const (
	capTableP95Ms    = 50
	replayMs         = 1000
	waterfallMs      = 5
	waterfallExit    = 150_000_000
	waterfallMaxExit = 1_000_000_000
)

// replays measures the as-of replay of the whole stream (Service.Replay to
// the bench's day, then Company.Summary: GET /cap-table?asOfDate=) against
// loading the same stream from the store (eventstore Load: read, upcast,
// decode; no fold), alternating, and reports a raw scan of the stream's
// payloads (no decoding) for reference.
func (s *server) replays(ctx context.Context, co *company) ([]storebench.Figure, error) {
	o := s.o
	o.Logf("as-of replay of %d events, %d runs ...", co.events, o.ReplayRuns)
	if err := s.replay(ctx, co); err != nil { // warm-up: the process's heap grows to a replay's size once
		return nil, err
	}
	var base, ours, raw []time.Duration
	for range o.ReplayRuns {
		d, err := timed(func() error {
			envs, err := s.store.Load(ctx, co.id, eventstore.LoadOptions{})
			if err == nil && len(envs) != co.events {
				err = fmt.Errorf("load: %d events, want %d", len(envs), co.events)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		base = append(base, d)
		if d, err = timed(func() error { return s.replay(ctx, co) }); err != nil {
			return nil, err
		}
		ours = append(ours, d)
		if d, err = timed(func() error { return s.scan(ctx, co) }); err != nil {
			return nil, err
		}
		raw = append(raw, d)
	}
	med, top := func(d []time.Duration) float64 { return quantile(d, .5) }, func(d []time.Duration) float64 { return quantile(d, 1) }
	o.Logf("  replay + summary median %.0f ms (max %.0f); load median %.0f ms (max %.0f); raw scan median %.0f ms",
		med(ours), top(ours), med(base), top(base), med(raw))
	name := func(what string) string {
		return fmt.Sprintf("as-of replay + summary, %s events (%s)", thousands(co.events), what)
	}
	return []storebench.Figure{
		{Name: name("median"), Unit: unitMs, Ours: med(ours), Baseline: med(base), Target: storebench.Target{Max: replayMs}, Samples: len(ours)},
		{Name: name("max"), Unit: unitMs, Ours: top(ours), Baseline: top(base), Target: storebench.Target{Max: replayMs}, Samples: len(ours)},
		{Name: "raw SQL scan of the stream's payloads (median)", Unit: unitMs, Ours: med(raw), Baseline: med(raw), Reference: true, Samples: len(raw)},
	}, nil
}

// replay is what GET /cap-table?asOfDate= computes: the fold of the store
// as of the day, then its summary. It checks the summary against the seed's.
func (s *server) replay(ctx context.Context, co *company) error {
	c, err := s.svc.Replay(ctx, co.id, co.today, time.Time{})
	if err != nil {
		return err
	}
	if sum := c.Summary(co.today); !sum.FullyDiluted.Equal(co.summary.FullyDiluted) || len(sum.Holders) != len(co.summary.Holders) {
		return fmt.Errorf("replay: fully diluted %s, %d holders; want %s, %d", sum.FullyDiluted, len(sum.Holders),
			co.summary.FullyDiluted, len(co.summary.Holders))
	}
	return nil
}

// scan reads the stream's payloads with plain SQL, without decoding them.
func (s *server) scan(ctx context.Context, co *company) error {
	rows, err := s.db.QueryContext(ctx, `SELECT payload FROM es.events WHERE stream_id = $1 ORDER BY stream_version`, co.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var payload []byte
		if err := rows.Scan(&payload); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != co.events {
		return fmt.Errorf("scan: %d events, want %d", n, co.events)
	}
	return nil
}

// waterfalls measures the exit waterfall of waterfall.Sample10 (ten
// classes: two common, eight preferred in three seniority tiers with
// participation and caps; five award strikes) at a $150M exit with every
// breakpoint up to $1B (waterfall.Run and waterfall.Breakpoints), against
// waterfall.Run alone on the same table, in alternating blocks.
func (s *server) waterfalls(context.Context, *company) ([]storebench.Figure, error) {
	o := s.o
	in, maxExit := waterfall.Sample10(num.Int(waterfallExit)), num.Int(waterfallMaxExit)
	bps, err := waterfall.Breakpoints(in, maxExit)
	if err != nil {
		return nil, err
	}
	o.Logf("waterfall of 10 classes with %d breakpoints, %d runs ...", len(bps), o.WaterfallRuns)
	run := func() error { _, err := waterfall.Run(in); return err }
	both := func() error {
		if err := run(); err != nil {
			return err
		}
		_, err := waterfall.Breakpoints(in, maxExit)
		return err
	}
	var base, ours []time.Duration
	block := max(1, o.WaterfallRuns/4)
	for len(ours) < o.WaterfallRuns {
		for _, side := range []struct {
			op  func() error
			out *[]time.Duration
		}{{run, &base}, {both, &ours}} {
			runtime.GC() // per block, not per run: a run's garbage is part of its cost
			for range block {
				t0 := time.Now()
				if err := side.op(); err != nil {
					return nil, err
				}
				*side.out = append(*side.out, time.Since(t0))
			}
		}
	}
	o.Logf("  run + breakpoints mean %.3f ms (p99 %.3f); run alone mean %.3f ms (p99 %.3f)",
		mean(ours), quantile(ours, .99), mean(base), quantile(base, .99))
	name := func(what string) string {
		return fmt.Sprintf("waterfall, 10 classes + %d breakpoints to $1B (%s)", len(bps), what)
	}
	return []storebench.Figure{
		{Name: name("mean"), Unit: unitMs, Ours: mean(ours), Baseline: mean(base), Target: storebench.Target{Max: waterfallMs}, Samples: len(ours)},
		{Name: name("p99"), Unit: unitMs, Ours: quantile(ours, .99), Baseline: quantile(base, .99), Samples: len(ours)},
	}, nil
}

// timed runs op after a garbage collection (so that one side's garbage is
// not collected on the other's time) and returns how long op took.
func timed(op func() error) (time.Duration, error) {
	runtime.GC()
	t0 := time.Now()
	err := op()
	return time.Since(t0), err
}

// quantile returns the q-quantile (nearest rank; 1 is the maximum) of d
// in milliseconds.
func quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := min(len(s)-1, max(0, int(q*float64(len(s))+0.999999)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

// mean returns the mean of d in milliseconds.
func mean(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return float64(sum) / float64(len(d)) / float64(time.Millisecond)
}

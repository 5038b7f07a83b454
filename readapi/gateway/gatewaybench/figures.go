package gatewaybench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// Targets of the issue.
const (
	addedP99Ms    = 1.0 // added latency, TTFT and inter-delta gap at the p99
	throughputMin = 0.6 // of the direct throughput
)

const unitRate = "req/s"

var clientFormats = []string{formatMessages, formatOpenAI}

// quantile is the q-quantile of d in milliseconds (nearest rank).
func quantile(d []time.Duration, q float64) float64 { return identitybench.Quantile(d, q) }

// latency measures, for each client format through an upstream of format
// up, a reply's latency and a stream's time to first token at
// concurrency 1: o.Pairs pairs of one direct request and one through the
// gateway, the pair's order alternating.
func (b *bench) latency(up string) func(context.Context) ([]storebench.Figure, error) {
	return func(ctx context.Context) ([]storebench.Figure, error) {
		o := b.o
		var figs []storebench.Figure
		for _, stream := range []bool{false, true} {
			for _, client := range clientFormats {
				gr := route{client: client, upstream: up}
				what := "reply"
				if stream {
					what = "TTFT"
				}
				o.Logf("%s %s, 1 client: %d pairs ...", gr.name(), what, o.Pairs)
				pair := [2]call{b.call(route{client: client, upstream: up, direct: true}, stream, false), b.call(gr, stream, false)}
				direct, ours, diffs, err := b.pairs(ctx, pair)
				if err != nil {
					return nil, err
				}
				o.Logf("  gateway p50 %.3f p99 %.3f ms, direct p50 %.3f p99 %.3f ms; paired difference p50 %.3f ms",
					quantile(ours, .5), quantile(ours, .99), quantile(direct, .5), quantile(direct, .99), medianMs(diffs))
				figs = append(figs, storebench.Figure{Name: fmt.Sprintf("%s added p99, 1 client (%s)", what, gr.name()),
					Unit: storebench.UnitMs, Ours: quantile(ours, .99) - quantile(direct, .99), Baseline: quantile(direct, .99),
					Target: storebench.Target{Max: addedP99Ms}, Samples: len(ours)})
			}
		}
		return figs, nil
	}
}

// pairs sends o.Warmup requests of each side, then o.Pairs pairs of one
// request of each, the order alternating: direct first in even pairs, the
// other side first in odd ones. It returns each side's latencies (to the
// first delta of a stream) and the per-pair differences (second side less
// the direct one).
func (b *bench) pairs(ctx context.Context, pair [2]call) (direct, other, diffs []time.Duration, err error) {
	o := b.o
	for range o.Warmup {
		for _, c := range pair {
			if _, err := b.do(ctx, c, false); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	lat := [2][]time.Duration{make([]time.Duration, 0, o.Pairs), make([]time.Duration, 0, o.Pairs)}
	diffs = make([]time.Duration, 0, o.Pairs)
	for i := range o.Pairs {
		var got [2]time.Duration
		for k := range 2 {
			side := k ^ (i & 1)
			out, err := b.do(ctx, pair[side], false)
			if err != nil {
				return nil, nil, nil, err
			}
			got[side] = out.first
		}
		lat[0], lat[1] = append(lat[0], got[0]), append(lat[1], got[1])
		diffs = append(diffs, got[1]-got[0])
	}
	return lat[0], lat[1], diffs, nil
}

// commits measures Gateway.Commit o.Pairs/4 times at concurrency 1 (none
// without it): a reference, the commit (with its WAL flush, unless the
// server runs with fsync or synchronous_commit off) a reply waits for.
func (b *bench) commits(ctx context.Context) ([]storebench.Figure, error) {
	if b.gw.Commit == nil {
		return nil, nil
	}
	n := max(b.o.Pairs/4, 10)
	b.o.Logf("PostgreSQL one-row INSERT commits, 1 client: %d ...", n)
	lat := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if err := b.gw.Commit(ctx); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(start))
	}
	b.o.Logf("  p50 %.3f p99 %.3f ms", quantile(lat, .5), quantile(lat, .99))
	return []storebench.Figure{{Name: "PostgreSQL one-row INSERT commit p99, 1 client (reference)", Unit: storebench.UnitMs,
		Baseline: quantile(lat, .99), Reference: true, Samples: n}}, nil
}

// medianMs is the median of d (which may be negative) in milliseconds.
func medianMs(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}

// throughput measures replies per second from o.Clients keep-alive
// clients, direct and through the gateway to an upstream of format up, in
// alternating rounds of o.Round after a warm-up of each; any failed
// request fails the run.
func (b *bench) throughput(up string) func(context.Context) ([]storebench.Figure, error) {
	return func(ctx context.Context) ([]storebench.Figure, error) {
		o := b.o
		var figs []storebench.Figure
		for _, client := range clientFormats {
			gr := route{client: client, upstream: up}
			sides := [2]call{b.call(route{client: client, upstream: up, direct: true}, false, false), b.call(gr, false, false)}
			o.Logf("%s throughput, %d clients: %d rounds of %s per side ...", gr.name(), o.Clients, o.Rounds, o.Round)
			direct, ours, n, err := b.rounds(ctx, sides)
			if err != nil {
				return nil, err
			}
			o.Logf("  gateway %.0f req/s, direct %.0f req/s (%.2f)", ours, direct, ours/direct)
			figs = append(figs, storebench.Figure{Name: fmt.Sprintf("throughput, %d clients (%s)", o.Clients, gr.name()),
				Unit: unitRate, Ours: ours, Baseline: direct, Target: storebench.Target{MinRatio: throughputMin}, Samples: n})
		}
		return figs, nil
	}
}

// rounds warms both sides up (a quarter round each), then runs o.Rounds
// rounds of o.Round per side, alternating, and returns each side's rate
// and the second side's request count.
func (b *bench) rounds(ctx context.Context, sides [2]call) (direct, other float64, n int, err error) {
	o := b.o
	for _, c := range sides {
		if _, _, err := b.load(ctx, c, o.Round/4); err != nil {
			return 0, 0, 0, err
		}
	}
	var count [2]int
	var took [2]time.Duration
	for range o.Rounds {
		for side, c := range sides {
			k, d, err := b.load(ctx, c, o.Round)
			if err != nil {
				return 0, 0, 0, err
			}
			count[side] += k
			took[side] += d
		}
	}
	return float64(count[0]) / took[0].Seconds(), float64(count[1]) / took[1].Seconds(), count[1], nil
}

// load sends c from o.Clients goroutines for d and returns how many
// requests completed and the time until the last did; the process's RSS
// is sampled meanwhile.
func (b *bench) load(ctx context.Context, c call, d time.Duration) (int, time.Duration, error) {
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		if !c.route.proxy { // the gateway idles meanwhile
			b.sampleRSS(c.route.direct, stop)
		}
	}()
	defer func() { close(stop); <-sampled }()
	var (
		n     atomic.Int64
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	deadline := start.Add(d)
	for range b.o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) && lctx.Err() == nil {
				if _, err := b.do(lctx, c, false); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					cancel()
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	if first != nil {
		return 0, took, first
	}
	return int(n.Load()), took, ctx.Err()
}

// hop measures the pass-through proxy against direct, as the gateway is
// measured, for openai clients of an openai upstream: a reply's added p99
// at concurrency 1 and the throughput at o.Clients. No target: it shows
// what one HTTP hop that does nothing costs on this machine, the floor
// under the gateway's own figures.
func (b *bench) hop(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	pr := route{client: formatOpenAI, upstream: formatOpenAI, proxy: true}
	dr := route{client: formatOpenAI, upstream: formatOpenAI, direct: true}
	o.Logf("reference: openai through the pass-through proxy, reply, 1 client: %d pairs ...", o.Pairs)
	direct, proxied, diffs, err := b.pairs(ctx, [2]call{b.call(dr, false, false), b.call(pr, false, false)})
	if err != nil {
		return nil, err
	}
	o.Logf("  proxy p50 %.3f p99 %.3f ms, direct p50 %.3f p99 %.3f ms; paired difference p50 %.3f ms",
		quantile(proxied, .5), quantile(proxied, .99), quantile(direct, .5), quantile(direct, .99), medianMs(diffs))
	o.Logf("reference: openai through the pass-through proxy, throughput, %d clients: %d rounds of %s per side ...", o.Clients, o.Rounds, o.Round)
	rd, rp, n, err := b.rounds(ctx, [2]call{b.call(dr, false, false), b.call(pr, false, false)})
	if err != nil {
		return nil, err
	}
	o.Logf("  proxy %.0f req/s, direct %.0f req/s (%.2f)", rp, rd, rp/rd)
	return []storebench.Figure{
		{Name: "reference: reply added p99, 1 client, pass-through proxy (openai)", Unit: storebench.UnitMs,
			Ours: quantile(proxied, .99) - quantile(direct, .99), Baseline: quantile(direct, .99), Samples: len(proxied)},
		{Name: fmt.Sprintf("reference: throughput, %d clients, pass-through proxy (openai)", o.Clients), Unit: unitRate,
			Ours: rp, Baseline: rd, Samples: n},
	}, nil
}

// gaps measures the gaps between the deltas of paced streams (o.Deltas
// deltas o.Pace apart), direct and through the gateway to an openai
// upstream: o.Streams of each per client format, o.InFlight at once,
// alternating sides.
func (b *bench) gaps(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	var figs []storebench.Figure
	for _, client := range clientFormats {
		gr := route{client: client, upstream: formatOpenAI}
		sides := [2]call{b.call(route{client: client, upstream: formatOpenAI, direct: true}, true, true), b.call(gr, true, true)}
		o.Logf("%s streams of %d deltas %s apart: %d per side, %d at once ...", gr.name(), o.Deltas, o.Pace, o.Streams, o.InFlight)
		var (
			mu    sync.Mutex
			gaps  [2][]time.Duration
			ttft  [2][]time.Duration
			first error
			next  atomic.Int64
			wg    sync.WaitGroup
		)
		lctx, cancel := context.WithCancel(ctx)
		for range o.InFlight {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := int(next.Add(1) - 1); j < 2*o.Streams && lctx.Err() == nil; j = int(next.Add(1) - 1) {
					side := j & 1
					out, err := b.do(lctx, sides[side], true)
					mu.Lock()
					if err != nil {
						if first == nil {
							first = err
						}
						mu.Unlock()
						cancel()
						return
					}
					for k := 1; k < len(out.times); k++ {
						gaps[side] = append(gaps[side], out.times[k].Sub(out.times[k-1]))
					}
					ttft[side] = append(ttft[side], out.first)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		cancel()
		if first != nil {
			return nil, first
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		direct, ours := gaps[0], gaps[1]
		o.Logf("  gateway gaps p50 %.2f p99 %.2f max %.2f ms (first delta p99 %.2f ms); direct p50 %.2f p99 %.2f max %.2f ms (first delta p99 %.2f ms)",
			quantile(ours, .5), quantile(ours, .99), quantile(ours, 1), quantile(ttft[1], .99),
			quantile(direct, .5), quantile(direct, .99), quantile(direct, 1), quantile(ttft[0], .99))
		figs = append(figs, storebench.Figure{Name: fmt.Sprintf("inter-delta gap added p99, %d deltas %s apart (%s)", o.Deltas, o.Pace, gr.name()),
			Unit: storebench.UnitMs, Ours: quantile(ours, .99) - quantile(direct, .99), Baseline: quantile(direct, .99),
			Target: storebench.Target{Max: addedP99Ms}, Samples: len(ours)})
	}
	return figs, nil
}

package briefingbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore/storebench"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// Target of the issue.
const consumesPerSecond = 1000

// pairSignals bounds the signals the consumption pairs are made of (each
// gives one pair per agent given its type).
const pairSignals = 40_000

// baselineTable is the scratch table of the consumption baseline.
const baselineTable = "briefingbench_consumed"

// pair is an agent and a signal it is given.
type pair struct{ agent, signal string }

// loadPairs lists the distinct (agent, signal) pairs of the newest
// signals, every agent given the signal's type, shuffled (seeded).
func (b *bench) loadPairs(ctx context.Context) error {
	agents, err := briefing.NewAgents(briefing.DefaultIRAlias, briefing.DefaultAcquisitionAgent)
	if err != nil {
		return err
	}
	rows, err := b.srv.DB.QueryContext(ctx, `SELECT signal_id::text, type FROM `+projbriefing.Schema+`.signals
		ORDER BY created_at DESC, signal_id LIMIT $1`, pairSignals)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, typ string
		if err := rows.Scan(&id, &typ); err != nil {
			return err
		}
		for _, name := range agents.Names() {
			if a, _ := agents.Lookup(name); a.Sees(typ) {
				b.pairs = append(b.pairs, pair{name, id})
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(b.o.Seed, 0xc0de))
	r.Shuffle(len(b.pairs), func(i, j int) { b.pairs[i], b.pairs[j] = b.pairs[j], b.pairs[i] })
	return nil
}

// take hands out the next pair not consumed, false when none is left.
func (b *bench) take() (pair, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.nextPr >= len(b.pairs) {
		return pair{}, false
	}
	p := b.pairs[b.nextPr]
	b.nextPr++
	return p, true
}

// load runs op from clients goroutines for d, each call with its index;
// it returns the calls done, their latencies and how long it took.
func load(ctx context.Context, clients int, d time.Duration, op func(i int) error) (int, []time.Duration, time.Duration, error) {
	var next atomic.Int64
	var failed error
	var once sync.Once
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			defer func() {
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
			for ctx.Err() == nil && time.Now().Before(deadline) {
				i := int(next.Add(1) - 1)
				took, err := timed(func() error { return op(i) })
				if err != nil {
					once.Do(func() { failed = err })
					return
				}
				mine = append(mine, took)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if failed != nil {
		return 0, nil, 0, failed
	}
	return len(lat), lat, elapsed, ctx.Err()
}

// consumes measures POST .../consume-signal from o.Consumers clients for
// o.ConsumeFor, each call a distinct (agent, signal) pair, next to the
// same clients inserting one row per pair into a scratch table on the
// server's pool for as long.
func (b *bench) consumes(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	if err := b.loadPairs(ctx); err != nil {
		return nil, err
	}
	o.Logf("%d (agent, signal) pairs; baseline: INSERT ... ON CONFLICT DO NOTHING, %d clients on the server's pool for %s ...",
		len(b.pairs), o.Consumers, o.ConsumeFor)
	db := b.srv.DB
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+baselineTable+` (agent text NOT NULL, signal_id uuid NOT NULL,
		consumed_at timestamptz NOT NULL, PRIMARY KEY (agent, signal_id))`); err != nil {
		return nil, err
	}
	defer db.ExecContext(context.WithoutCancel(ctx), `DROP TABLE IF EXISTS `+baselineTable)
	baseN, baseLat, baseTook, err := load(ctx, o.Consumers, o.ConsumeFor, func(i int) error {
		p := b.pairs[len(b.pairs)-1-i%len(b.pairs)]
		_, err := db.ExecContext(ctx, `INSERT INTO `+baselineTable+` (agent, signal_id, consumed_at) VALUES ($1, $2, now())
			ON CONFLICT DO NOTHING`, p.agent, p.signal)
		return err
	})
	if err != nil {
		return nil, err
	}
	baseRate := float64(baseN) / baseTook.Seconds()
	o.Logf("  %d rows in %s (%.0f/s, p95 %.2f ms)", baseN, baseTook.Round(time.Millisecond), baseRate, quantile(baseLat, .95))

	o.Logf("POST .../consume-signal, %d clients for %s, each call a pair not consumed ...", o.Consumers, o.ConsumeFor)
	var before int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+projbriefing.Schema+`.consumptions`).Scan(&before); err != nil {
		return nil, err
	}
	n, lat, took, err := load(ctx, o.Consumers, o.ConsumeFor, func(int) error {
		p, ok := b.take()
		if !ok {
			return fmt.Errorf("briefingbench: the %d (agent, signal) pairs ran out: raise pairSignals", len(b.pairs))
		}
		var c cmdbriefing.Consumption
		path := base + "/consume-signal?" + url.Values{"signal_id": {p.signal}, "agent": {p.agent}}.Encode()
		if err := b.call(ctx, http.MethodPost, path, "", nil, &c); err != nil {
			return err
		}
		if c.Already || c.SignalID != p.signal || c.ConsumedBy != p.agent {
			return fmt.Errorf("briefingbench: POST %s: %+v, want a first consumption of %s by %s", path, c, p.signal, p.agent)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rate := float64(n) / took.Seconds()
	var after int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+projbriefing.Schema+`.consumptions`).Scan(&after); err != nil {
		return nil, err
	}
	if after-before != n {
		return nil, fmt.Errorf("briefingbench: %d consumptions answered, the read model holds %d more", n, after-before)
	}
	o.Logf("  %d consumptions in %s (%.0f/s, every answer 200, each in the read model when answered), p50 %.2f p95 %.2f p99 %.2f ms",
		n, took.Round(time.Millisecond), rate, quantile(lat, .5), quantile(lat, .95), quantile(lat, .99))
	return []storebench.Figure{
		{Name: fmt.Sprintf("POST .../consume-signal, %d clients, distinct pairs, all 200 (base: INSERT ON CONFLICT DO NOTHING)",
			o.Consumers), Unit: "op/s", Ours: rate, Baseline: baseRate, Target: storebench.Target{Min: consumesPerSecond}, Samples: n},
		{Name: "POST .../consume-signal p95 under that load (base: the INSERT's p95)", Unit: storebench.UnitMs,
			Ours: quantile(lat, .95), Baseline: quantile(baseLat, .95), Samples: n},
	}, nil
}

// contended sends o.Contended consumptions of one signal by one agent at
// once: every answer is a 200 naming the same consumption, exactly one
// says it was the first, and the consumption's stream holds one event.
func (b *bench) contended(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	p, ok := b.take()
	if !ok {
		return nil, fmt.Errorf("briefingbench: no (agent, signal) pair left for the contended consumption")
	}
	o.Logf("%d concurrent POST .../consume-signal of signal %s by %s ...", o.Contended, p.signal, p.agent)
	path := base + "/consume-signal?" + url.Values{"signal_id": {p.signal}, "agent": {p.agent}}.Encode()
	gate := make(chan struct{})
	answers := make([]cmdbriefing.Consumption, o.Contended)
	lat := make([]time.Duration, o.Contended)
	errs := make([]error, o.Contended)
	var wg sync.WaitGroup
	for i := range o.Contended {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			lat[i], errs[i] = timed(func() error { return b.call(ctx, http.MethodPost, path, "", nil, &answers[i]) })
		}()
	}
	close(gate)
	wg.Wait()
	first := 0
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		a := answers[i]
		if !a.Already {
			first++
		}
		if a.ConsumedAt != answers[0].ConsumedAt || a.ConsumedBy != p.agent || a.SignalID != p.signal {
			return nil, fmt.Errorf("briefingbench: contended consumption: answers differ: %+v and %+v", answers[0], a)
		}
	}
	var events int
	if err := b.srv.DB.QueryRowContext(ctx, `SELECT count(*) FROM es.events WHERE stream_id = $1`,
		briefing.ConsumptionStream(p.agent, p.signal)).Scan(&events); err != nil {
		return nil, err
	}
	if first != 1 || events != 1 {
		return nil, fmt.Errorf("briefingbench: %d concurrent consumptions of one signal: %d answered as the first, %d events recorded; want 1 and 1",
			o.Contended, first, events)
	}
	o.Logf("  all %d answered 200 with one consumption (1 first, %d already_consumed), 1 briefing.signal_consumed; p50 %.2f p95 %.2f ms",
		o.Contended, o.Contended-1, quantile(lat, .5), quantile(lat, .95))
	return []storebench.Figure{{Name: fmt.Sprintf("POST .../consume-signal, %d at once for one agent and signal: 1 event, %d already_consumed (p95)",
		o.Contended, o.Contended-1), Unit: storebench.UnitMs, Ours: quantile(lat, .95), Samples: o.Contended}}, nil
}

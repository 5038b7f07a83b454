package auditbench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

// scanView is what the bench checks of a quick scan.
type scanView struct {
	Score    int    `json:"score"`
	MaxScore int    `json:"max_score"`
	Grade    string `json:"grade"`
	Checks   []struct {
		Name   string `json:"name"`
		Passed bool   `json:"passed"`
		Score  int    `json:"score"`
	} `json:"checks"`
}

// quick runs one quick scan of the excellent fixture over HTTP, from the
// next source address of the quick scan's budget.
func (b *bench) quick(ctx context.Context) (scanView, error) {
	var v scanView
	c, err := b.src.client("audit.quick", readaudit.QuickPerMinute)
	if err != nil {
		return v, err
	}
	if _, err := call(ctx, c, http.MethodPost, b.srv.URL+readaudit.Base, map[string]string{"url": b.excellent.URL + "/"},
		http.StatusOK, &v); err != nil {
		return v, err
	}
	if len(v.Checks) != 7 || v.MaxScore != 100 {
		return v, fmt.Errorf("auditbench: the quick scan has %d checks and max_score %d, want 7 and 100", len(v.Checks), v.MaxScore)
	}
	return v, nil
}

// replay makes the scan's requests (reqs) to the excellent fixture
// directly, one after another, with the plain client: the baseline.
func (b *bench) replay(ctx context.Context, reqs []request) error {
	for _, q := range reqs {
		var h []string
		if q.accept != "" {
			h = []string{"Accept", q.accept}
		}
		if _, err := send(ctx, b.direct, q.method, b.excellent.URL+q.path, nil, h...); err != nil {
			return err
		}
	}
	return nil
}

// scans measures the quick scan: a recorded warm-up scan (what requests
// it makes, replayed by the baseline), then o.Scans scans from one
// client, each after the baseline (the same requests fetched directly in
// sequence), then o.Scans from o.ScanClients clients, each alternating
// the baseline and the scan.
func (b *bench) scans(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	b.excellent.record(true)
	v, err := b.quick(ctx)
	reqs := b.excellent.record(false)
	if err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("auditbench: the quick scan made no request to the fixture")
	}
	passed := 0
	for _, ch := range v.Checks {
		if ch.Passed {
			passed++
		}
	}
	o.Logf("quick scan of the excellent fixture: score %d, grade %s, %d of 7 checks passed, %d requests to the site", v.Score, v.Grade,
		passed, len(reqs))
	if passed != 7 {
		return nil, fmt.Errorf("auditbench: the excellent fixture passes %d of 7 checks, want 7: %+v", passed, v)
	}
	base := func() error { return b.replay(ctx, reqs) }
	scan := func() error { _, err := b.quick(ctx); return err }
	warm := min(10, o.Scans)
	o.Logf("POST .../ax-audit (quick scan), 1 client, %d scans, each after its %d requests fetched directly ...", o.Scans, len(reqs))
	var baseLat, ourLat []time.Duration
	for i := range warm + o.Scans {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d, err := timed(base)
		if err != nil {
			return nil, err
		}
		q, err := timed(scan)
		if err != nil {
			return nil, err
		}
		if i >= warm {
			baseLat, ourLat = append(baseLat, d), append(ourLat, q)
		}
	}
	o.Logf("  p50 %.2f p95 %.2f p99 %.2f ms; directly p50 %.2f p95 %.2f ms", quantile(ourLat, .5), quantile(ourLat, .95),
		quantile(ourLat, .99), quantile(baseLat, .5), quantile(baseLat, .95))
	baseName := fmt.Sprintf("its %d requests fetched directly, in sequence", len(reqs))
	figs := latencyFigures("POST .../ax-audit quick scan %s, 1 client, excellent fixture (base: %s)", baseName, ourLat, baseLat, scanP95Ms)

	o.Logf("POST .../ax-audit (quick scan), %d clients, %d scans, each client alternating with the direct requests ...", o.ScanClients, o.Scans)
	baseLat, ourLat, err = concurrently(ctx, o.ScanClients, o.Scans, func(int) error { return base() }, func(int) error { return scan() })
	if err != nil {
		return nil, err
	}
	o.Logf("  p50 %.2f p95 %.2f p99 %.2f ms; directly p50 %.2f p95 %.2f ms", quantile(ourLat, .5), quantile(ourLat, .95),
		quantile(ourLat, .99), quantile(baseLat, .5), quantile(baseLat, .95))
	name := fmt.Sprintf("POST .../ax-audit quick scan %%s, %d clients, excellent fixture (base: %%s)", o.ScanClients)
	return append(figs, latencyFigures(name, baseName, ourLat, baseLat, scanP95Ms)...), nil
}

// concurrently runs n operations from clients clients, each operation
// base(i) then ours(i), both timed.
func concurrently(ctx context.Context, clients, n int, base, ours func(i int) error) (baseLat, ourLat []time.Duration, _ error) {
	var mu sync.Mutex
	var next atomic.Int64
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var bs, qs []time.Duration
			defer func() {
				mu.Lock()
				baseLat, ourLat = append(baseLat, bs...), append(ourLat, qs...)
				mu.Unlock()
			}()
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				d, err := timed(func() error { return base(i) })
				if err == nil {
					var q time.Duration
					if q, err = timed(func() error { return ours(i) }); err == nil {
						bs, qs = append(bs, d), append(qs, q)
						continue
					}
				}
				once.Do(func() { failed = err })
				next.Store(int64(n))
				return
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		return nil, nil, failed
	}
	return baseLat, ourLat, ctx.Err()
}

// latencyFigures are p50, p95 (with the target, when not 0) and p99 of
// ours next to base; name has two %s: the quantile and the baseline's
// name.
func latencyFigures(name, baseName string, ours, base []time.Duration, p95Ms float64) []storebench.Figure {
	var figs []storebench.Figure
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .5}, {"p95", .95}, {"p99", .99}} {
		f := storebench.Figure{Name: fmt.Sprintf(name, q.name, baseName), Unit: storebench.UnitMs, Ours: quantile(ours, q.q),
			Baseline: quantile(base, q.q), Samples: len(ours)}
		if q.name == "p95" && p95Ms > 0 {
			f.Target = storebench.Target{Max: p95Ms}
		}
		figs = append(figs, f)
	}
	return figs
}

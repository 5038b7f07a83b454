package builderbench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// side is one kind of request of the preview rounds.
type side struct {
	name   string
	url    string
	status int // the answer's status: 200 when 0
	// check looks at a 200 answer's headers and body.
	check func(h http.Header, body []byte) error
}

// preview measures o.Readers concurrent readers of generation g's preview
// (the folder, which serves index.html, and app.js) against
// GET /api/health at the same concurrency: a warm-up round of each, then
// o.Rounds rounds of o.Round per side, the sides alternating. A fourth
// side, a reference, is the same surface's cheapest answer: a preview
// path with a malformed chat id (404 before any database read), the HTTP
// stack and middleware alone.
func (b *bench) preview(ctx context.Context, g generation) ([]storebench.Figure, error) {
	o := b.o
	base := b.bl.URL + "/api/preview/" + g.chatID + "/"
	sandboxed := func(want string) func(http.Header, []byte) error {
		return func(h http.Header, body []byte) error {
			if !strings.HasPrefix(h.Get("Content-Security-Policy"), "sandbox") || !strings.HasPrefix(h.Get("Content-Type"), want) || len(body) == 0 {
				return fmt.Errorf("not the preview's file: Content-Type %q, CSP %q, %d bytes", h.Get("Content-Type"), h.Get("Content-Security-Policy"), len(body))
			}
			return nil
		}
	}
	sides := []side{
		{name: "GET /api/health", url: b.bl.URL + "/api/health", check: func(http.Header, []byte) error { return nil }},
		{name: "index.html", url: base, check: sandboxed("text/html")},
		{name: "app.js", url: base + "app.js", check: sandboxed("text/javascript")},
		{name: "GET /api/preview/<malformed id>", url: b.bl.URL + "/api/preview/x/", status: http.StatusNotFound,
			check: func(http.Header, []byte) error { return nil }},
	}
	o.Logf("preview of %s (idea %q) and GET /api/health, %d readers: %d rounds of %s per side ...", g.chatID, g.idea, o.Readers, o.Rounds, o.Round)
	for _, s := range sides {
		if _, err := b.readers(ctx, s, o.Round/4); err != nil {
			return nil, err
		}
	}
	lat := make([][]time.Duration, len(sides))
	took := make([]time.Duration, len(sides))
	for range o.Rounds {
		for i, s := range sides {
			start := time.Now()
			l, err := b.readers(ctx, s, o.Round)
			if err != nil {
				return nil, err
			}
			took[i] += time.Since(start)
			lat[i] = append(lat[i], l...)
		}
	}
	for i, s := range sides {
		o.Logf("  %s: p50 %.2f p95 %.2f p99 %.2f ms, %.0f req/s", s.name, quantile(lat[i], .5), quantile(lat[i], .95),
			quantile(lat[i], .99), float64(len(lat[i]))/took[i].Seconds())
	}
	var figs []storebench.Figure
	for i, s := range sides[1:3] {
		figs = append(figs, storebench.Figure{Name: fmt.Sprintf("preview %s p95, %d readers (base: GET /api/health)", s.name, o.Readers),
			Unit: storebench.UnitMs, Ours: quantile(lat[i+1], .95), Baseline: quantile(lat[0], .95),
			Target: storebench.Target{Max: previewP95MaxMs}, Samples: len(lat[i+1])})
	}
	return append(figs, storebench.Figure{Name: fmt.Sprintf("GET /api/preview/<malformed id> p95, %d readers: 404, no database (reference)", o.Readers),
		Unit: storebench.UnitMs, Baseline: quantile(lat[3], .95), Reference: true, Samples: len(lat[3])}), nil
}

// readers sends s from o.Readers goroutines for d, each request after the
// last one's answer, and returns every request's latency; any answer but
// the side's status that passes s.check fails the run. Each reader reads
// the bodies into a buffer of its own, allocated once.
func (b *bench) readers(ctx context.Context, s side, d time.Duration) ([]time.Duration, error) {
	var (
		mu    sync.Mutex
		all   []time.Duration
		first error
		wg    sync.WaitGroup
	)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := time.Now().Add(d)
	for range b.o.Readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			var buf bytes.Buffer // reused: the load generator shares the server's CPUs
			buf.Grow(64 << 10)
			for time.Now().Before(deadline) && rctx.Err() == nil {
				req, err := http.NewRequestWithContext(rctx, http.MethodGet, s.url, nil)
				start := time.Now()
				var resp *http.Response
				var body []byte
				if err == nil {
					resp, err = b.http.Do(req)
				}
				if err == nil {
					buf.Reset()
					_, err = buf.ReadFrom(resp.Body)
					resp.Body.Close()
					body = buf.Bytes()
					if err == nil && resp.StatusCode != cmp.Or(s.status, http.StatusOK) {
						err = fmt.Errorf("status %d: %.300s", resp.StatusCode, body)
					}
					if err == nil {
						err = s.check(resp.Header, body)
					}
				}
				if err != nil {
					mu.Lock()
					if first == nil && rctx.Err() == nil {
						first = fmt.Errorf("GET %s: %w", s.url, err)
					}
					mu.Unlock()
					cancel()
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return all, ctx.Err()
}

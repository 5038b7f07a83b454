package captablebench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// load is the outcome of one batch of requests.
type load struct {
	lat     []time.Duration
	elapsed time.Duration
}

func (l *load) add(m load) { l.lat, l.elapsed = append(l.lat, m.lat...), l.elapsed+m.elapsed }

func (l load) rate() float64 { return float64(len(l.lat)) / l.elapsed.Seconds() }

// get sends n GETs of path(i), i from 0 to n-1, from o.Clients keep-alive
// clients, each request with the token of member account i mod accounts
// and the company's X-Company-ID. Any answer but 200 fails the run.
func (s *server) get(ctx context.Context, co *company, n int, path func(i int) string) (load, error) {
	var (
		next atomic.Int64
		mu   sync.Mutex
		out  load
		errs []error
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range s.o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				if err := s.fetch(ctx, co, i, path(i)); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			out.lat = append(out.lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	if len(errs) > 0 {
		return out, errs[0]
	}
	return out, ctx.Err()
}

// fetch sends one GET as member account i mod accounts and reads the body.
func (s *server) fetch(ctx context.Context, co *company, i int, path string) error {
	_, err := s.body(ctx, co, i, path)
	return err
}

// body sends one GET as member account i mod accounts and returns the
// body of a 200 answer.
func (s *server) body(ctx context.Context, co *company, i int, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+co.tokens[i%len(co.tokens)])
	req.Header.Set("X-Company-ID", co.id)
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: status %d: %.300s", path, resp.StatusCode, body)
	}
	return body, err
}

// checkCapTable reads GET /cap-table once and compares it with the fold's
// cap table: the fully diluted count and the top ten holders.
func (s *server) checkCapTable(ctx context.Context, co *company) error {
	raw, err := s.body(ctx, co, 0, "/cap-table")
	if err != nil {
		return err
	}
	var got struct {
		Source       string  `json:"source"`
		FullyDiluted num.Num `json:"fullyDilutedShares"`
		Top          []struct {
			ID     string  `json:"stakeholderId"`
			Shares num.Num `json:"shares"`
		} `json:"topStakeholders"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("GET /cap-table: %w", err)
	}
	want := co.summary
	ok := got.Source == "projection" && got.FullyDiluted.Equal(want.FullyDiluted) && len(got.Top) == min(10, len(want.Holders))
	for i := 0; ok && i < len(got.Top); i++ {
		ok = got.Top[i].ID == want.Holders[i].ID && got.Top[i].Shares.Equal(want.Holders[i].Shares)
	}
	if !ok {
		return fmt.Errorf("GET /cap-table differs from the fold's cap table (fully diluted %s): %.500s", want.FullyDiluted, raw)
	}
	return nil
}

// capTable measures GET /cap-table (the live cap table from the read
// model: totals per class, the top 10 holders) against GET
// /stakeholders/{id} (one row of the same read model) on the same server,
// in alternating rounds of o.Requests requests each.
func (s *server) capTable(ctx context.Context, co *company) ([]storebench.Figure, error) {
	o := s.o
	stakeholder := func(i int) string { return "/stakeholders/" + co.stakeholders[(i*7919)%len(co.stakeholders)] }
	capTable := func(int) string { return "/cap-table" }
	o.Logf("GET /cap-table over HTTP, %d clients ...", o.Clients)
	for _, path := range []func(int) string{stakeholder, capTable} { // the first call folds the company into the service's cache
		if _, err := s.get(ctx, co, warmups(o), path); err != nil {
			return nil, err
		}
	}
	if err := s.checkCapTable(ctx, co); err != nil {
		return nil, err
	}
	var base, ours load
	for range o.Rounds {
		b, err := s.get(ctx, co, o.Requests, stakeholder)
		if err != nil {
			return nil, err
		}
		base.add(b)
		c, err := s.get(ctx, co, o.Requests, capTable)
		if err != nil {
			return nil, err
		}
		ours.add(c)
	}
	q := func(l load, p float64) float64 { return quantile(l.lat, p) }
	o.Logf("  cap table %.0f req/s, p50 %.2f p95 %.2f p99 %.2f ms; stakeholder %.0f req/s, p50 %.2f p95 %.2f p99 %.2f ms",
		ours.rate(), q(ours, .5), q(ours, .95), q(ours, .99), base.rate(), q(base, .5), q(base, .95), q(base, .99))
	name := func(what string) string { return fmt.Sprintf("GET /cap-table %s, %d clients", what, o.Clients) }
	n := len(ours.lat)
	return []storebench.Figure{
		{Name: name("over HTTP"), Unit: unitRate, Ours: ours.rate(), Baseline: base.rate(), Samples: n},
		{Name: name("p50"), Unit: unitMs, Ours: q(ours, .5), Baseline: q(base, .5), Samples: n},
		{Name: name("p95"), Unit: unitMs, Ours: q(ours, .95), Baseline: q(base, .95), Target: storebench.Target{Max: capTableP95Ms}, Samples: n},
		{Name: name("p99"), Unit: unitMs, Ours: q(ours, .99), Baseline: q(base, .99), Samples: n},
	}, nil
}

package communitybench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// load is the outcome of a batch of requests.
type load struct {
	lat     []time.Duration
	elapsed time.Duration
}

func (l *load) add(m load) { l.lat, l.elapsed = append(l.lat, m.lat...), l.elapsed+m.elapsed }

func (l load) rate() float64 { return float64(len(l.lat)) / l.elapsed.Seconds() }

// call sends one request as member i mod members with their API key and
// fails unless the status is one of ok.
func (s *server) call(ctx context.Context, t *tenant, i int, method, path, body string, ok ...int) error {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.id.URL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+t.keys[i%len(t.keys)])
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.id.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if !slices.Contains(ok, resp.StatusCode) {
		return fmt.Errorf("%s %s: status %d: %.300s", method, path, resp.StatusCode, raw)
	}
	return nil
}

// run sends n requests op(i), i from 0 to n-1, from clients goroutines,
// and returns their latencies; any failure fails the run.
func run(ctx context.Context, clients, n int, op func(i int) error) (load, error) {
	var (
		next atomic.Int64
		mu   sync.Mutex
		out  load
		errs []error
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				if err := op(i); err != nil {
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

// paced starts op(i) rate times a second for d, each in its own goroutine
// (at most maxInFlight at once: beyond that the server has fallen far
// behind, and the run fails), and returns the latencies and the wall time
// until the last finished. A server that falls behind shows as a rate
// below the pace and a high latency.
func paced(ctx context.Context, rate int, d time.Duration, op func(i int) error) (load, error) {
	var (
		mu   sync.Mutex
		out  load
		errs []error
		wg   sync.WaitGroup
	)
	slots := make(chan struct{}, maxInFlight)
	interval := time.Second / time.Duration(rate)
	total := int(d / interval)
	start := time.Now()
	for i := range total {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		select {
		case slots <- struct{}{}:
		default:
			wg.Wait()
			return out, fmt.Errorf("paced load: %d commands in flight at %d/s; the server cannot keep up", maxInFlight, rate)
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			t0 := time.Now()
			err := op(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			out.lat = append(out.lat, time.Since(t0))
		}()
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	if len(errs) > 0 {
		return out, errs[0]
	}
	return out, ctx.Err()
}

// maxInFlight bounds a paced load's concurrent commands.
const maxInFlight = 4096

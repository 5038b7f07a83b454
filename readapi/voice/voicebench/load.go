package voicebench

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Quantile is the q-quantile of d in milliseconds, by nearest rank (the
// smallest sample with at least q of the samples at or below it); 0 for
// no samples.
func Quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

// Quantiles is a figure per quantile of ours and of base: name is
// "<what> p50 (base: <baseName>)" and so on; targets, by quantile, are
// upper bounds in ms.
func Quantiles(what, baseName string, ours, base []time.Duration, qs []float64, targets map[float64]float64) []storebench.Figure {
	var out []storebench.Figure
	for _, q := range qs {
		f := storebench.Figure{Name: what + " " + pName(q), Unit: storebench.UnitMs, Ours: Quantile(ours, q),
			Baseline: Quantile(base, q), Samples: len(ours)}
		if baseName != "" {
			f.Name += " (base: " + baseName + ")"
		}
		if t, ok := targets[q]; ok {
			f.Target.Max = t
		}
		out = append(out, f)
	}
	return out
}

// Count is a figure of a count that must reach want (the target).
func Count(name, unit string, got, want int) storebench.Figure {
	return storebench.Figure{Name: name, Unit: unit, Ours: float64(got), Target: storebench.Target{Min: float64(want)}, Samples: want}
}

// pName is "p50", "p95", "p99", "p99.9".
func pName(q float64) string { return "p" + strconv.FormatFloat(q*100, 'f', -1, 64) }

// paced calls fn(i) for i from 0 on, each on a goroutine of its own at
// start + i/rate (open loop: it does not wait for the earlier ones), for
// d; it waits for every fn to return and reports how many were started
// and the time from the first start to the last.
func paced(ctx context.Context, rate int, d time.Duration, fn func(i int)) (int, time.Duration) {
	n := int(d.Seconds() * float64(rate))
	period := time.Second / time.Duration(rate)
	var wg sync.WaitGroup
	start := time.Now()
	i := 0
	var span time.Duration
	for ; i < n && ctx.Err() == nil; i++ {
		if w := time.Until(start.Add(time.Duration(i) * period)); w > 0 {
			time.Sleep(w)
		}
		span = time.Since(start)
		wg.Add(1)
		go func(i int) { defer wg.Done(); fn(i) }(i)
	}
	wg.Wait()
	return i, span
}

// reply is one HTTP answer and how long it took (from the request's
// start to its body read).
type reply struct {
	start   time.Time
	status  int
	raw     []byte
	elapsed time.Duration
	err     error
}

// post sends body (JSON) to url with token as a bearer credential (none
// when empty) and reads the whole answer.
func post(ctx context.Context, hc *http.Client, url, token string, body []byte) reply {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return reply{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	t0 := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		return reply{start: t0, err: err, elapsed: time.Since(t0)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return reply{start: t0, status: resp.StatusCode, raw: raw, elapsed: time.Since(t0), err: err}
}

// load runs a paced POST of body(i) to url at rate for d and returns the
// replies in order.
func load(ctx context.Context, hc *http.Client, url, token string, rate int, d time.Duration, body func(i int) []byte) ([]reply, time.Duration) {
	out := make([]reply, int(d.Seconds()*float64(rate)))
	n, span := paced(ctx, rate, d, func(i int) { out[i] = post(ctx, hc, url, token, body(i)) })
	return out[:n], span
}

// outcome sums up replies: the latencies of those answered want, and how
// many were answered otherwise (with an example).
type outcome struct {
	ok      []time.Duration
	other   int
	example string
}

func tally(rs []reply, want int) outcome {
	var o outcome
	for _, r := range rs {
		if r.err == nil && r.status == want {
			o.ok = append(o.ok, r.elapsed)
			continue
		}
		o.other++
		if o.example == "" {
			if r.err != nil {
				o.example = r.err.Error()
			} else {
				o.example = strconv.Itoa(r.status) + " " + string(r.raw[:min(len(r.raw), 300)])
			}
		}
	}
	return o
}

// achieved is the rate n starts spread over span (the first to the last)
// make, a second.
func achieved(n int, span time.Duration) float64 {
	if n < 2 || span <= 0 {
		return 0
	}
	return float64(n-1) / span.Seconds()
}

// ms prints p50/p95/p99 of d.
func ms(d []time.Duration) string {
	return "p50 " + strconv.FormatFloat(Quantile(d, 0.5), 'f', 2, 64) + " p95 " + strconv.FormatFloat(Quantile(d, 0.95), 'f', 2, 64) +
		" p99 " + strconv.FormatFloat(Quantile(d, 0.99), 'f', 2, 64) + " max " + strconv.FormatFloat(Quantile(d, 1), 'f', 2, 64) + " ms"
}

// Breakdown prints p50/p95 of each part of the requests' time, named.
func Breakdown(names []string, parts [][]time.Duration) string {
	var b []byte
	for i, n := range names {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, n...)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, Quantile(parts[i], 0.5), 'f', 2, 64)
		b = append(b, '/')
		b = strconv.AppendFloat(b, Quantile(parts[i], 0.95), 'f', 2, 64)
	}
	return string(b) + " ms (p50/p95)"
}

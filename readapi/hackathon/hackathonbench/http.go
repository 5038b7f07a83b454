package hackathonbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// base is the hackathons collection's path.
const base = "/api/v1/hackathons"

// quantile is the q-quantile of d in milliseconds (nearest rank).
func quantile(d []time.Duration, q float64) float64 { return identitybench.Quantile(d, q) }

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	raw    []byte
}

// send sends method path (on the hackathon surface) with key as a bearer
// credential and body as JSON (nil for none) and reads the whole answer.
func (b *bench) send(ctx context.Context, key, method, path string, body []byte) (reply, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.srv.URL+path, rd)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, raw: raw}, nil
}

// call sends a request as u (body: nil, or a value sent as JSON) and fails
// unless the status is one of want; it returns the body.
func (b *bench) call(ctx context.Context, u User, method, path string, body any, want ...int) ([]byte, error) {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	r, err := b.send(ctx, u.Key, method, path, raw)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(want, r.status) {
		return r.raw, fmt.Errorf("%s %s: status %d, want %v: %.500s", method, path, r.status, want, r.raw)
	}
	return r.raw, nil
}

// callJSON is call, decoding the answer into out.
func (b *bench) callJSON(ctx context.Context, u User, method, path string, body, out any, want ...int) error {
	raw, err := b.call(ctx, u, method, path, body, want...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: decode the answer: %w: %.300s", method, path, err, raw)
	}
	return nil
}

// retryAfter is how long a 429 answer asks to wait (a second when it does
// not say).
func retryAfter(r reply) time.Duration {
	if s, err := strconv.Atoi(r.header.Get("Retry-After")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return time.Second
}

// timed runs op and returns how long it took.
func timed(op func() error) (time.Duration, error) {
	t0 := time.Now()
	err := op()
	return time.Since(t0), err
}

// pairs runs n alternating pairs, baseline(i) then ours(i), one at a time,
// and returns the latencies of each side; any failure fails the run.
func pairs(ctx context.Context, n int, baseline, ours func(i int) error) (base, our []time.Duration, err error) {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		d, err := timed(func() error { return baseline(i) })
		if err != nil {
			return nil, nil, err
		}
		base = append(base, d)
		if d, err = timed(func() error { return ours(i) }); err != nil {
			return nil, nil, err
		}
		our = append(our, d)
	}
	return base, our, nil
}

package briefingbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// base is the internal routes' path.
const base = "/api/v1/internal/intelligence"

// quantile is the q-quantile of d in milliseconds (nearest rank).
func quantile(d []time.Duration, q float64) float64 { return identitybench.Quantile(d, q) }

// reply is one HTTP answer.
type reply struct {
	status int
	raw    []byte
}

// send sends method path with the internal key (body: nil for none, sent
// with contentType) and reads the whole answer.
func (b *bench) send(ctx context.Context, method, path, contentType string, body []byte) (reply, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.srv.URL+path, rd)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("X-Internal-API-Key", b.srv.Key)
	if body != nil {
		req.Header.Set("Content-Type", contentType)
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
	return reply{status: resp.StatusCode, raw: raw}, nil
}

// call sends a request and fails unless the answer is a 200; the answer
// is decoded into out unless out is nil.
func (b *bench) call(ctx context.Context, method, path, contentType string, body []byte, out any) error {
	r, err := b.send(ctx, method, path, contentType, body)
	if err != nil {
		return err
	}
	if r.status != http.StatusOK {
		return fmt.Errorf("%s %s: status %d, want 200: %.500s", method, path, r.status, r.raw)
	}
	if out != nil {
		if err := json.Unmarshal(r.raw, out); err != nil {
			return fmt.Errorf("%s %s: decode the answer: %w: %.300s", method, path, err, r.raw)
		}
	}
	return nil
}

// timed runs op and returns how long it took.
func timed(op func() error) (time.Duration, error) {
	t0 := time.Now()
	err := op()
	return time.Since(t0), err
}

// waitFor polls cond every 100 ms until it holds, for at most limit.
func waitFor(ctx context.Context, limit time.Duration, what string, cond func() (bool, string, error)) error {
	deadline := time.Now().Add(limit)
	for {
		ok, state, err := cond()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("briefingbench: %s: still %s after %s", what, state, limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

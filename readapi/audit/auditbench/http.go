package auditbench

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

// quantile is the q-quantile of d in milliseconds (nearest rank).
func quantile(d []time.Duration, q float64) float64 { return identitybench.Quantile(d, q) }

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	raw    []byte
}

// send sends method url with c (body: JSON, nil for none; header: pairs)
// and reads the whole answer.
func send(ctx context.Context, c *http.Client, method, url string, body any, header ...string) (reply, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return reply{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return reply{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, raw: raw}, nil
}

// call sends a request and fails unless the answer has status want; the
// answer is decoded into out unless out is nil.
func call(ctx context.Context, c *http.Client, method, url string, body any, want int, out any, header ...string) (reply, error) {
	r, err := send(ctx, c, method, url, body, header...)
	if err != nil {
		return r, err
	}
	if r.status != want {
		return r, fmt.Errorf("%s %s: status %d, want %d: %.500s", method, url, r.status, want, r.raw)
	}
	if out != nil {
		if err := json.Unmarshal(r.raw, out); err != nil {
			return r, fmt.Errorf("%s %s: decode the answer: %w: %.300s", method, url, err, r.raw)
		}
	}
	return r, nil
}

// timed runs op and returns how long it took.
func timed(op func() error) (time.Duration, error) {
	t0 := time.Now()
	err := op()
	return time.Since(t0), err
}

// health is GET /health of the server with c.
func (b *bench) health(ctx context.Context, c *http.Client) error {
	_, err := call(ctx, c, http.MethodGet, b.srv.URL+"/health", nil, http.StatusOK, nil)
	return err
}

package outbound

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how Do retries. The zero value sends once.
type RetryPolicy struct {
	// Attempts is the most attempts, the first included (1 when 0).
	Attempts int
	// BaseDelay is the wait before the first retry, doubled for each
	// next one, with jitter (100 ms when 0).
	BaseDelay time.Duration
	// MaxDelay caps a wait (30 s when 0). A Retry-After longer than it
	// ends the retries: Do returns that response.
	MaxDelay time.Duration
	// Idempotent declares the request safe to repeat whatever its method
	// (a PUT, or a POST whose effect is the same however often it is
	// applied). GET, HEAD, OPTIONS, TRACE and requests with an
	// Idempotency-Key or X-Idempotency-Key header are retried without it.
	Idempotent bool
}

// DefaultRetry is a policy for calls to providers: 3 attempts, 200 ms
// then 400 ms (or what Retry-After says, up to 30 s).
func DefaultRetry() RetryPolicy {
	return RetryPolicy{Attempts: 3, BaseDelay: 200 * time.Millisecond, MaxDelay: 30 * time.Second}
}

// Do sends req under ctx and returns the response, retrying it under p
// when that is safe (see the package doc). As with http.Client, a non-2xx
// response is not an error; after the last attempt the last response is
// returned. A request body is replayed through req.GetBody (set by
// http.NewRequest for in-memory bodies); without one there is no retry.
func (c *Client) Do(ctx context.Context, req *http.Request, p RetryPolicy) (*http.Response, error) {
	attempts := max(p.Attempts, 1)
	if !retryable(req, p) {
		attempts = 1
	}
	base, maxDelay := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = 100 * time.Millisecond
	}
	if maxDelay <= 0 {
		maxDelay = 30 * time.Second
	}
	for attempt := 1; ; attempt++ {
		r := req.WithContext(ctx)
		if attempt > 1 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = body
		}
		resp, err := c.hc.Do(r)
		if attempt >= attempts {
			return resp, err
		}
		var wait time.Duration
		switch {
		case err != nil:
			if !retryableErr(ctx, err) {
				return nil, err
			}
		case retryStatus(resp.StatusCode):
			ra, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now())
			if ok && ra > maxDelay {
				return resp, nil
			}
			wait = ra
		default:
			return resp, nil
		}
		wait = max(wait, backoff(base, maxDelay, attempt))
		status := 0
		if resp != nil {
			status = resp.StatusCode
			drain(resp)
		}
		c.log.Info("outbound: retrying", "method", req.Method, "url", redact(req.URL),
			"attempt", attempt, "status", status, "err", err, "wait", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

func retryable(req *http.Request, p RetryPolicy) bool {
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return false
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return p.Idempotent || req.Header.Get("Idempotency-Key") != "" || req.Header.Get("X-Idempotency-Key") != ""
}

func retryStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryableErr: connection errors and attempt timeouts are retried; the
// caller's cancellation, refusals, redirect loops and TLS verification
// failures are not.
func retryableErr(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var ref *Refused
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &ref), errors.Is(err, ErrTooManyRedirects), errors.As(err, &unknown),
		errors.As(err, &invalid), errors.As(err, &hostname), errors.As(err, &verify):
		return false
	}
	return true
}

// retryAfter parses a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, int64(24*time.Hour/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// backoff is base*2^(attempt-1), capped, with the upper half jittered.
func backoff(base, maxDelay time.Duration, attempt int) time.Duration {
	d := base
	for i := 1; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	return d/2 + rand.N(d/2+1)
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

package connections

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// Class says what a failed provider call means for retrying it.
type Class string

// The classes of failure.
const (
	// Transient: the provider did not act (the request never reached it,
	// or it answered 429 or 502/503 before acting); safe to retry.
	Transient Class = "transient"
	// Refused: the provider answered and refused (a 4xx with its reason);
	// retrying the same request cannot succeed.
	Refused Class = "refused"
	// Unconfirmed: the request was sent and no answer says whether the
	// provider acted (a timeout or a dropped connection after the request
	// was written, a 500 or 504 to a request that is not idempotent). It
	// is never retried automatically: a retry might act twice.
	Unconfirmed Class = "unconfirmed"
	// Unauthorized: the token is expired, revoked or lacks a permission;
	// the account must be reconnected.
	Unauthorized Class = "unauthorized"
)

// CallError is a provider call's failure.
type CallError struct {
	Class Class
	// Reason is the provider's error code or message (safe to show; never
	// a token), or what went wrong on the way.
	Reason string
	// Status is the HTTP status the provider answered (0: none).
	Status int
	// RetryAfter is the provider's Retry-After, if it gave one.
	RetryAfter time.Duration
}

func (e *CallError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Class, e.Status, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.Class, e.Reason)
}

// ClassOf returns err's class when it is (or wraps) a *CallError, else "".
func ClassOf(err error) Class {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Class
	}
	return ""
}

// Fail returns a *CallError.
func Fail(class Class, status int, reason string) *CallError {
	return &CallError{Class: class, Status: status, Reason: reason}
}

// Call sends req through d and classifies what happened. A response is
// returned (with a nil error) when the provider answered 2xx or 3xx. For
// other answers the body is read (up to 64 KiB) and given to reason, which
// returns the provider's error code or message from it ("" to use the
// status text); the error is a *CallError: 401 Unauthorized; 429, 502 and
// 503 Transient; 500, 504 and every status above 504 Unconfirmed unless
// idempotent (then Transient); 408 Transient; other statuses Refused. A failure before the
// request was fully written is Transient; after it was written and before
// an answer, Unconfirmed (Transient when idempotent). Adapters refine the
// class from the provider's own codes (a 403 meaning an expired token is
// Unauthorized) with the returned error.
func Call(ctx context.Context, d Doer, req *http.Request, idempotent bool, reason func(status int, body []byte) string) (*http.Response, error) {
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(info httptrace.WroteRequestInfo) {
		if info.Err == nil {
			wrote.Store(true)
		}
	}}
	resp, err := d.Do(req.WithContext(httptrace.WithClientTrace(ctx, trace)))
	if err != nil {
		if !wrote.Load() || idempotent {
			return nil, &CallError{Class: Transient, Reason: "not delivered: " + errText(err)}
		}
		return nil, &CallError{Class: Unconfirmed, Reason: "sent, no answer: " + errText(err)}
	}
	if resp.StatusCode < 400 {
		return resp, nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	msg := ""
	if reason != nil {
		msg = reason(resp.StatusCode, body)
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	ce := &CallError{Status: resp.StatusCode, Reason: msg}
	switch s := resp.StatusCode; {
	case s == http.StatusUnauthorized:
		ce.Class = Unauthorized
	case s == http.StatusTooManyRequests || s == http.StatusBadGateway || s == http.StatusServiceUnavailable || s == http.StatusRequestTimeout:
		ce.Class = Transient
	case s == http.StatusInternalServerError || s == http.StatusGatewayTimeout || s > 504:
		ce.Class = Unconfirmed
		if idempotent {
			ce.Class = Transient
		}
	default:
		ce.Class = Refused
	}
	if v := resp.Header.Get("Retry-After"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			ce.RetryAfter = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(v); err == nil {
			ce.RetryAfter = max(time.Until(t), 0)
		}
	}
	return nil, ce
}

// errText describes a transport error without the URL (which may carry a
// query the provider treats as secret).
func errText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "timeout"
		}
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	return err.Error()
}

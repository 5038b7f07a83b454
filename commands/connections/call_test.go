package connections_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// apiReason reads {"error": {"code": ...}} answers.
func apiReason(_ int, body []byte) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

// dropAfterRead reads the whole request, then closes the connection
// without answering.
func dropAfterRead(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

func answer(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func TestCallClassifies(t *testing.T) {
	date := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	cases := []struct {
		name       string
		h          http.HandlerFunc
		idempotent bool
		class      connections.Class
		status     int
		reason     string // substring
		retryAfter time.Duration
		retryApprx bool
	}{
		{"ok", answer(200, nil, `{}`), false, "", 200, "", 0, false},
		{"created", answer(201, nil, `{}`), false, "", 201, "", 0, false},
		{"401", answer(401, nil, `{"error":{"code":"token_expired"}}`), false, connections.Unauthorized, 401, "token_expired", 0, false},
		{"429", answer(429, map[string]string{"Retry-After": "7"}, `{"error":{"code":"rate_limited"}}`), false,
			connections.Transient, 429, "rate_limited", 7 * time.Second, false},
		{"503 date", answer(503, map[string]string{"Retry-After": date}, ``), false, connections.Transient, 503,
			"Service Unavailable", time.Hour, true},
		{"502", answer(502, nil, `<html>bad gateway</html>`), false, connections.Transient, 502, "Bad Gateway", 0, false},
		{"408", answer(408, nil, ``), false, connections.Transient, 408, "Request Timeout", 0, false},
		{"429 bad retry-after", answer(429, map[string]string{"Retry-After": "soon"}, ``), false, connections.Transient, 429, "", 0, false},
		{"500", answer(500, nil, `{"error":{"code":"internal"}}`), false, connections.Unconfirmed, 500, "internal", 0, false},
		{"500 idempotent", answer(500, nil, ``), true, connections.Transient, 500, "Internal Server Error", 0, false},
		{"504", answer(504, nil, ``), false, connections.Unconfirmed, 504, "Gateway Timeout", 0, false},
		{"504 idempotent", answer(504, nil, ``), true, connections.Transient, 504, "", 0, false},
		{"404", answer(404, nil, `{"error":{"code":"channel_not_found"}}`), true, connections.Refused, 404, "channel_not_found", 0, false},
		{"400 no reason", answer(400, nil, `not json`), false, connections.Refused, 400, "Bad Request", 0, false},
		{"403", answer(403, nil, `{"error":{"code":"missing_scope"}}`), false, connections.Refused, 403, "missing_scope", 0, false},
		{"422", answer(422, nil, `{"error":{"code":"invalid"}}`), false, connections.Refused, 422, "invalid", 0, false},
		{"dropped", dropAfterRead, false, connections.Unconfirmed, 0, "sent, no answer", 0, false},
		{"dropped idempotent", dropAfterRead, true, connections.Transient, 0, "not delivered", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/act?secret=s3cr3t", strings.NewReader(`{"text":"hi"}`))
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := connections.Call(context.Background(), client, req, c.idempotent, apiReason)
			if c.class == "" {
				if err != nil || resp == nil || resp.StatusCode != c.status {
					t.Fatalf("%v %v", resp, err)
				}
				resp.Body.Close()
				return
			}
			if resp != nil {
				t.Fatalf("a response with an error: %d", resp.StatusCode)
			}
			var ce *connections.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T)", err, err)
			}
			if ce.Class != c.class || ce.Status != c.status || !strings.Contains(ce.Reason, c.reason) || connections.ClassOf(err) != c.class {
				t.Fatalf("got %+v, want %s %d %q", ce, c.class, c.status, c.reason)
			}
			if c.retryApprx {
				if ce.RetryAfter < c.retryAfter-5*time.Second || ce.RetryAfter > c.retryAfter {
					t.Fatalf("retry after %v", ce.RetryAfter)
				}
			} else if ce.RetryAfter != c.retryAfter {
				t.Fatalf("retry after %v, want %v", ce.RetryAfter, c.retryAfter)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Fatalf("the URL's query is in the error: %v", err)
			}
		})
	}
}

func TestCallTransportFailures(t *testing.T) {
	ctx := context.Background()
	// A refused connection (a closed port): nothing was sent.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, idem := range []bool{false, true} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/x?token=s3cr3t", strings.NewReader("x"))
		_, err = connections.Call(ctx, http.DefaultClient, req, idem, nil)
		if connections.ClassOf(err) != connections.Transient || !strings.Contains(err.Error(), "not delivered") ||
			strings.Contains(err.Error(), "s3cr3t") {
			t.Fatalf("refused connection (idempotent %v): %v", idem, err)
		}
	}

	// No answer within the deadline after the request was written:
	// unconfirmed, reported as a timeout.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-release
	}))
	defer srv.Close()
	defer close(release)
	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("x"))
	_, err = connections.Call(tctx, http.DefaultClient, req, false, nil)
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != connections.Unconfirmed || ce.Reason != "sent, no answer: timeout" {
		t.Fatalf("timeout: %v", err)
	}

	// ClassOf of other errors, and Fail.
	if connections.ClassOf(errors.New("x")) != "" || connections.ClassOf(nil) != "" {
		t.Fatal("ClassOf of a plain error")
	}
	f := connections.Fail(connections.Refused, 404, "gone")
	if f.Error() != "refused (HTTP 404): gone" || connections.Fail(connections.Transient, 0, "x").Error() != "transient: x" {
		t.Fatal(f.Error())
	}
}

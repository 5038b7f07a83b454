package readapi_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/httpx"
)

const (
	testMaxBody   = 1024
	internalCause = "pq: connection to 10.0.0.7 refused (password=hunter2)"
	panicText     = "kaboom: secret panic value"
)

// fakeHealth is a test double for the database and projector checks.
type fakeHealth struct{ r readapi.Readiness }

func (f fakeHealth) Readiness(context.Context) readapi.Readiness { return f.r }

// logBuffer is a log sink safe to read while the server writes to it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type testSurface struct {
	srv  *httptest.Server
	reg  *prometheus.Registry
	logs *logBuffer
}

// startSurface builds surface name with a fake health source, registers the
// test-only routes a context would, and serves it over real HTTP.
func startSurface(t *testing.T, name string, health readapi.Readiness) testSurface {
	t.Helper()
	logs := &logBuffer{}
	reg := prometheus.NewRegistry()
	s, err := readapi.NewSurface(name, readapi.Deps{
		Logger:       slog.New(slog.NewJSONHandler(logs, nil)),
		Registry:     reg,
		Health:       fakeHealth{health},
		Version:      "abc1234",
		MaxBodyBytes: testMaxBody,
		Clock:        func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("X", 3600)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Router.HandleFunc("/test/json", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Email  string `json:"email"`
			Amount int    `json:"amount"`
			Note   string `json:"note"`
		}
		// Tells the body-limit test that the handler ran, and how the body came.
		w.Header().Set("X-Test-Handler", "transfer-encoding="+strings.Join(r.TransferEncoding, ","))
		if err := httpx.DecodeJSON(r, &in); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if err := httpx.WriteJSON(w, http.StatusOK, in); err != nil {
			httpx.WriteError(w, r, err)
		}
	}).Methods(http.MethodPost)
	s.Router.HandleFunc("/test/invalid", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, kernel.Invalid("email", "required", "an email address is required"))
	}).Methods(http.MethodGet)
	s.Router.HandleFunc("/test/internal", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, errors.New(internalCause))
	}).Methods(http.MethodGet)
	s.Router.HandleFunc("/test/panic", func(w http.ResponseWriter, r *http.Request) {
		panic(panicText)
	}).Methods(http.MethodGet)
	srv := httptest.NewServer(s.Handler)
	t.Cleanup(srv.Close)
	return testSurface{srv: srv, reg: reg, logs: logs}
}

// healthPath is a route every surface has.
func healthPath(surface string) string {
	if surface == "builder" {
		return "/api/health"
	}
	return "/health"
}

// call sends a request with the standard client and returns the response
// with its body read. header holds name, value pairs.
func call(t *testing.T, method, url, contentType string, body io.Reader, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return send(t, req)
}

func send(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, b
}

// logLine returns the first log line containing all of subs, waiting briefly
// because some lines (the access log) are written after the response.
func logLine(t *testing.T, logs *logBuffer, subs ...string) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
	lines:
		for _, l := range strings.Split(logs.String(), "\n") {
			for _, s := range subs {
				if !strings.Contains(l, s) {
					continue lines
				}
			}
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line contains %q; log:\n%s", subs, logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

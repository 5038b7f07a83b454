package httpx_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/httpx"
)

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

// serve runs rt behind the standard chain of a surface with the given style
// and returns the server and the log it writes.
func serve(t *testing.T, style httpx.Style, limit int64, rt *mux.Router, mws ...func(http.Handler) http.Handler) (*httptest.Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	chain := append([]func(http.Handler) http.Handler{
		httpx.WithSurface(httpx.SurfaceInfo{Name: "test", Style: style, Logger: slog.New(slog.NewJSONHandler(logs, nil))}),
		httpx.AssignRequestID,
	}, mws...)
	chain = append(chain, httpx.AccessLog, httpx.Recover, httpx.BodyLimit(limit))
	srv := httptest.NewServer(httpx.Chain(rt, chain...))
	t.Cleanup(srv.Close)
	return srv, logs
}

// do sends a request and returns the response with its body read.
func do(t *testing.T, method, url, contentType string, body io.Reader, header ...string) (*http.Response, []byte) {
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
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, b
}

// problem decodes a problem-details body, failing on unknown keys.
func problem(t *testing.T, resp *http.Response, body []byte) map[string]any {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json; body %s", ct, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, body)
	}
	allowed := "type title status detail instance code field rule request_id"
	for k := range m {
		if !strings.Contains(" "+allowed+" ", " "+k+" ") {
			t.Errorf("unexpected key %q in problem body %s", k, body)
		}
	}
	return m
}

// Package actiontest runs loopback fakes of the write-back providers
// (Slack, Gmail and Google Calendar, GitHub, Notion) for tests: each is an
// httptest server that speaks the provider's API for exactly the calls the
// adapters of commands/memory/actions make (OAuth token, revoke, identity,
// the action), checks the bearer token, the version headers and the
// bodies, answers the provider's real error shapes, and records every
// request. A fake's Settings point an adapter at it; FailNext makes the
// next call of a path answer a chosen failure (or drop the connection).
package actiontest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one request a fake received.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
}

// Failure is a scripted answer: Status, Header and Body, or with Drop the
// connection closed after the request was read (no answer at all).
type Failure struct {
	Status int
	Header map[string]string
	Body   string
	Drop   bool
}

// Recorder keeps a fake's requests and scripted failures.
type Recorder struct {
	mu    sync.Mutex
	reqs  []Request
	fails map[string][]Failure
}

// Requests returns the requests received so far.
func (r *Recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

// Calls returns the requests received for method and path.
func (r *Recorder) Calls(method, path string) []Request {
	var out []Request
	for _, q := range r.Requests() {
		if q.Method == method && q.Path == path {
			out = append(out, q)
		}
	}
	return out
}

// FailNext makes the next request for method and path answer f (several
// calls queue several failures).
func (r *Recorder) FailNext(method, path string, f Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fails == nil {
		r.fails = map[string][]Failure{}
	}
	r.fails[method+" "+path] = append(r.fails[method+" "+path], f)
}

// record reads and keeps req, and answers a scripted failure if one is
// queued (true: answered).
func (r *Recorder) record(w http.ResponseWriter, req *http.Request) ([]byte, bool) {
	body, _ := io.ReadAll(req.Body)
	req.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.reqs = append(r.reqs, Request{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery,
		Header: req.Header.Clone(), Body: body})
	key := req.Method + " " + req.URL.Path
	var f *Failure
	if q := r.fails[key]; len(q) > 0 {
		f = &q[0]
		r.fails[key] = q[1:]
	}
	r.mu.Unlock()
	if f == nil {
		return body, false
	}
	if f.Drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return body, true
			}
		}
		panic(http.ErrAbortHandler)
	}
	for k, v := range f.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(f.Status)
	_, _ = io.WriteString(w, f.Body)
	return body, true
}

// start runs h on a loopback server closed when t ends.
func start(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// reply writes a JSON answer.
func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// bearer returns the request's bearer token ("" when there is none).
func bearer(req *http.Request) string {
	v, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return v
}

// isJSON reports whether the request says it carries JSON.
func isJSON(req *http.Request) bool {
	return strings.HasPrefix(req.Header.Get("Content-Type"), "application/json")
}

// trimmed is body without surrounding space, for comparisons.
func trimmed(b []byte) string { return string(bytes.TrimSpace(b)) }

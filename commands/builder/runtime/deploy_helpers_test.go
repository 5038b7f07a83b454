//go:build unix

package runtime

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fastProbe is the health check of the tests: short intervals, a generous
// deadline (only the third-probe case narrows it).
var fastProbe = Probe{Interval: 40 * time.Millisecond, Timeout: time.Second, Healthy: 3, Deadline: 15 * time.Second}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// recorder is a Runtime that keeps every instance the Process started.
type recorder struct {
	*Process
	mu        sync.Mutex
	instances []*ProcessInstance
}

func (r *recorder) Start(ctx context.Context, app App) (Instance, error) {
	in, err := r.Process.Start(ctx, app)
	if err == nil {
		r.mu.Lock()
		r.instances = append(r.instances, in.(*ProcessInstance))
		r.mu.Unlock()
	}
	return in, err
}

func (r *recorder) all() []*ProcessInstance {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*ProcessInstance(nil), r.instances...)
}

// env is one test's runtime, deployer and log.
type env struct {
	t   *testing.T
	rt  *recorder
	d   *Deployer
	log *syncBuffer
}

// newEnv returns a Process runtime on a fresh data directory and a Deployer
// with probe, closed when the test ends.
func newEnv(t *testing.T, probe Probe, opts ...Option) *env {
	t.Helper()
	needNode(t)
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p, err := NewProcess(ProcessConfig{DataDir: t.TempDir(), Grace: 2 * time.Second, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, rt: &recorder{Process: p}, log: logs}
	e.d = NewDeployer(e.rt, probe, logger, opts...)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := e.d.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		for _, in := range e.rt.all() {
			if !pidGone(in.PID()) {
				t.Errorf("pid %d still running after Close", in.PID())
			}
		}
	})
	return e
}

// mustRedeploy redeploys and fails the test unless it switched.
func (e *env) mustRedeploy(a App) Result {
	e.t.Helper()
	res, err := e.d.Redeploy(context.Background(), a)
	if err != nil || !res.Switched {
		e.t.Fatalf("redeploy %s: err %v, switched %v, reason %q\nlog:\n%s", a.Version, err, res.Switched, res.Reason, res.LogTail)
	}
	return res
}

// get sends one request through h and returns the status and body.
func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := serve(h, path)
	return rec.Code, rec.Body.String()
}

// serve sends a GET through h.
func serve(h http.Handler, path string) *httptest.ResponseRecorder {
	return serveRequest(h, http.MethodGet, path, "")
}

// serveRequest sends one request through h.
func serveRequest(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, "http://preview"+path, strings.NewReader(body)))
	return rec
}

//go:build unix

package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRedeployLosesNoRequest runs a loop of requests through the Handler
// (quick ones and ones that take a while, over keep-alive connections)
// during a good redeploy, and expects every one of them to succeed.
func TestRedeployLosesNoRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const co = "01COLOOP"
	e.mustRedeploy(app(t, co, "v1", "healthy"))
	srv := httptest.NewServer(e.d.Handler(co))
	defer srv.Close()

	var answers sync.Map // version -> *atomic.Int64
	count := func(v string) int64 {
		c, _ := answers.LoadOrStore(v, new(atomic.Int64))
		return c.(*atomic.Int64).Load()
	}
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path := "/"
				if (w+i)%3 == 0 {
					path = "/slow?ms=30"
				}
				resp, err := srv.Client().Get(srv.URL + path)
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
					continue
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %d %q %v", path, resp.StatusCode, body, err))
					mu.Unlock()
					continue
				}
				c, _ := answers.LoadOrStore(string(body), new(atomic.Int64))
				c.(*atomic.Int64).Add(1)
			}
		})
	}
	eventually(t, 10*time.Second, "requests answered by v1", func() bool { return count("v1") >= 50 })
	e.mustRedeploy(app(t, co, "v2", "healthy"))
	eventually(t, 10*time.Second, "requests answered by v2", func() bool { return count("v2") >= 50 })
	close(stop)
	wg.Wait()

	if len(failures) > 0 {
		t.Fatalf("%d requests failed during the redeploy, first: %s", len(failures), failures[0])
	}
	if old := e.rt.all()[0]; !pidGone(old.PID()) {
		t.Errorf("the old instance (pid %d) still runs", old.PID())
	}
}

// TestRedeployDrainsInFlight: a request in flight on the old instance when
// the traffic switches completes there before the old instance stops.
func TestRedeployDrainsInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const co = "01CODRAIN"
	e.mustRedeploy(app(t, co, "v1", "healthy"))
	srv := httptest.NewServer(e.d.Handler(co))
	defer srv.Close()
	done := make(chan string, 1)
	go func() {
		resp, err := srv.Client().Get(srv.URL + "/slow?ms=1500")
		if err != nil {
			done <- err.Error()
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		done <- fmt.Sprintf("%d %s", resp.StatusCode, body)
	}()
	old := e.d.current(co)
	eventually(t, 5*time.Second, "the slow request in flight", func() bool { return inflight(old) == 1 })
	e.mustRedeploy(app(t, co, "v2", "healthy"))
	select {
	case got := <-done:
		if got != "200 v1" {
			t.Errorf("the request in flight during the switch got %q, want 200 v1", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request in flight never completed")
	}
	if !pidGone(e.rt.all()[0].PID()) {
		t.Error("the old instance still runs")
	}
}

// TestDrainTimeout: a request longer than the drain timeout does not hold
// the redeploy; the old instance is stopped under it.
func TestDrainTimeout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe, WithDrainTimeout(100*time.Millisecond))
	const co = "01CODRAINTIMEOUT"
	e.mustRedeploy(app(t, co, "v1", "healthy"))
	h := e.d.Handler(co)
	done := make(chan int, 1)
	go func() { done <- serve(h, "/slow?ms=30000").Code }()
	old := e.d.current(co)
	eventually(t, 5*time.Second, "the slow request in flight", func() bool { return inflight(old) == 1 })
	e.mustRedeploy(app(t, co, "v2", "healthy"))
	select {
	case code := <-done:
		if code != http.StatusBadGateway {
			t.Errorf("the request cut by the stop got %d, want 502", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request on the stopped instance never ended")
	}
	eventually(t, 5*time.Second, "the drain warning in the log", func() bool {
		return strings.Contains(e.log.String(), "drain timed out")
	})
}

// TestConcurrentRedeploys: redeploys of one company run one after another;
// each switches, each replaced instance is stopped, and one instance serves.
func TestConcurrentRedeploys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const co = "01COCONCURRENT"
	e.mustRedeploy(app(t, co, "v0", "healthy"))
	versions := []string{"v1", "v2", "v3", "v4"}
	results := make([]Result, len(versions))
	errs := make([]error, len(versions))
	var wg sync.WaitGroup
	for i, v := range versions {
		wg.Go(func() { results[i], errs[i] = e.d.Redeploy(context.Background(), app(t, co, v, "healthy")) })
	}
	wg.Wait()
	next := map[string]string{}
	for i, res := range results {
		if errs[i] != nil || !res.Switched {
			t.Fatalf("redeploy %s: %v, %+v", versions[i], errs[i], res)
		}
		next[res.Previous] = res.Version
	}
	// The redeploys form one chain from v0: each replaced the one before.
	v, seen := "v0", 0
	for next[v] != "" {
		v = next[v]
		seen++
	}
	if seen != len(versions) {
		t.Fatalf("the redeploys do not form one chain from v0: %v", next)
	}
	checkServes(t, e.d, co, e.d.Handler(co), v)
	running := 0
	for _, in := range e.rt.all() {
		if !pidGone(in.PID()) {
			running++
		}
	}
	if running != 1 {
		t.Errorf("%d instances running, want 1", running)
	}
}

// TestRedeployWaitIsBoundedByCtx: a second redeploy waits for the first, as
// long as its ctx allows.
func TestRedeployWaitIsBoundedByCtx(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const co = "01COWAIT"
	e.mustRedeploy(app(t, co, "v1", "healthy"))
	first := make(chan Result, 1)
	go func() {
		res, _ := e.d.RedeployWith(context.Background(), app(t, co, "v2", "never-listens"), Probe{Deadline: 2 * time.Second})
		first <- res
	}()
	eventually(t, 5*time.Second, "the first redeploy started", func() bool { return len(e.rt.all()) == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res, err := e.d.Redeploy(ctx, app(t, co, "v3", "healthy"))
	if !errors.Is(err, context.DeadlineExceeded) || res.Switched || !strings.Contains(res.Reason, "another redeploy") {
		t.Errorf("second redeploy: %v, %+v", err, res)
	}
	if len(e.rt.all()) != 2 {
		t.Error("the second redeploy started an instance while the first ran")
	}
	if res := <-first; res.Switched {
		t.Error("the never-listening app switched")
	}
	checkServes(t, e.d, co, e.d.Handler(co), "v1")
}

// TestRedeployCancelled: a redeploy whose ctx ends while probing stops its
// instance and leaves the old one serving.
func TestRedeployCancelled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const co = "01COCANCEL"
	e.mustRedeploy(app(t, co, "v1", "healthy"))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := e.d.Redeploy(ctx, app(t, co, "v2", "never-listens"))
	if !errors.Is(err, context.DeadlineExceeded) || res.Switched || !strings.Contains(res.Reason, "cancelled") {
		t.Fatalf("%v, %+v", err, res)
	}
	checkServes(t, e.d, co, e.d.Handler(co), "v1")
	if in := e.rt.all()[1]; !pidGone(in.PID()) {
		t.Errorf("the cancelled instance (pid %d) still runs", in.PID())
	}
}

// inflight returns the requests in flight through b.
func inflight(b *backend) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.active
}

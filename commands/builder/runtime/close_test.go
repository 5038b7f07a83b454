//go:build unix

package runtime

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestCloseStopsEverything: Close stops serving instances (and their
// children) and a redeploy in progress, and leaves no process behind.
func TestCloseStopsEverything(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	e.mustRedeploy(app(t, "01COCLOSEA", "v1", "healthy", "SPAWN_CHILD", "1"))
	e.mustRedeploy(app(t, "01COCLOSEB", "v1", "healthy"))
	child := childPID(t, e.rt.all()[0])
	pending := make(chan error, 1)
	go func() {
		res, err := e.d.Redeploy(context.Background(), app(t, "01COCLOSEB", "v2", "never-listens"))
		if res.Switched {
			err = errors.New("switched")
		}
		pending <- err
	}()
	eventually(t, 5*time.Second, "the pending redeploy started its instance", func() bool { return len(e.rt.all()) == 3 })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.d.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-pending:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("the redeploy in progress returned %v, want ErrClosed", err)
		}
	default:
		t.Error("Close returned before the redeploy in progress had finished")
	}
	for _, in := range e.rt.all() {
		if !pidGone(in.PID()) {
			t.Errorf("pid %d still runs after Close", in.PID())
		}
	}
	eventually(t, 5*time.Second, "the child process gone", func() bool { return pidGone(child) })
	for _, co := range []string{"01COCLOSEA", "01COCLOSEB"} {
		if v, ok := e.d.Current(co); ok {
			t.Errorf("%s: Current = %q after Close", co, v)
		}
		if rec := serve(e.d.Handler(co), "/"); rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s: %d after Close", co, rec.Code)
		}
	}
	if _, err := e.d.Redeploy(context.Background(), app(t, "01COCLOSEA", "v2", "healthy")); !errors.Is(err, ErrClosed) {
		t.Errorf("Redeploy after Close: %v", err)
	}
	if err := e.d.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestStopOneCompany: Stop takes one company's app out of service and
// leaves the others serving.
func TestStopOneCompany(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	e.mustRedeploy(app(t, "01COSTOPA", "v1", "healthy"))
	e.mustRedeploy(app(t, "01COSTOPB", "v1", "healthy"))
	if err := e.d.Stop(context.Background(), "01COSTOPA"); err != nil {
		t.Fatal(err)
	}
	if !pidGone(e.rt.all()[0].PID()) {
		t.Error("the stopped company's instance still runs")
	}
	if rec := serve(e.d.Handler("01COSTOPA"), "/"); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("stopped company: %d", rec.Code)
	}
	checkServes(t, e.d, "01COSTOPB", e.d.Handler("01COSTOPB"), "v1")
}

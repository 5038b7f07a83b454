//go:build unix

package runtime

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRedeploy deploys a healthy v1, then each fixture as v2: the healthy one
// takes the traffic, every other one is rolled back while v1 keeps serving.
func TestRedeploy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fixture string
		probe   Probe // zero fields: fastProbe's
		switch_ bool
		reason  string   // in Result.Reason
		logs    []string // in Result.LogTail
	}{
		{name: "healthy", fixture: "healthy", switch_: true},
		{name: "never listens", fixture: "never-listens", probe: Probe{Deadline: 2 * time.Second},
			reason: "not healthy within 2s", logs: []string{"never opens its port", "does not exist", "[runtime] stopping: SIGTERM"}},
		{name: "answers 500", fixture: "unhealthy-500", probe: Probe{Deadline: 2 * time.Second},
			reason: "the last answer was status 500", logs: []string{"healthz: database unavailable"}},
		// Healthy only from its third probe: the two 503s and the three
		// consecutive 200s it needs take five probes, the fifth sent at least
		// 4 x 400 ms after the first, past the 1.5 s deadline. (How many of
		// them the app answers depends on how soon it listens.)
		{name: "healthy only from its third probe", fixture: "third-probe",
			probe:  Probe{Interval: 400 * time.Millisecond, Deadline: 1500 * time.Millisecond},
			reason: "not healthy within 1.5s", logs: []string{"[runtime] started node server.js"}},
		{name: "crashes at start", fixture: "crashes",
			reason: "the app exited before it was healthy", logs: []string{"STRIPE_KEY is not set", "[runtime] exited: exit status 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, fastProbe)
			co := "01CO" + strings.ToUpper(strings.ReplaceAll(tc.fixture, "-", ""))
			h := e.d.Handler(co)
			first := e.mustRedeploy(app(t, co, "v1", "healthy"))
			if first.Previous != "" {
				t.Errorf("first deploy: Previous = %q", first.Previous)
			}
			checkHealthyProbes(t, first, fastProbe.Healthy)

			res, err := e.d.RedeployWith(context.Background(), app(t, co, "v2", tc.fixture), tc.probe)
			if err != nil {
				t.Fatalf("Redeploy: %v", err)
			}
			if res.Version != "v2" || res.Previous != "v1" {
				t.Errorf("Version, Previous = %q, %q, want v2, v1", res.Version, res.Previous)
			}
			if res.Switched != tc.switch_ {
				t.Fatalf("Switched = %v, want %v (reason %q)\n%s", res.Switched, tc.switch_, res.Reason, res.LogTail)
			}
			instances := e.rt.all()
			v1, v2 := instances[0], instances[1]
			if tc.switch_ {
				checkHealthyProbes(t, res, fastProbe.Healthy)
				checkServes(t, e.d, co, h, "v2")
				if !pidGone(v1.PID()) {
					t.Errorf("the old instance (pid %d) still runs after the switch", v1.PID())
				}
				return
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("Reason = %q, want it to contain %q", res.Reason, tc.reason)
			}
			for _, want := range tc.logs {
				if !strings.Contains(res.LogTail, want) {
					t.Errorf("LogTail lacks %q:\n%s", want, res.LogTail)
				}
			}
			checkNeverHealthy(t, res, fastProbe.Healthy)
			checkServes(t, e.d, co, h, "v1")
			if !pidGone(v2.PID()) {
				t.Errorf("the failed instance (pid %d) still runs", v2.PID())
			}
			if pidGone(v1.PID()) {
				t.Errorf("the old instance (pid %d) was stopped by a failed redeploy", v1.PID())
			}
		})
	}
}

// TestRedeployThirdProbeWaitsForConsecutiveProbes: with time enough, the app
// healthy from its third probe switches, and only after three 2xx in a row.
func TestRedeployThirdProbeWaitsForConsecutiveProbes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	res := e.mustRedeploy(app(t, "01COTHIRD", "v1", "third-probe"))
	checkHealthyProbes(t, res, 3)
	warming := 0
	for _, p := range res.Probes {
		if p.Status == http.StatusServiceUnavailable {
			warming++
		}
	}
	if warming != 2 {
		t.Errorf("%d probes answered 503, want the fixture's 2: %+v", warming, res.Probes)
	}
}

// TestFirstDeploy: nothing serves before a first deploy, and a first deploy
// that fails leaves nothing serving.
func TestFirstDeploy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	h := e.d.Handler("01COFIRST")
	rec := serve(h, "/")
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "not running") || rec.Header().Get("Retry-After") == "" {
		t.Errorf("before any deploy: %d %q", rec.Code, rec.Body.String())
	}
	res, err := e.d.RedeployWith(context.Background(), app(t, "01COFIRST", "v1", "unhealthy-500"), Probe{Deadline: 500 * time.Millisecond})
	if err != nil || res.Switched || res.Previous != "" || res.Reason == "" {
		t.Fatalf("failed first deploy: err %v, %+v", err, res)
	}
	if v, ok := e.d.Current("01COFIRST"); ok {
		t.Errorf("Current = %q after a failed first deploy", v)
	}
	if rec := serve(h, "/"); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("after a failed first deploy: %d", rec.Code)
	}
	res = e.mustRedeploy(app(t, "01COFIRST", "v2", "healthy"))
	if res.Previous != "" {
		t.Errorf("Previous = %q", res.Previous)
	}
	checkServes(t, e.d, "01COFIRST", h, "v2")
	if st, ok := e.d.Status("01COFIRST"); !ok || !st.Running || st.Version != "v2" {
		t.Errorf("Status = %+v, %v", st, ok)
	}
}

// TestRedeployStartFailure: a runtime that cannot start the app is an error,
// and the old instance keeps serving.
func TestRedeployStartFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	e.mustRedeploy(app(t, "01COSTART", "v1", "healthy"))
	bad := app(t, "01COSTART", "v2", "healthy")
	bad.Env["BROKEN"] = "a\x00b"
	res, err := e.d.Redeploy(context.Background(), bad)
	if !errors.Is(err, ErrInvalidApp) || res.Switched || !strings.Contains(res.Reason, "could not be started") {
		t.Fatalf("err %v, %+v", err, res)
	}
	checkServes(t, e.d, "01COSTART", e.d.Handler("01COSTART"), "v1")
	if _, err := e.d.Redeploy(context.Background(), App{CompanyID: "../etc", Version: "v1"}); !errors.Is(err, ErrInvalidApp) {
		t.Errorf("a company id that is not a name: %v", err)
	}
}

// TestRecordsKeptAcrossRedeploys: DATA_FILE is the same file in every version.
func TestRecordsKeptAcrossRedeploys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	e.mustRedeploy(app(t, "01CORECORDS", "v1", "healthy"))
	h := e.d.Handler("01CORECORDS")
	rec := serveRequest(h, http.MethodPost, "/records", `{"name":"Ada"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST /records: %d %s", rec.Code, rec.Body.String())
	}
	e.mustRedeploy(app(t, "01CORECORDS", "v2", "healthy"))
	if code, body := get(t, h, "/records"); code != http.StatusOK || !strings.Contains(body, `"Ada"`) {
		t.Errorf("v2 GET /records: %d %s", code, body)
	}
}

// TestSecretsNeverLogged: environment values appear in no log line and no
// Result field the runtime writes.
func TestSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fastProbe)
	const secret = "sk_live_never_in_a_log"
	e.mustRedeploy(app(t, "01COSECRET", "v1", "healthy", "STRIPE_SECRET", secret))
	res, _ := e.d.RedeployWith(context.Background(), app(t, "01COSECRET", "v2", "unhealthy-500", "STRIPE_SECRET", secret), Probe{Deadline: time.Second})
	if res.Switched {
		t.Fatal("the 500 app switched")
	}
	if strings.Contains(e.log.String(), secret) || strings.Contains(res.Reason, secret) || strings.Contains(res.LogTail, secret) {
		t.Errorf("a secret value was logged:\n%s", e.log.String())
	}
	if !strings.Contains(e.log.String(), "redeploy rolled back") {
		t.Errorf("the log misses the rollback:\n%s", e.log.String())
	}
}

// checkHealthyProbes: a switch happened right after Healthy consecutive 2xx.
func checkHealthyProbes(t *testing.T, res Result, healthy int) {
	t.Helper()
	n := len(res.Probes)
	if n < healthy {
		t.Fatalf("switched after %d probes, want at least %d", n, healthy)
	}
	for i, p := range res.Probes[n-healthy:] {
		if !p.ok() {
			t.Errorf("probe %d of the last %d is not healthy: %+v", i+1, healthy, p)
		}
	}
	checkNeverHealthy(t, Result{Probes: res.Probes[:n-1]}, healthy)
}

// checkNeverHealthy: no run of Healthy consecutive 2xx in the probes.
func checkNeverHealthy(t *testing.T, res Result, healthy int) {
	t.Helper()
	run := 0
	for _, p := range res.Probes {
		if !p.ok() {
			run = 0
			continue
		}
		if run++; run >= healthy {
			t.Fatalf("the probes had %d consecutive 2xx before the Result's end: %+v", healthy, res.Probes)
		}
	}
}

// checkServes: the company's Handler and Current both say version.
func checkServes(t *testing.T, d *Deployer, company string, h http.Handler, version string) {
	t.Helper()
	if code, body := get(t, h, "/"); code != http.StatusOK || body != version {
		t.Errorf("GET / = %d %q, want 200 %q", code, body, version)
	}
	if v, ok := d.Current(company); !ok || v != version {
		t.Errorf("Current = %q, %v, want %q", v, ok, version)
	}
}

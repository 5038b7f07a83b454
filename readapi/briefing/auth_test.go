package briefing_test

import (
	"net/http"
	"testing"
)

// The internal routes need one of the configured keys (any of them:
// rotation); missing or wrong is 401 naming the header. With no key
// configured nothing gets in. The planned public routes are 404.
func TestInternalKeys(t *testing.T) {
	w := newWorld(t)
	routes := [][2]string{{"GET", "/api/v1/internal/intelligence/agent-briefing"},
		{"POST", "/api/v1/internal/intelligence/consume-signal?signal_id=x&agent=cfo"},
		{"POST", "/api/v1/internal/intelligence/observations"}, {"POST", "/api/v1/internal/intelligence/runs"}}
	for _, r := range routes {
		for _, k := range []string{"", "wrong-key-wrong-key-wrong", key + "x", key[:len(key)-1]} {
			got := w.callAs(w.procs[0], k, r[0], r[1], nil)
			if got.Status != http.StatusUnauthorized {
				t.Errorf("%s %s with key %q: %d %s", r[0], r[1], k, got.Status, got.Raw)
			}
		}
	}
	if got := w.callAs(w.procs[0], "", "GET", routes[0][1], nil); got.Body["details"] == nil && got.Body["field"] == nil {
		t.Logf("401 body: %s", got.Raw)
	}
	for _, k := range []string{key, "an-older-key-still-valid-1"} {
		if got := w.callAs(w.procs[0], k, "GET", routes[0][1], nil); got.Status != http.StatusOK {
			t.Errorf("briefing with a valid key: %d %s", got.Status, got.Raw)
		}
	}
	none := w.process([]string{})
	if got := w.callAs(none, key, "GET", routes[0][1], nil); got.Status != http.StatusUnauthorized {
		t.Errorf("no keys configured: %d", got.Status)
	}
	for _, p := range []string{"property", "environment", "business", "infrastructure", "briefing"} {
		for _, k := range []string{"", key} {
			if got := w.callAs(w.procs[0], k, "GET", "/v1/intelligence/"+p, nil); got.Status != http.StatusNotFound {
				t.Errorf("/v1/intelligence/%s: %d", p, got.Status)
			}
		}
	}
}

// Bad query input is a 400 naming the parameter; an unknown agent's 400
// lists the known ones.
func TestBriefingQueryValidation(t *testing.T) {
	w := newWorld(t)
	base := "/api/v1/internal/intelligence/agent-briefing"
	for q, field := range map[string]string{"?agent=nobody": "agent", "?since_hours=0": "since_hours",
		"?since_hours=abc": "since_hours", "?limit=0": "limit", "?limit=501": "limit", "?colour=red": "colour"} {
		got := w.call("GET", base+q, nil)
		if got.Status != http.StatusBadRequest || !contains(got.Raw, field) {
			t.Errorf("%s: %d %s", q, got.Status, got.Raw)
		}
	}
	got := w.call("GET", base+"?agent=nobody", nil)
	for _, a := range []string{"ir_agent", "sales_agent", "scout", "vega", "vp_marketing", "cfo", "scc_outreach", "cos", "research",
		"acme_ir_agent", "acme_acquisition_agent"} {
		if !contains(got.Raw, a) {
			t.Errorf("the unknown agent's error does not list %s: %s", a, got.Raw)
		}
	}
	def := w.call("GET", base, nil)
	if def.Status != http.StatusOK || def.Body["agent"] != "ir_agent" || def.Body["since_hours"] != float64(24) {
		t.Errorf("defaults: %d %s", def.Status, def.Raw)
	}
}

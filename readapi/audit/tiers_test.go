package audit_test

import (
	"net/http"
	"strings"
	"testing"
)

// With the tiers enforced (STRATA_AUDIT_TIERS=enforced), the seed's tier
// table gates the endpoints: scans, crawls and badges for everyone, full
// reports and their unlocking from Pro, benchmarks from Business, the lead
// API for Agency. Below the tier, a caller without credentials gets 401
// with WWW-Authenticate and one with them 403 plan_required naming both
// tiers; credentials that do not authenticate are 401. A request that
// passes the gate reaches the handler (here, its validation: 400).
func TestEnforcedTiersGateTheEndpoints(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, options{enforce: true})
	const base = "/api/v1/public/ax-audit"
	type route struct{ method, path, min string }
	routes := []route{
		{"POST", base, "free"},
		{"POST", base + "/crawl", "free"},
		{"GET", base + "/badge", "free"},
		{"POST", base + "/full", "pro"},
		{"GET", base + "/reports/not-a-report", "pro"},
		{"POST", base + "/unlock", "pro"},
		{"GET", base + "/benchmark", "business"},
		{"GET", base + "/benchmark/saas", "business"},
		{"GET", base + "/benchmark/saas/percentile", "business"},
		{"POST", base + "/leads", "agency"},
	}
	rank := map[string]int{"free": 0, "pro": 1, "business": 2, "agency": 3}
	label := map[string]string{"free": "Free", "pro": "Pro", "business": "Business", "agency": "Agency"}
	body := func(method string) any {
		if method == "POST" {
			return map[string]any{}
		}
		return nil
	}
	for _, rt := range routes {
		anon := w.call(rt.method, rt.path, body(rt.method))
		if rt.min == "free" {
			if anon.Status == http.StatusUnauthorized || anon.Status == http.StatusForbidden {
				t.Errorf("%s %s anonymous: %d %s, want it open", rt.method, rt.path, anon.Status, anon.Raw)
			}
		} else {
			if anon.Status != http.StatusUnauthorized || !strings.HasPrefix(anon.Header.Get("WWW-Authenticate"), "Bearer") ||
				anon.Body["code"] != "plan_required" || !strings.Contains(string(anon.Raw), label[rt.min]+" plan") {
				t.Errorf("%s %s anonymous: %d %q %s, want 401 plan_required naming %s with WWW-Authenticate",
					rt.method, rt.path, anon.Status, anon.Header.Get("WWW-Authenticate"), anon.Raw, label[rt.min])
			}
		}
		for tier, r := range rank {
			got := w.call(rt.method, rt.path, body(rt.method), "X-API-Key", "sk_test_x", "X-Test-Tier", tier)
			if r >= rank[rt.min] {
				if got.Status == http.StatusUnauthorized || got.Status == http.StatusForbidden {
					t.Errorf("%s %s as %s: %d %s, want it served", rt.method, rt.path, tier, got.Status, got.Raw)
				}
				continue
			}
			if got.Status != http.StatusForbidden || got.Body["code"] != "plan_required" ||
				!strings.Contains(string(got.Raw), label[rt.min]+" plan") || !strings.Contains(string(got.Raw), "plan is "+label[tier]) {
				t.Errorf("%s %s as %s: %d %s, want 403 plan_required naming %s and %s", rt.method, rt.path, tier, got.Status, got.Raw,
					label[rt.min], label[tier])
			}
		}
		if rt.min != "free" {
			bad := w.call(rt.method, rt.path, body(rt.method), "X-API-Key", "sk_test_x", "X-Test-Tier", "invalid")
			if bad.Status != http.StatusUnauthorized || bad.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s with bad credentials: %d %s, want 401 with WWW-Authenticate", rt.method, rt.path, bad.Status, bad.Raw)
			}
		}
	}
}

// Open (the default, the seed's "no auth"): every endpoint serves an
// anonymous caller.
func TestOpenTiersLeaveEveryEndpointPublic(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	const base = "/api/v1/public/ax-audit"
	for _, rt := range [][2]string{{"POST", base + "/full"}, {"POST", base + "/unlock"}, {"GET", base + "/benchmark"},
		{"POST", base + "/leads"}, {"GET", base + "/reports/not-a-report"}} {
		var body any
		if rt[0] == "POST" {
			body = map[string]any{}
		}
		if r := w.call(rt[0], rt[1], body); r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden {
			t.Errorf("%s %s anonymous: %d %s, want it open", rt[0], rt[1], r.Status, r.Raw)
		}
	}
}

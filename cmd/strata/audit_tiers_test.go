package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// STRATA_AUDIT_TIERS=enforced gates the audit's endpoints on the caller's
// audit plan, read from the account the credentials name: anonymous and
// free callers may scan, a full report needs Pro (401 without
// credentials, 403 with a free account's key), and once the payment
// provider reports an active Business subscription of the audit line the
// same key reads benchmarks, while the lead API still needs Agency. A
// value that is neither open nor enforced stops the start.
func TestServeEnforcesTheAuditTiers(t *testing.T) {
	t.Parallel()
	if _, err := loadConfig(map[string]string{"STRATA_AUDIT_TIERS": "strict"}); err == nil {
		t.Fatal("STRATA_AUDIT_TIERS=strict was accepted")
	}
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_AUDIT_TIERS":       "enforced",
		"STRATA_STRIPE_SECRET_KEY": "sk_test_tiers", "STRATA_STRIPE_API_BASE": "http://127.0.0.1:9", // never called
		"STRATA_STRIPE_WEBHOOK_SECRETS": "whsec_tiers", "STRATA_JOBS_POLL_INTERVAL": "50ms"}
	api, _ := serveInProcess(t, env)
	_, account, key := keyedAccount(t, api, fmt.Sprintf("tiers-%d@tiers.test", time.Now().UnixNano()))
	const ax = "/api/v1/public/ax-audit"

	if status, body := call(t, "POST", api+ax, "", map[string]any{}); status != http.StatusBadRequest {
		t.Errorf("anonymous quick scan without a url: %d %v, want 400 (served)", status, body)
	}
	if status, body := call(t, "POST", api+ax+"/full", "", map[string]any{}); status != http.StatusUnauthorized || body["code"] != "plan_required" {
		t.Errorf("anonymous full audit: %d %v, want 401 plan_required", status, body)
	}
	if status, body := call(t, "POST", api+ax+"/full", "", map[string]any{}, "X-API-Key", key); status != http.StatusForbidden ||
		body["code"] != "plan_required" {
		t.Errorf("a free account's full audit: %d %v, want 403 plan_required", status, body)
	}
	if status, body := call(t, "POST", api+ax+"/full", "", map[string]any{}, "X-API-Key", "sk_live_notakey"); status != http.StatusUnauthorized {
		t.Errorf("a key that is not one: %d %v, want 401", status, body)
	}

	sendSubscription(t, api, "whsec_tiers", "evt_tiers_1", time.Now().Unix(), "active", "audit", "business", account)
	waitFor(t, func() bool {
		status, _ := call(t, "GET", api+ax+"/benchmark", "", nil, "X-API-Key", key)
		return status == http.StatusOK
	})
	if status, body := call(t, "GET", api+ax+"/benchmark", "", nil); status != http.StatusUnauthorized {
		t.Errorf("anonymous benchmark: %d %v, want 401", status, body)
	}
	if status, body := call(t, "POST", api+ax+"/leads", "", map[string]any{}, "X-API-Key", key); status != http.StatusForbidden ||
		body["code"] != "plan_required" {
		t.Errorf("a Business account's lead API: %d %v, want 403 plan_required", status, body)
	}
}

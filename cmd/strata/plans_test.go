package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// Plans are one source every context reads: a subscription the provider
// reports moves the account's plan in its line, key verification and
// /auth/me see it on the next request, a report older than the last one
// applied changes nothing, a cancellation leaves the free plan, and the
// operator's set-plan is the same event.
func TestPlansFollowSubscriptionsAndOperators(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_STRIPE_SECRET_KEY": "sk_test_plans", "STRATA_STRIPE_API_BASE": "http://127.0.0.1:9", // never called
		"STRATA_STRIPE_WEBHOOK_SECRETS": "whsec_plans", "STRATA_JOBS_POLL_INTERVAL": "50ms"}
	api, _ := serveInProcess(t, env)
	email := fmt.Sprintf("plans-%d@plans.test", time.Now().UnixNano())
	token, account, key := keyedAccount(t, api, email)
	verify := func() map[string]any {
		_, v := call(t, "POST", api+"/api/v1/public/api-keys/verify", "", nil, "X-API-Key", key)
		return v
	}
	if v := verify(); v["status"] != "upgrade_required" || v["tier"] != "free" {
		t.Fatalf("a new account: %v", v)
	}

	base := time.Now().Unix()
	send := func(id string, created int64, status, line, plan string) {
		t.Helper()
		sendSubscription(t, api, "whsec_plans", id, created, status, line, plan, account)
	}
	linePlan := func(line string) (string, string) {
		_, me := call(t, "GET", api+"/api/v1/auth/me", token, nil)
		ps, _ := me["plans"].(map[string]any)
		p, _ := ps[line].(map[string]any)
		plan, _ := p["plan"].(string)
		st, _ := p["status"].(string)
		return plan, st
	}

	send("evt_plans_1", base, "active", "platform", "professional")
	waitFor(t, func() bool { v := verify(); return v["tier"] == "professional" && v["user_plan"] == "professional" })
	send("evt_plans_2", base, "active", "gateway", "business")
	waitFor(t, func() bool { p, st := linePlan("gateway"); return p == "business" && st == "active" })

	// An older report, delivered late, changes nothing.
	send("evt_plans_0", base-3600, "canceled", "platform", "professional")
	send("evt_plans_3", base+1, "past_due", "gateway", "business")
	waitFor(t, func() bool { _, st := linePlan("gateway"); return st == "past_due" })
	if p, st := linePlan("platform"); p != "professional" || st != "active" {
		t.Fatalf("a stale cancellation moved the platform plan: %s %s", p, st)
	}
	// A cancellation leaves the free plan.
	send("evt_plans_4", base+2, "canceled", "platform", "professional")
	waitFor(t, func() bool { v := verify(); return v["status"] == "upgrade_required" && v["tier"] == "free" })

	// The operator's set-plan is the same event, in any line.
	c := cli{t: t, env: env}
	if out, errOut, code := c.runWith(productionWiring, "users", "set-plan", email, "enterprise", "--line", "gateway"); code != 0 {
		t.Fatalf("set-plan: %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool { p, st := linePlan("gateway"); return p == "enterprise" && st == "active" })
	if _, errOut, code := c.runWith(productionWiring, "users", "set-plan", email, "professional", "--line", "gateway"); code != 1 ||
		!strings.Contains(errOut, "plan must be one of starter, pro, business, enterprise") {
		t.Fatalf("a platform plan in the gateway line: %d %q", code, errOut)
	}
	var n int
	if err := db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE stream_id = $1`, "plans-account:"+account).Scan(&n); err != nil || n != 5 {
		t.Fatalf("plans events %d (%v), want 5: two lines' reports, past due, cancellation, set-plan", n, err)
	}
}

// The cap table's limits come from the same plans: `strata captable
// set-plan` records a plans event, and the account's next call is counted
// against the new plan.
func TestCaptableLimitsReadThePlans(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_API_ADDR": freeAddr(t), "STRATA_ADMIN_ADDR": freeAddr(t), "STRATA_CAPTABLE_ADDR": freeAddr(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--surfaces", "api,captable"}, env, &bytes.Buffer{}, &bytes.Buffer{}, productionWiring)
	}()
	defer func() { cancel(); <-done }()
	ct := "http://" + env["STRATA_CAPTABLE_ADDR"]
	waitFor(t, func() bool { return healthy("http://" + env["STRATA_API_ADDR"]) })
	email := fmt.Sprintf("founder-%d@captable.test", time.Now().UnixNano())
	status, reg := call(t, "POST", ct+"/api/v1/auth/register", "", map[string]any{"name": "Fay", "email": email,
		"password": "Captable-pass-1", "companyName": "Fay Co"})
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, reg)
	}
	token := reg["accessToken"].(string)
	me := func() (string, string) {
		req, _ := http.NewRequest("GET", ct+"/api/v1/auth/me", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		plan, _ := body["plan"].(string)
		return plan, resp.Header.Get("X-RateLimit-Limit")
	}
	if plan, limit := me(); plan != "FREE" || limit != "10" {
		t.Fatalf("a new account: plan %q, limit %q", plan, limit)
	}
	c := cli{t: t, env: env}
	if out, errOut, code := c.runWith(productionWiring, "captable", "set-plan", email, "PROFESSIONAL"); code != 0 {
		t.Fatalf("set-plan: %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool { plan, limit := me(); return plan == "PROFESSIONAL" && limit == "300" })
	var n int
	if err := db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE stream_id LIKE 'plans-account:%' AND payload->>'product_line' = 'captable'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("cap-table plans events %d (%v)", n, err)
	}
}

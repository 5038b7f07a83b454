package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// `strata serve` bills chat through the credit ledger: a paid request is
// debited from its usage and shows in the balance, the usage records and
// /metrics; the operators' commands (credits grant, balance, refund;
// users set-plan --credits) change the ledger of the running server; a
// balance that is not positive refuses paid models with 402 in the
// client's format and lets free ones through.
func TestServeBillsChatThroughTheCreditLedger(t *testing.T) {
	t.Parallel()
	_, base := devupstream.Start(t)
	file := filepath.Join(t.TempDir(), "upstreams.json")
	if err := os.WriteFile(file, []byte(`{"upstreams":[{"id":"dev","format":"openai","base_url":"`+base+`/v1","retries":0}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_GATEWAY_UPSTREAMS": file}
	api, _ := serveInProcess(t, env)
	email := fmt.Sprintf("credits-%d@gateway.test", time.Now().UnixNano())
	token := register(api, email)
	status, k := call(t, "POST", api+"/api/v1/api-keys", token, map[string]any{"name": "chat"})
	if status != http.StatusCreated {
		t.Fatalf("key: %d %v", status, k)
	}
	key := k["api_key"].(string)
	c := cli{t: t, env: env}
	if out, errOut, code := c.runWith(productionWiring, "users", "set-plan", email, "basic"); code != 0 || !strings.Contains(out, "plan basic, 1000 credits") {
		t.Fatalf("set-plan: %d %q %q", code, out, errOut)
	}
	chat := func(model string) (int, map[string]any) {
		return call(t, "POST", api+"/v1/chat/completions", "", map[string]any{"model": model, "max_tokens": 50,
			"messages": []any{map[string]any{"role": "user", "content": "Hello, world!"}}}, "X-API-Key", key)
	}
	waitFor(t, func() bool { st, _ := chat("strata-dev-frontier"); return st == http.StatusOK })

	var usage []map[string]any
	waitFor(t, func() bool {
		_, body := call(t, "GET", api+"/api/v1/public/usage", "", nil, "X-API-Key", key)
		usage = nil
		for _, r := range body["records"].([]any) {
			usage = append(usage, r.(map[string]any))
		}
		return len(usage) == 1
	})
	cost := int64(usage[0]["cost_micro"].(float64))
	if usage[0]["model"] != "strata-dev-frontier" || usage[0]["status"] != "completed" || cost <= 0 {
		t.Fatalf("usage record: %v", usage[0])
	}
	_, bal := call(t, "GET", api+"/api/v1/public/credits/balance", "", nil, "X-API-Key", key)
	if int64(bal["balance_micro"].(float64)) != 1_000_000_000-cost {
		t.Fatalf("balance after a request of %d micro-credits: %v", cost, bal)
	}
	if out, errOut, code := c.runWith(productionWiring, "credits", "balance", email); code != 0 ||
		!strings.Contains(out, fmt.Sprintf("balance %s credits (gateway plan starter)", micro(1_000_000_000-cost))) {
		t.Fatalf("credits balance: %d %q %q", code, out, errOut)
	}
	for i, want := range []string{"granted 500 credits (promotion)", "nothing granted"} {
		out, errOut, code := c.runWith(productionWiring, "credits", "grant", email, "500", "--reason", "promotion", "--key", "launch")
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("grant %d: %d %q %q", i, code, out, errOut)
		}
	}
	if out, errOut, code := c.runWith(productionWiring, "credits", "refund", usage[0]["request_id"].(string), "--reason", "test"); code != 0 ||
		!strings.Contains(out, "refunded "+micro(cost)+" credits") {
		t.Fatalf("refund: %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool {
		_, bal = call(t, "GET", api+"/api/v1/public/credits/balance", "", nil, "X-API-Key", key)
		return int64(bal["balance_micro"].(float64)) == 1_500_000_000
	})
	if _, errOut, code := c.runWith(productionWiring, "credits", "grant", email, "-3"); code == 0 || !strings.Contains(errOut, "N") {
		t.Errorf("a negative grant: %d %q", code, errOut)
	}

	if out, errOut, code := c.runWith(productionWiring, "users", "set-plan", email, "basic", "--credits", "0"); code != 0 ||
		!strings.Contains(out, "plan basic, 0 credits") {
		t.Fatalf("set-plan --credits 0: %d %q %q", code, out, errOut)
	}
	verify := func() (int, map[string]any) {
		return call(t, "POST", api+"/api/v1/public/api-keys/verify", "", nil, "X-API-Key", key)
	}
	waitFor(t, func() bool { _, v := verify(); return v["status"] == "insufficient_credits" })
	st, body := chat("strata-dev-frontier")
	if e, _ := body["error"].(map[string]any); st != http.StatusPaymentRequired || e["type"] != "insufficient_quota" {
		t.Fatalf("paid model without credits: %d %v", st, body)
	}
	if st, body := chat("strata-dev-7b-text"); st != http.StatusOK {
		t.Fatalf("free model without credits: %d %v", st, body)
	}
	status, v := verify()
	if sub, _ := v["subscription"].(map[string]any); status != http.StatusOK || v["status"] != "insufficient_credits" || sub["credits_remaining"] != 0.0 {
		t.Fatalf("verify: %d %v", status, v)
	}

	resp, err := http.Get("http://" + env["STRATA_ADMIN_ADDR"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`strata_gateway_requests_total{model="strata-dev-frontier",status="completed",upstream="dev"} 1`,
		`strata_gateway_payment_required_total{model="strata-dev-frontier"}`, `strata_gateway_credits_debited_total{model="strata-dev-frontier"}`,
		"strata_gateway_pending_debits"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	var js map[string]any
	out, _, _ := c.runWith(productionWiring, "credits", "balance", email, "--json")
	if err := json.Unmarshal([]byte(out), &js); err != nil || js["balance"] != 0.0 || js["adjusted"] != -1500.0 {
		t.Errorf("balance --json: %q %v", out, err)
	}
}

// micro writes micro-credits as the CLI writes credits.
func micro(n int64) string {
	s := fmt.Sprintf("%d.%06d", n/1_000_000, n%1_000_000)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

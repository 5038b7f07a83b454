package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/strata-platform/strata/commands/payments/stripemock"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestPaymentsSettings(t *testing.T) {
	t.Parallel()
	cfg, err := loadConfig(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.Payments; p.SecretKey != "" || p.APIBase != "https://api.stripe.com" || p.Tolerance != 5*time.Minute || len(p.Prices) != 0 {
		t.Fatalf("defaults %+v", p)
	}
	cfg, err = loadConfig(map[string]string{"STRATA_STRIPE_SECRET_KEY": "sk_test_abc", "STRATA_STRIPE_WEBHOOK_SECRETS": " whsec_new , whsec_old ",
		"STRATA_STRIPE_API_BASE": "http://127.0.0.1:12111", "STRATA_STRIPE_WEBHOOK_TOLERANCE": "2m",
		"STRATA_STRIPE_PRICE_AUDIT_PRO_YEARLY": "price_1Pabc", "STRATA_STRIPE_PRICE_CAPTABLE_STARTER_MONTHLY": "19.5 eur",
		"STRATA_STRIPE_PRICE_VOICE_PRO_MONTHLY": "", "STRATA_AUDIT_SUCCESS_URL": "https://audit.example.com/thanks?s={CHECKOUT_SESSION_ID}"})
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Payments
	if p.SecretKey != "sk_test_abc" || fmt.Sprint(p.WebhookSecrets) != "[whsec_new whsec_old]" || p.APIBase != "http://127.0.0.1:12111" ||
		p.Tolerance != 2*time.Minute || p.AuditSuccessURL != "https://audit.example.com/thanks?s={CHECKOUT_SESSION_ID}" {
		t.Fatalf("config %+v", p)
	}
	want := map[string]payments.Price{
		payments.PriceKey("audit", "pro", "yearly"):         {PriceID: "price_1Pabc"},
		payments.PriceKey("captable", "starter", "monthly"): {Money: payments.Money{Amount: 1950, Currency: "eur"}},
	}
	if fmt.Sprint(p.Prices) != fmt.Sprint(want) {
		t.Fatalf("prices %v, want %v", p.Prices, want)
	}
	for name, value := range map[string]string{
		"STRATA_STRIPE_SECRET_KEY":               "pk_test_publishable",
		"STRATA_STRIPE_WEBHOOK_SECRETS":          "not-a-secret",
		"STRATA_STRIPE_API_BASE":                 "api.stripe.com",
		"STRATA_STRIPE_WEBHOOK_TOLERANCE":        "forever",
		"STRATA_STRIPE_PRICE_VOICE_GOLD_MONTHLY": "49",
		"STRATA_STRIPE_PRICE_VOICE_PRO_YEARLY":   "490", // voice is sold monthly only
		"STRATA_STRIPE_PRICE_AUDIT_PRO_MONTHLY":  "49.999",
		"STRATA_STRIPE_PRICE_AUDIT_PRO_YEARLY":   "4900 jpy",
		"STRATA_AUDIT_CANCEL_URL":                "/pricing",
	} {
		env := map[string]string{name: value}
		if name == "STRATA_STRIPE_WEBHOOK_SECRETS" || name == "STRATA_STRIPE_API_BASE" {
			env["STRATA_STRIPE_SECRET_KEY"] = "sk_test_abc"
		}
		if _, errOut, code := (cli{t: t, env: env}).run("version"); code != 2 || !strings.Contains(errOut, name) {
			t.Errorf("%s=%s: exit %d, %q", name, value, code, errOut)
		}
	}
	if _, errOut, code := (cli{t: t, env: map[string]string{"STRATA_STRIPE_WEBHOOK_SECRETS": "whsec_x"}}).run("version"); code != 2 ||
		!strings.Contains(errOut, "STRATA_STRIPE_SECRET_KEY") {
		t.Errorf("webhook secrets without a key: exit %d, %q", code, errOut)
	}
}

// call sends a JSON request to the served API.
func call(t *testing.T, method, url, token string, body any, headers ...string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// `strata serve` with no payment settings charges nothing: checkout and the
// webhook answer 503 naming what is missing.
func TestServeWithoutPaymentSettingsAnswers503(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	api, _ := serveInProcess(t, map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error"})
	token := register(api, fmt.Sprintf("nopay-%d@payments.test", time.Now().UnixNano()))
	if token == "" {
		t.Fatal("register failed")
	}
	status, body := call(t, "POST", api+"/api/v1/payments/checkout", token, map[string]any{"plan": "pro",
		"success_url": "https://voice.example.com/ok", "cancel_url": "https://voice.example.com/no"})
	if status != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(body["detail"]), "STRATA_STRIPE_SECRET_KEY") {
		t.Fatalf("checkout: %d %v", status, body)
	}
	status, body = call(t, "POST", api+"/api/v1/payments/webhook", "", []byte(`{"id":"evt_1","object":"event"}`), "Stripe-Signature", "t=1,v1=00")
	if status != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(body["detail"]), "STRATA_STRIPE_WEBHOOK_SECRETS") {
		t.Fatalf("webhook: %d %v", status, body)
	}
}

// With Stripe settings (against stripe-mock), serve sells plans and turns a
// signed webhook into the caller's subscription through its jobs and
// projector.
func TestServeSellsThroughStripeAndProcessesWebhooks(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	mock := stripemock.Start(t)
	api, _ := serveInProcess(t, map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_STRIPE_SECRET_KEY": "sk_test_serve", "STRATA_STRIPE_API_BASE": mock.URL,
		"STRATA_STRIPE_WEBHOOK_SECRETS": "whsec_old,whsec_new", "STRATA_STRIPE_PRICE_AUDIT_PRO_MONTHLY": "19",
		"STRATA_AUDIT_SUCCESS_URL": "https://audit.example.com/thanks", "STRATA_AUDIT_CANCEL_URL": "https://audit.example.com/pricing",
		"STRATA_JOBS_POLL_INTERVAL": "50ms"})
	token := register(api, fmt.Sprintf("pay-%d@payments.test", time.Now().UnixNano()))
	if token == "" {
		t.Fatal("register failed")
	}
	status, body := call(t, "POST", api+"/api/v1/payments/checkout", token, map[string]any{"plan": "pro",
		"success_url": "https://voice.example.com/ok", "cancel_url": "https://voice.example.com/no"})
	if status != http.StatusCreated || body["url"] == "" {
		t.Fatalf("checkout: %d %v", status, body)
	}
	req := mock.Last(t, "POST", "/v1/checkout/sessions")
	if req.Form.Get("line_items[0][price_data][unit_amount]") != "4900" || req.Header.Get("Authorization") != "Bearer sk_test_serve" {
		t.Fatalf("sent %v", req.Form)
	}
	status, body = call(t, "POST", api+"/api/v1/public/ax-audit/checkout", "", map[string]any{"tier": "pro", "billing": "monthly",
		"email": "lead@example.com", "utm_source": "newsletter"})
	if status != http.StatusCreated || body["amount"] != float64(1900) {
		t.Fatalf("audit checkout: %d %v", status, body)
	}
	if f := mock.Last(t, "POST", "/v1/checkout/sessions").Form; f.Get("metadata[utm_source]") != "newsletter" ||
		f.Get("success_url") != "https://audit.example.com/thanks" {
		t.Fatalf("sent %v", f)
	}

	var me struct {
		ID string `json:"id"`
	}
	_, meBody := call(t, "GET", api+"/api/v1/auth/me", token, nil)
	raw, _ := json.Marshal(meBody)
	_ = json.Unmarshal(raw, &me)
	now := time.Now().Unix()
	payload, _ := json.Marshal(map[string]any{"id": "evt_serve_1", "object": "event", "api_version": "2026-03-25.dahlia",
		"created": now, "type": "customer.subscription.created", "data": map[string]any{"object": map[string]any{
			"id": "sub_serve", "object": "subscription", "status": "active", "customer": "cus_serve",
			"metadata": map[string]string{"strata_product_line": "voice", "strata_plan": "pro", "strata_account_id": me.ID},
			"items":    map[string]any{"data": []any{map[string]any{"current_period_start": now, "current_period_end": now + 86400*30}}}}}})
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: "whsec_old", Timestamp: time.Now()})
	status, body = call(t, "POST", api+"/api/v1/payments/webhook", "", payload, "Stripe-Signature", sig.Header)
	if status != http.StatusOK || body["duplicate"] != false {
		t.Fatalf("webhook: %d %v", status, body)
	}
	waitFor(t, func() bool {
		_, got := call(t, "GET", api+"/api/v1/payments/subscription", token, nil)
		sub, _ := got["subscription"].(map[string]any)
		return sub != nil && sub["id"] == "sub_serve" && sub["status"] == "active" && sub["plan"] == "pro"
	})
	var state string
	if err := db.SQL.QueryRow(`SELECT state FROM jobs.river_job WHERE kind = 'payments.process_webhook'`).Scan(&state); err != nil || state != "completed" {
		t.Fatalf("processing job state %q (%v)", state, err)
	}
}

package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"
)

// keyedAccount registers email on the platform API at api and issues it an
// API key: its session token, account id and key.
func keyedAccount(t *testing.T, api, email string) (token, account, key string) {
	t.Helper()
	token = register(api, email)
	if token == "" {
		t.Fatalf("register %s failed", email)
	}
	_, me := call(t, "GET", api+"/api/v1/auth/me", token, nil)
	account, _ = me["id"].(string)
	status, created := call(t, "POST", api+"/api/v1/api-keys", token, map[string]any{"name": "test"})
	if status != http.StatusCreated {
		t.Fatalf("key: %d %v", status, created)
	}
	key, _ = created["api_key"].(string)
	return token, account, key
}

// sendSubscription delivers a customer.subscription.updated event, signed
// with secret, reporting account's subscription to plan in line with
// status, as the payment provider does; it must be answered 200.
func sendSubscription(t *testing.T, api, secret, id string, created int64, status, line, plan, account string) {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2026-03-25.dahlia",
		"created": created, "type": "customer.subscription.updated", "data": map[string]any{"object": map[string]any{
			"id": "sub_" + line, "object": "subscription", "status": status, "customer": "cus_" + account,
			"metadata": map[string]string{"strata_product_line": line, "strata_plan": plan, "strata_account_id": account},
			"items": map[string]any{"data": []any{map[string]any{"current_period_start": created,
				"current_period_end": created + 86400*30}}}}}})
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
	if code, body := call(t, "POST", api+"/api/v1/payments/webhook", "", payload, "Stripe-Signature", sig.Header); code != http.StatusOK {
		t.Fatalf("webhook %s: %d %v", id, code, body)
	}
}

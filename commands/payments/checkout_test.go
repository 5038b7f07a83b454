package payments_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
)

func voiceOrder() payments.Order {
	return payments.Order{ProductLine: payments.LineVoice, Plan: "pro", SuccessURL: "https://voice.example.com/paid?s={CHECKOUT_SESSION_ID}",
		CancelURL: "https://voice.example.com/pricing", Email: "Ana@Example.com", UTM: payments.UTM{Source: "newsletter", Campaign: "spring"}}
}

func TestCheckoutWithoutSettingsAnswers503NamingTheSetting(t *testing.T) {
	t.Parallel()
	e := start(t, opts{noProvider: true})
	_, err := e.svc.CreateCheckout(context.Background(), cmd.CheckoutInput{Order: voiceOrder(), Channel: payments.ChannelAccount, AccountID: "u1"})
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindUnavailable || !strings.Contains(ke.Message, cmd.SettingSecretKey) {
		t.Fatalf("checkout without a provider: %v", err)
	}
	n := 0
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM es.events`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("events recorded: %d (%v)", n, err)
	}
}

func TestCheckoutOfAnUnpricedPlanNamesItsPriceSetting(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	o := voiceOrder()
	o.ProductLine, o.Plan, o.Billing = payments.LineAudit, "agency", payments.Yearly
	_, err := e.svc.CreateCheckout(context.Background(), cmd.CheckoutInput{Order: o, Channel: payments.ChannelAudit})
	if kernel.KindOf(err) != kernel.KindUnavailable || !strings.Contains(err.Error(), "STRATA_STRIPE_PRICE_AUDIT_AGENCY_YEARLY") {
		t.Fatalf("unpriced plan: %v", err)
	}
	if n := len(e.mock.Requests()); n != 0 {
		t.Fatalf("%d requests sent to Stripe for a plan that cannot be sold", n)
	}
}

func TestCheckoutSendsOurOrderAndRecordsTheSession(t *testing.T) {
	t.Parallel()
	e := start(t, opts{prices: map[string]payments.Price{
		payments.PriceKey(payments.LineAudit, "pro", payments.Yearly): {PriceID: "price_audit_pro_yearly"}}})
	ctx := context.Background()

	// A seed-priced plan goes out as an inline price.
	co, err := e.svc.CreateCheckout(ctx, cmd.CheckoutInput{Order: voiceOrder(), Channel: payments.ChannelAccount,
		AccountID: "user-42", OrganizationID: "org-7"})
	if err != nil {
		t.Fatal(err)
	}
	req := e.mock.Last(t, "POST", "/v1/checkout/sessions")
	want := map[string]string{
		"mode":                                   "subscription",
		"success_url":                            "https://voice.example.com/paid?s={CHECKOUT_SESSION_ID}",
		"cancel_url":                             "https://voice.example.com/pricing",
		"customer_email":                         "ana@example.com",
		"client_reference_id":                    "user-42",
		"line_items[0][quantity]":                "1",
		"line_items[0][price_data][unit_amount]": "4900",
		"line_items[0][price_data][currency]":    "usd",
		"line_items[0][price_data][recurring][interval]":   "month",
		"line_items[0][price_data][product_data][name]":    "Strata voice Pro",
		"metadata[strata_product_line]":                    "voice",
		"metadata[strata_plan]":                            "pro",
		"metadata[strata_billing]":                         "monthly",
		"metadata[strata_account_id]":                      "user-42",
		"metadata[strata_organization_id]":                 "org-7",
		"metadata[strata_channel]":                         "account",
		"metadata[utm_source]":                             "newsletter",
		"metadata[utm_campaign]":                           "spring",
		"subscription_data[metadata][strata_product_line]": "voice",
		"subscription_data[metadata][strata_plan]":         "pro",
		"subscription_data[metadata][strata_account_id]":   "user-42",
		"subscription_data[metadata][utm_source]":          "newsletter",
	}
	for k, v := range want {
		if got := req.Form.Get(k); got != v {
			t.Errorf("sent %s = %q, want %q", k, got, v)
		}
	}
	if req.Form.Has("line_items[0][price]") || req.Form.Has("metadata[utm_medium]") {
		t.Errorf("sent fields that were not asked for: %v", req.Form)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if req.Header.Get("Idempotency-Key") == "" {
		t.Error("no Idempotency-Key sent")
	}
	if req.Status != 200 {
		t.Fatalf("stripe-mock refused our request (%d): %s", req.Status, req.Answer)
	}
	var answer struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal(req.Answer, &answer); err != nil {
		t.Fatal(err)
	}
	if co.SessionID != answer.ID || co.URL != answer.URL || co.URL == "" {
		t.Fatalf("checkout = %+v, the provider answered %+v", co, answer)
	}

	// The session is recorded, the email only sealed.
	stream := payments.CheckoutStream(co.SessionID)
	envs := e.events(stream)
	if len(envs) != 1 {
		t.Fatalf("recorded %d events", len(envs))
	}
	ev := envs[0].Event.(*payments.CheckoutSessionCreated)
	if ev.ProductLine != "voice" || ev.Plan != "pro" || ev.Billing != "monthly" || ev.Price.Amount != 4900 ||
		ev.AccountID != "user-42" || ev.UTM.Source != "newsletter" || ev.Channel != payments.ChannelAccount {
		t.Fatalf("recorded %+v", ev)
	}
	if strings.Contains(strings.ToLower(e.raw(stream)), "ana@example.com") {
		t.Fatal("the payer's email is stored in the clear")
	}
	var payer payments.Payer
	if err := json.Unmarshal(e.open(ev.Secret), &payer); err != nil || payer.Email != "ana@example.com" {
		t.Fatalf("sealed payer = %+v (%v)", payer, err)
	}
	if ev.Secret.Key != payments.CheckoutKey(co.SessionID) {
		t.Fatalf("sealed under %s", ev.Secret.Key)
	}
	var owner string
	if err := e.store.DB().QueryRow(`SELECT owner FROM es.subject_keys WHERE key_id = $1`, ev.Secret.Key).Scan(&owner); err != nil ||
		owner != e.svc.PayerOwner("ANA@example.com ") || !strings.HasPrefix(owner, "payments-payer:") {
		t.Fatalf("key owner %q (%v)", owner, err)
	}

	// A configured price id goes out as the line item's price.
	o := voiceOrder()
	o.ProductLine, o.Plan, o.Billing, o.Email = payments.LineAudit, "pro", payments.Yearly, ""
	if _, err := e.svc.CreateCheckout(ctx, cmd.CheckoutInput{Order: o, Channel: payments.ChannelAudit}); err != nil {
		t.Fatal(err)
	}
	req = e.mock.Last(t, "POST", "/v1/checkout/sessions")
	if req.Form.Get("line_items[0][price]") != "price_audit_pro_yearly" || req.Form.Has("line_items[0][price_data][unit_amount]") ||
		req.Form.Has("customer_email") || req.Form.Has("client_reference_id") || req.Form.Get("metadata[strata_billing]") != "yearly" {
		t.Fatalf("sent %v", req.Form)
	}
}

func TestPortalAndUsageAreSentAndRecorded(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	ctx := context.Background()
	ps, err := e.svc.CreatePortal(ctx, cmd.PortalInput{AccountID: "user-9", CustomerID: "cus_live_9", ReturnURL: "https://app.example.com/billing"})
	if err != nil {
		t.Fatal(err)
	}
	req := e.mock.Last(t, "POST", "/v1/billing_portal/sessions")
	if req.Form.Get("customer") != "cus_live_9" || req.Form.Get("return_url") != "https://app.example.com/billing" || ps.URL == "" {
		t.Fatalf("sent %v, got %+v", req.Form, ps)
	}
	envs := e.events(payments.AccountStream("user-9"))
	if len(envs) != 1 || envs[0].Event.(*payments.PortalSessionCreated).CustomerID != "cus_live_9" {
		t.Fatalf("recorded %+v", envs)
	}
	if _, err := e.svc.CreatePortal(ctx, cmd.PortalInput{AccountID: "user-10", ReturnURL: "https://app.example.com/billing"}); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("portal without a customer: %v", err)
	}

	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	in := cmd.UsageInput{Identifier: "call-123-minutes", AccountID: "user-9", CustomerID: "cus_live_9",
		ProductLine: payments.LineVoice, Meter: "voice_minutes", Value: 17, Timestamp: at}
	for i := 0; i < 2; i++ {
		reported, err := e.svc.ReportUsage(ctx, in)
		if err != nil || reported != (i == 0) {
			t.Fatalf("report %d: %v %v", i, reported, err)
		}
	}
	if n := e.mock.Count("POST", "/v1/billing/meter_events"); n != 1 {
		t.Fatalf("usage sent %d times", n)
	}
	req = e.mock.Last(t, "POST", "/v1/billing/meter_events")
	if req.Form.Get("event_name") != "voice_minutes" || req.Form.Get("payload[stripe_customer_id]") != "cus_live_9" ||
		req.Form.Get("payload[value]") != "17" || req.Form.Get("identifier") != "call-123-minutes" ||
		req.Form.Get("timestamp") != "1795176000" {
		t.Fatalf("sent %v", req.Form)
	}
	envs = e.events(payments.UsageStream("call-123-minutes"))
	if len(envs) != 1 || envs[0].Event.(*payments.UsageReported).Value != 17 {
		t.Fatalf("recorded %+v", envs)
	}
}

package payments_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

const (
	checkoutPath = "/api/v1/payments/checkout"
	auditPath    = "/api/v1/public/ax-audit/checkout"
)

func voiceBody() map[string]any {
	return map[string]any{"plan": "business", "success_url": "https://voice.example.com/ok", "cancel_url": "https://voice.example.com/no"}
}

func TestWithoutPaymentSettingsEveryPaymentAnswers503NamingTheSetting(t *testing.T) {
	t.Parallel()
	w := start(t, setup{noProvider: true, auditURLs: true})
	u := w.register()
	for _, tc := range []struct {
		user      *user
		path      string
		body      any
		settings  []string
		statusNot int
	}{
		{u, checkoutPath, voiceBody(), []string{"STRATA_STRIPE_SECRET_KEY"}, 0},
		{nil, auditPath, map[string]any{"tier": "pro", "billing": "yearly", "email": "lead@example.com"},
			[]string{"STRATA_STRIPE_SECRET_KEY", "STRATA_STRIPE_PRICE_AUDIT_PRO_YEARLY"}, 0},
		{u, "/api/v1/payments/portal-session", nil, []string{"STRATA_STRIPE_SECRET_KEY"}, 0},
		{nil, "/api/v1/payments/webhook", []byte(`{"id":"evt_1","object":"event"}`),
			[]string{"STRATA_STRIPE_SECRET_KEY", "STRATA_STRIPE_WEBHOOK_SECRETS"}, 0},
	} {
		r := w.do(tc.user, "POST", tc.path, tc.body)
		if r.status != http.StatusServiceUnavailable {
			t.Fatalf("%s: %d %s", tc.path, r.status, r.raw)
		}
		for _, s := range tc.settings {
			if !strings.Contains(r.body["detail"].(string), s) {
				t.Fatalf("%s: %q does not name %s", tc.path, r.body["detail"], s)
			}
		}
	}
	// Reads work without a provider: nothing was ever paid.
	got := w.must(u, http.StatusOK, "GET", "/api/v1/payments/subscription", nil)
	if got["subscription"] != nil || got["product_line"] != "voice" {
		t.Fatalf("subscription: %v", got)
	}
}

func TestRequestsAreValidatedNamingFieldAndRule(t *testing.T) {
	t.Parallel()
	w := start(t, setup{auditURLs: true})
	u := w.register()
	with := func(k string, v any) map[string]any {
		b := voiceBody()
		b[k] = v
		return b
	}
	w.refused(w.do(u, "POST", checkoutPath, with("plan", "gold")), 400, "plan", "enum:pro,business,enterprise")
	w.refused(w.do(u, "POST", checkoutPath, with("plan", "")), 400, "plan", "required")
	w.refused(w.do(u, "POST", checkoutPath, with("success_url", "/relative")), 400, "success_url", "url")
	w.refused(w.do(u, "POST", checkoutPath, with("cancel_url", "javascript:alert(1)")), 400, "cancel_url", "url")
	w.refused(w.do(u, "POST", checkoutPath, with("billing", "weekly")), 400, "billing", "enum:monthly")
	w.refused(w.do(u, "POST", checkoutPath, with("product_line", "boats")), 400, "product_line", "enum:platform,gateway,voice,audit,captable")
	w.refused(w.do(u, "POST", checkoutPath, with("coupon", "FREE")), 400, "coupon", "unknown_field")
	w.refused(w.do(u, "POST", checkoutPath, with("utm_source", strings.Repeat("x", 201))), 400, "utm_source", "max_length:200")
	w.refused(w.do(u, "GET", "/api/v1/payments/subscription?product_line=boats", nil), 400, "product_line", "enum:platform,gateway,voice,audit,captable")
	w.refused(w.do(u, "GET", "/api/v1/payments/history?limit=0", nil), 400, "limit", "range:1-100")
	w.refused(w.do(u, "POST", "/api/v1/payments/portal-session", map[string]any{"return_url": "ftp://x.example.com"}), 400, "return_url", "url")
	audit := func(k string, v any) map[string]any {
		b := map[string]any{"tier": "pro", "billing": "monthly", "email": "lead@example.com", "utm_source": "newsletter"}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	w.refused(w.do(nil, "POST", auditPath, audit("tier", "free")), 400, "tier", "enum:pro,business,agency")
	w.refused(w.do(nil, "POST", auditPath, audit("billing", "daily")), 400, "billing", "enum:monthly,yearly")
	w.refused(w.do(nil, "POST", auditPath, audit("email", "not-an-email")), 400, "email", "email")
	w.refused(w.do(nil, "POST", auditPath, audit("email", nil)), 400, "email", "required")
	if n := len(w.mock.Requests()); n != 0 {
		t.Fatalf("refused requests sent %d calls to Stripe", n)
	}
	// The signed-in routes need credentials; the webhook needs its signature.
	if r := w.do(nil, "POST", checkoutPath, voiceBody()); r.status != http.StatusUnauthorized {
		t.Fatalf("anonymous checkout: %d", r.status)
	}
	w.refused(w.do(nil, "POST", "/api/v1/payments/webhook", []byte(`{"id":"evt_1","object":"event"}`)), 400, "Stripe-Signature", "required")
}

func TestAuditCheckoutKeepsTheAttribution(t *testing.T) {
	t.Parallel()
	w := start(t, setup{auditURLs: true, prices: map[string]payments.Price{
		payments.PriceKey(payments.LineAudit, "business", payments.Yearly): {PriceID: "price_audit_business_y"}}})
	r := w.do(nil, "POST", auditPath, map[string]any{"tier": "pro", "billing": "monthly", "email": "lead@example.com"})
	if r.status != http.StatusServiceUnavailable || !strings.Contains(r.body["detail"].(string), "STRATA_STRIPE_PRICE_AUDIT_PRO_MONTHLY") {
		t.Fatalf("unpriced tier: %d %s", r.status, r.raw)
	}
	got := w.must(nil, http.StatusCreated, "POST", auditPath, map[string]any{"tier": "business", "billing": "yearly",
		"email": "Lead@Example.com", "utm_source": "producthunt", "utm_campaign": "launch"})
	req := w.mock.Last(t, "POST", "/v1/checkout/sessions")
	for k, v := range map[string]string{"line_items[0][price]": "price_audit_business_y", "mode": "subscription",
		"customer_email": "lead@example.com", "success_url": "https://audit.example.com/thanks",
		"cancel_url": "https://audit.example.com/pricing", "metadata[strata_product_line]": "audit",
		"metadata[strata_plan]": "business", "metadata[strata_billing]": "yearly", "metadata[strata_channel]": "audit",
		"metadata[utm_source]": "producthunt", "metadata[utm_campaign]": "launch",
		"subscription_data[metadata][utm_source]": "producthunt"} {
		if req.Form.Get(k) != v {
			t.Errorf("sent %s = %q, want %q", k, req.Form.Get(k), v)
		}
	}
	if req.Form.Has("client_reference_id") || req.Form.Has("metadata[strata_account_id]") {
		t.Errorf("an anonymous checkout names an account: %v", req.Form)
	}
	var answer struct{ ID, URL string }
	if err := json.Unmarshal(req.Answer, &answer); err != nil {
		t.Fatal(err)
	}
	if got["url"] != answer.URL || got["session_id"] != answer.ID || got["plan"] != "business" || got["billing"] != "yearly" {
		t.Fatalf("answered %v for %+v", got, answer)
	}
	envs, err := w.api.Store.Load(t.Context(), payments.CheckoutStream(answer.ID), eventstore.LoadOptions{})
	if err != nil || len(envs) != 1 {
		t.Fatalf("recorded %d events (%v)", len(envs), err)
	}
	ev := envs[0].Event.(*payments.CheckoutSessionCreated)
	if ev.Channel != payments.ChannelAudit || ev.UTM.Source != "producthunt" || ev.UTM.Campaign != "launch" || ev.AccountID != "" {
		t.Fatalf("recorded %+v", ev)
	}
}

func TestCheckoutToSubscriptionHistoryAndPortal(t *testing.T) {
	t.Parallel()
	w := start(t, setup{})
	u := w.register()
	other := w.register()
	got := w.must(u, http.StatusCreated, "POST", checkoutPath, map[string]any{"plan": "enterprise",
		"success_url": "https://voice.example.com/ok", "cancel_url": "https://voice.example.com/no", "utm_source": "ads"})
	req := w.mock.Last(t, "POST", "/v1/checkout/sessions")
	if req.Form.Get("line_items[0][price_data][unit_amount]") != "49900" || req.Form.Get("customer_email") != u.Email ||
		req.Form.Get("client_reference_id") != u.ID || req.Form.Get("metadata[strata_account_id]") != u.ID ||
		req.Form.Get("metadata[strata_plan]") != "enterprise" {
		t.Fatalf("sent %v", req.Form)
	}
	if got["amount"] != float64(49900) || got["currency"] != "usd" || got["url"] == "" {
		t.Fatalf("answered %v", got)
	}
	sessionID := got["session_id"].(string)
	md := map[string]string{"strata_product_line": "voice", "strata_plan": "enterprise", "strata_billing": "monthly",
		"strata_account_id": u.ID}
	now := time.Now().Unix()
	start, end := now-60, now-60+30*86400
	for _, d := range []struct {
		id, typ string
		obj     map[string]any
	}{
		{"evt_co_" + sessionID, "checkout.session.completed", map[string]any{"id": sessionID, "object": "checkout.session",
			"mode": "subscription", "payment_status": "paid", "customer": "cus_flow", "subscription": "sub_flow",
			"amount_total": 49900, "currency": "usd", "client_reference_id": u.ID, "metadata": md,
			"customer_details": map[string]any{"email": u.Email, "name": "Pat Payer"}}},
		{"evt_sub_" + sessionID, "customer.subscription.created", map[string]any{"id": "sub_flow", "object": "subscription",
			"status": "active", "customer": "cus_flow", "metadata": md, "items": map[string]any{"data": []any{map[string]any{
				"current_period_start": start, "current_period_end": end, "price": map[string]any{"id": "price_x"}}}}}},
		{"evt_inv_" + sessionID, "invoice.paid", map[string]any{"id": "in_flow", "object": "invoice", "customer": "cus_flow",
			"customer_email": u.Email, "amount_due": 49900, "amount_paid": 49900, "currency": "usd",
			"billing_reason": "subscription_create", "attempt_count": 1,
			"parent": map[string]any{"subscription_details": map[string]any{"subscription": "sub_flow", "metadata": md}},
			"lines":  map[string]any{"data": []any{map[string]any{"period": map[string]any{"start": start, "end": end}}}}}},
	} {
		r := w.webhook(d.id, d.typ, now, d.obj, whsec)
		if r.status != http.StatusOK || r.body["duplicate"] != false || r.body["event_id"] != d.id {
			t.Fatalf("%s: %d %s", d.typ, r.status, r.raw)
		}
	}
	// A replayed delivery is answered 200 as a duplicate.
	if r := w.webhook("evt_inv_"+sessionID, "invoice.paid", now, map[string]any{"id": "in_flow", "object": "invoice"}, whsec); r.status != 200 || r.body["duplicate"] != true {
		t.Fatalf("replay: %d %s", r.status, r.raw)
	}
	// A tampered one is refused, naming the signature header.
	r := w.do(nil, "POST", "/api/v1/payments/webhook", []byte(`{"id":"evt_x","object":"event","type":"invoice.paid","data":{"object":{}}}`),
		"Stripe-Signature", "t="+strconv.FormatInt(now, 10)+",v1=00")
	w.refused(r, 400, "Stripe-Signature", "signature")

	var sub map[string]any
	w.eventually("the subscription", func() bool {
		sub, _ = w.must(u, http.StatusOK, "GET", "/api/v1/payments/subscription", nil)["subscription"].(map[string]any)
		return sub != nil
	})
	if sub["id"] != "sub_flow" || sub["status"] != "active" || sub["plan"] != "enterprise" || sub["product_line"] != "voice" ||
		sub["current_period_end"] != time.Unix(end, 0).UTC().Format(time.RFC3339) || sub["last_change"] != "created" {
		t.Fatalf("subscription %v", sub)
	}
	var hist []any
	w.eventually("the payment history", func() bool {
		hist = w.must(u, http.StatusOK, "GET", "/api/v1/payments/history", nil)["payments"].([]any)
		return len(hist) == 1
	})
	p := hist[0].(map[string]any)
	if p["invoice_id"] != "in_flow" || p["status"] != "paid" || p["amount_paid"] != float64(49900) || p["plan"] != "enterprise" {
		t.Fatalf("history %v", p)
	}
	// An API key of the account reads the same.
	k, err := w.api.Svc.IssueKey(t.Context(), idcmd.IssueKey{UserID: u.ID, Name: "billing", OrganizationID: u.org, ProjectID: u.project})
	if err != nil {
		t.Fatal(err)
	}
	byKey := w.must(&user{bearer: k.Secret}, http.StatusOK, "GET", "/api/v1/payments/history", nil)["payments"].([]any)
	if len(byKey) != 1 || byKey[0].(map[string]any)["invoice_id"] != "in_flow" {
		t.Fatalf("history by API key %v", byKey)
	}
	// Another account sees none of it.
	if s := w.must(other, http.StatusOK, "GET", "/api/v1/payments/subscription", nil); s["subscription"] != nil {
		t.Fatalf("another account sees %v", s)
	}
	if h := w.must(other, http.StatusOK, "GET", "/api/v1/payments/history", nil)["payments"].([]any); len(h) != 0 {
		t.Fatalf("another account sees %v", h)
	}
	if r := w.do(other, "POST", "/api/v1/payments/portal-session", nil); r.status != http.StatusNotFound {
		t.Fatalf("portal without a customer: %d %s", r.status, r.raw)
	}

	w.eventually("the customer", func() bool {
		return w.do(u, "POST", "/api/v1/payments/portal-session", nil).status == http.StatusOK
	})
	req = w.mock.Last(t, "POST", "/v1/billing_portal/sessions")
	if req.Form.Get("customer") != "cus_flow" || req.Form.Get("return_url") != "https://app.example.com/account" {
		t.Fatalf("sent %v", req.Form)
	}
}

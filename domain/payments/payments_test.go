package payments

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestCatalogPricesComeFromTheSeedsOrTheOperator(t *testing.T) {
	c := NewCatalog(map[string]Price{
		PriceKey(LineAudit, "pro", Yearly):         {PriceID: "price_audit_pro_y"},
		PriceKey(LineVoice, "enterprise", Monthly): {Money: Money{Amount: 45000, Currency: "eur"}},
	})
	cases := []struct {
		line, plan, billing string
		want                Price
	}{
		{LineVoice, "pro", Monthly, Price{Money: Money{4900, "usd"}}},
		{LineVoice, "business", Monthly, Price{Money: Money{14900, "usd"}}},
		{LineVoice, "enterprise", Monthly, Price{Money: Money{45000, "eur"}}}, // the operator's replaces the seed's $499
		{LineGateway, "enterprise", Monthly, Price{Money: Money{69900, "usd"}}},
		{LinePlatform, "basic", Monthly, Price{Money: Money{900, "usd"}}},
		{LinePlatform, "professional", Monthly, Price{Money: Money{2900, "usd"}}},
		{LineAudit, "pro", Yearly, Price{PriceID: "price_audit_pro_y"}},
		{LineAudit, "pro", Monthly, Price{}},        // the seed gives no audit price
		{LineCaptable, "starter", Monthly, Price{}}, // nor a cap-table one
		{LineVoice, "pro", Yearly, Price{}},         // not sold yearly
	}
	for _, tc := range cases {
		if got := c.Price(tc.line, tc.plan, tc.billing); got != tc.want {
			t.Errorf("Price(%s, %s, %s) = %+v, want %+v", tc.line, tc.plan, tc.billing, got, tc.want)
		}
	}
	if l, p, b, ok := c.PlanOfPrice("price_audit_pro_y"); !ok || l != LineAudit || p != "pro" || b != Yearly {
		t.Errorf("PlanOfPrice = %s %s %s %v", l, p, b, ok)
	}
	if _, _, _, ok := c.PlanOfPrice("price_unknown"); ok {
		t.Error("an unknown price id names a plan")
	}
}

func TestCheckNamesTheFieldAndTheRule(t *testing.T) {
	c := NewCatalog(nil)
	ok := Order{ProductLine: LineVoice, Plan: "pro", SuccessURL: "https://app.example.com/ok", CancelURL: "http://localhost:3000/no"}
	audit := Fields{ProductLine: "product_line", Plan: "tier", Billing: "billing", SuccessURL: "success_url",
		CancelURL: "cancel_url", Email: "email", UTMPrefix: "utm_"}
	cases := []struct {
		name        string
		edit        func(o *Order)
		fields      Fields
		field, rule string
	}{
		{"unknown line", func(o *Order) { o.ProductLine = "boats" }, DefaultFields, "product_line", "enum:platform,gateway,voice,audit,captable"},
		{"missing plan", func(o *Order) { o.Plan = "" }, DefaultFields, "plan", "required"},
		{"unknown plan", func(o *Order) { o.Plan = "gold" }, DefaultFields, "plan", "enum:pro,business,enterprise"},
		{"free plan", func(o *Order) { o.ProductLine, o.Plan = LineAudit, "free" }, audit, "tier", "enum:pro,business,agency"},
		{"interval not sold", func(o *Order) { o.Billing = Yearly }, DefaultFields, "billing", "enum:monthly"},
		{"bad interval", func(o *Order) { o.ProductLine, o.Plan, o.Billing = LineAudit, "pro", "weekly" }, audit, "billing", "enum:monthly,yearly"},
		{"relative success url", func(o *Order) { o.SuccessURL = "/done" }, DefaultFields, "success_url", "url"},
		{"ftp cancel url", func(o *Order) { o.CancelURL = "ftp://example.com/x" }, DefaultFields, "cancel_url", "url"},
		{"missing success url", func(o *Order) { o.SuccessURL = " " }, DefaultFields, "success_url", "required"},
		{"bad email", func(o *Order) { o.Email = "ana@localhost" }, DefaultFields, "email", "email"},
		{"display-name email", func(o *Order) { o.Email = "Ana <ana@example.com>" }, DefaultFields, "email", "email"},
		{"long utm", func(o *Order) { o.UTM.Campaign = string(make([]byte, MaxUTM+1)) }, DefaultFields, "utm_campaign", "max_length:200"},
		{"control in utm", func(o *Order) { o.UTM.Source = "news\nletter" }, DefaultFields, "utm_source", "printable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			_, _, err := c.Check(o, tc.fields)
			var ke *kernel.Error
			if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != tc.field || ke.Rule != tc.rule {
				t.Fatalf("Check = %v, want invalid %s/%s", err, tc.field, tc.rule)
			}
		})
	}
	got, price, err := c.Check(Order{ProductLine: LineVoice, Plan: " pro ", SuccessURL: ok.SuccessURL, CancelURL: ok.CancelURL,
		Email: " Ana@Example.COM ", UTM: UTM{Source: " news "}}, DefaultFields)
	if err != nil || got.Plan != "pro" || got.Billing != Monthly || got.Email != "ana@example.com" || got.UTM.Source != "news" ||
		price.Amount != 4900 {
		t.Fatalf("Check = %+v %+v %v", got, price, err)
	}
	_, _, err = c.Check(Order{ProductLine: LineAudit, Plan: "agency", Billing: Yearly, SuccessURL: ok.SuccessURL, CancelURL: ok.CancelURL}, audit)
	var np *NotPriced
	if !errors.As(err, &np) || np.ProductLine != LineAudit || np.Plan != "agency" || np.Billing != Yearly ||
		kernel.KindOf(err) != kernel.KindUnavailable {
		t.Fatalf("unpriced plan: %v", err)
	}
}

func at(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func TestSubscriptionNeverTakesAnOlderUpdate(t *testing.T) {
	now := at(2_000_000_000)
	p1s, p1e, p2s, p2e := at(1000), at(2000), at(2000), at(3000)
	var s Subscription
	step := func(u SubscriptionUpdate, wantOutcome, wantChange string) {
		t.Helper()
		ev, outcome := s.Decide(u, now)
		if outcome != wantOutcome {
			t.Fatalf("%s: outcome %s, want %s", u.EventID, outcome, wantOutcome)
		}
		if ev == nil {
			if wantChange != "" {
				t.Fatalf("%s: no change, want %s", u.EventID, wantChange)
			}
			return
		}
		if ev.Change != wantChange {
			t.Fatalf("%s: change %s, want %s", u.EventID, ev.Change, wantChange)
		}
		s.Apply(ev)
	}
	upd := func(id string, created int64, status string, start, end time.Time) SubscriptionUpdate {
		return SubscriptionUpdate{SubscriptionID: "sub_1", EventID: id, EventType: "customer.subscription.updated",
			Created: at(created), State: SubscriptionState{Status: status, CurrentPeriodStart: &start, CurrentPeriodEnd: &end}}
	}
	created := upd("evt_1", 100, "active", p1s, p1e)
	created.State.ProductLine, created.State.Plan, created.State.AccountID = LineVoice, "pro", "user-1"
	step(created, OutcomeRecorded, ChangeCreated)
	step(upd("evt_1", 100, "active", p1s, p1e), OutcomeKnown, "")
	step(upd("evt_3", 300, "active", p2s, p2e), OutcomeRecorded, ChangeRenewed)
	// evt_2 was created before evt_3 but arrives after it: it must not win.
	step(upd("evt_2", 200, "past_due", p1s, p1e), OutcomeStale, "")
	if s.State.Status != "active" || !s.State.CurrentPeriodEnd.Equal(p2e) {
		t.Fatalf("state after a stale update: %+v", s.State)
	}
	if s.State.ProductLine != LineVoice || s.State.Plan != "pro" || s.State.AccountID != "user-1" {
		t.Fatalf("an update without metadata lost the recorded plan: %+v", s.State)
	}
	step(upd("evt_4", 300, "past_due", p2s, p2e), OutcomeRecorded, ChangePastDue) // same second: applied in arrival order
	step(upd("evt_5", 400, "past_due", p2s, p2e), OutcomeRecorded, ChangeUpdated)
	del := upd("evt_6", 500, "canceled", p2s, p2e)
	del.Deleted = true
	step(del, OutcomeRecorded, ChangeCancelled)
}

func TestInvoicesAndCheckoutsAreRecordedOnce(t *testing.T) {
	var inv Invoice
	fail := &InvoicePaymentFailed{InvoiceFacts: InvoiceFacts{InvoiceID: "in_1"}, ProviderEventID: "evt_f1", ProviderCreated: at(100)}
	if ev, o := inv.Fail(fail); ev == nil || o != OutcomeRecorded {
		t.Fatalf("first failure: %v", o)
	}
	inv.Apply(fail)
	paid := &InvoicePaid{InvoiceFacts: InvoiceFacts{InvoiceID: "in_1"}, ProviderEventID: "evt_p1", ProviderCreated: at(200)}
	if ev, o := inv.Pay(paid); ev == nil || o != OutcomeRecorded {
		t.Fatalf("payment: %v", o)
	}
	inv.Apply(paid)
	if ev, o := inv.Pay(&InvoicePaid{ProviderEventID: "evt_p2", ProviderCreated: at(200)}); ev != nil || o != OutcomeKnown {
		t.Fatalf("second announcement of the payment: %v", o)
	}
	if ev, o := inv.Fail(&InvoicePaymentFailed{ProviderEventID: "evt_f0", ProviderCreated: at(50)}); ev != nil || o != OutcomeStale {
		t.Fatalf("a failure delivered after the payment: %v", o)
	}

	var co Checkout
	co.Apply(&CheckoutSessionCreated{SessionID: "cs_1", ProductLine: LineAudit, Plan: "pro", Billing: Yearly, UTM: UTM{Source: "newsletter"}})
	ev, o := co.Complete(&CheckoutSessionCompleted{SessionID: "cs_1", ProviderEventID: "evt_c"})
	if o != OutcomeRecorded || ev.ProductLine != LineAudit || ev.Plan != "pro" || ev.Billing != Yearly || ev.UTM.Source != "newsletter" {
		t.Fatalf("completion did not take the session's facts: %+v", ev)
	}
	co.Apply(ev)
	if ev, o := co.Complete(&CheckoutSessionCompleted{SessionID: "cs_1", ProviderEventID: "evt_c2"}); ev != nil || o != OutcomeKnown {
		t.Fatalf("second completion: %v", o)
	}
	if ev, o := co.Expire(&CheckoutSessionExpired{SessionID: "cs_1"}); ev != nil || o != OutcomeKnown {
		t.Fatalf("expiry after completion: %v", o)
	}
}

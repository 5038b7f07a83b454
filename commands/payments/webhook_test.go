package payments_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
)

var voiceMeta = map[string]string{"strata_product_line": "voice", "strata_plan": "pro", "strata_billing": "monthly",
	"strata_account_id": "user-42"}

// processed waits for the processing job and returns the outcome
// recorded for id.
func (e *env) processed(id string) string {
	e.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		envs := e.events(payments.WebhookStream(id))
		if len(envs) == 2 {
			return envs[1].Event.(*payments.WebhookProcessed).Outcome
		}
		if len(envs) > 2 || time.Now().After(deadline) {
			e.t.Fatalf("webhook %s has %d events, want received and processed", id, len(envs))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// jobsOf lists the processing jobs of provider event id.
func (e *env) jobsOf(id string) []jobs.Info {
	e.t.Helper()
	list, err := e.jobs.List(context.Background(), jobs.Filter{Kinds: []string{cmd.ProcessWebhookArgs{}.Kind()}, Limit: 1000})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []jobs.Info
	for _, j := range list {
		var a cmd.ProcessWebhookArgs
		if json.Unmarshal(j.Args, &a) == nil && a.EventID == id {
			out = append(out, j)
		}
	}
	return out
}

func invalid(t *testing.T, err error, rule string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != cmd.SignatureHeader || ke.Rule != rule {
		t.Fatalf("got %v, want invalid %s/%s", err, cmd.SignatureHeader, rule)
	}
}

func TestWebhookSignatures(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	now := time.Now()
	created := now.Unix()
	payload := stripeEvent(e.id("evt"), "customer.subscription.created", created,
		subscription("sub_sig", "active", created, created+30*86400, voiceMeta))

	t.Run("tampered", func(t *testing.T) {
		header := sign(payload, secretNew, now)
		tampered := []byte(strings.Replace(string(payload), `"active"`, `"canceled"`, 1))
		_, err := e.deliver(tampered, header)
		invalid(t, err, "signature")
	})
	t.Run("unknown secret", func(t *testing.T) {
		_, err := e.deliver(payload, sign(payload, "whsec_somebody_else", now))
		invalid(t, err, "signature")
	})
	t.Run("expired", func(t *testing.T) {
		_, err := e.deliver(payload, sign(payload, secretNew, now.Add(-cmd.DefaultWebhookTolerance-time.Minute)))
		invalid(t, err, "tolerance:300s")
	})
	t.Run("missing", func(t *testing.T) {
		_, err := e.deliver(payload, "")
		invalid(t, err, "required")
	})
	t.Run("malformed", func(t *testing.T) {
		_, err := e.deliver(payload, "t=abc,v1=00")
		invalid(t, err, "format")
	})
	if n := len(e.events(payments.SubscriptionStream("sub_sig"))); n != 0 {
		t.Fatalf("a refused delivery recorded %d events", n)
	}
	var received int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM es.events`).Scan(&received); err != nil || received != 0 {
		t.Fatalf("refused deliveries recorded %d events (%v)", received, err)
	}

	// The old secret verifies during a rotation, like the new one.
	for _, secret := range []string{secretOld, secretNew} {
		p := stripeEvent(e.id("evt"), "customer.subscription.created", created,
			subscription("sub_"+secret[6:9], "active", created, created+30*86400, voiceMeta))
		r, err := e.deliver(p, sign(p, secret, now))
		if err != nil || r.Duplicate {
			t.Fatalf("signed with %s: %+v %v", secret, r, err)
		}
	}
}

func TestWebhookIsRecordedOnceAndProcessed(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	now := time.Now()
	created := now.Unix()
	id := e.id("evt")
	payload := stripeEvent(id, "customer.subscription.created", created, subscription("sub_valid", "active", created, created+30*86400, voiceMeta))
	header := sign(payload, secretNew, now)
	r, err := e.deliver(payload, header)
	if err != nil || r.Duplicate || r.EventID != id || r.Type != "customer.subscription.created" {
		t.Fatalf("delivery: %+v %v", r, err)
	}
	if got := e.processed(id); got != payments.OutcomeRecorded {
		t.Fatalf("outcome %s", got)
	}
	envs := e.events(payments.WebhookStream(id))
	rec := envs[0].Event.(*payments.WebhookReceived)
	if rec.EventID != id || rec.ObjectType != "subscription" || rec.ObjectID != "sub_valid" || rec.CustomerID != "cus_test_1" ||
		!rec.ProviderCreated.Equal(time.Unix(created, 0)) || rec.Secret.Key != payments.WebhookKey(id) {
		t.Fatalf("received %+v", rec)
	}
	if string(e.open(rec.Secret)) != string(payload) {
		t.Fatal("the sealed payload is not the delivered one")
	}
	subs := e.events(payments.SubscriptionStream("sub_valid"))
	if len(subs) != 1 {
		t.Fatalf("subscription has %d events", len(subs))
	}
	ch := subs[0].Event.(*payments.SubscriptionChanged)
	if ch.Change != payments.ChangeCreated || ch.Status != "active" || ch.ProductLine != "voice" || ch.Plan != "pro" ||
		ch.AccountID != "user-42" || ch.PriceID != "price_voice_pro" || !ch.CurrentPeriodStart.Equal(time.Unix(created, 0)) ||
		!ch.CurrentPeriodEnd.Equal(time.Unix(created+30*86400, 0)) || ch.ProviderEventID != id {
		t.Fatalf("changed %+v", ch)
	}
	if subs[0].Metadata.CausationID != envs[0].EventID || subs[0].Metadata.CorrelationID != id {
		t.Fatalf("metadata %+v", subs[0].Metadata)
	}

	// Processing was one job, completed with the outcome.
	if js := e.jobsOf(id); len(js) != 1 || js[0].ID != r.Job || js[0].State != "completed" {
		t.Fatalf("jobs %+v (receipt's job %d)", js, r.Job)
	}

	// Replayed: the same delivery again is a duplicate and changes nothing.
	r, err = e.deliver(payload, header)
	if err != nil || !r.Duplicate || r.Job != 0 {
		t.Fatalf("replay: %+v %v", r, err)
	}
	if n, m := len(e.events(payments.WebhookStream(id))), len(e.events(payments.SubscriptionStream("sub_valid"))); n != 2 || m != 1 {
		t.Fatalf("after a replay: webhook %d events, subscription %d", n, m)
	}
}

func TestOlderSubscriptionUpdateNeverOverwritesANewerOne(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	now := time.Now()
	t0 := now.Unix() - 100
	p1s, p1e, p2e := t0, t0+30*86400, t0+60*86400
	first := e.id("evt")
	older, newer := e.id("evt"), e.id("evt")
	steps := []struct {
		id      string
		created int64
		obj     map[string]any
		outcome string
	}{
		{first, t0, subscription("sub_ooo", "active", p1s, p1e, voiceMeta), payments.OutcomeRecorded},
		// The renewal (created later) arrives before the past-due update (created earlier).
		{newer, t0 + 20, subscription("sub_ooo", "active", p1e, p2e, nil), payments.OutcomeRecorded},
		{older, t0 + 10, subscription("sub_ooo", "past_due", p1s, p1e, nil), payments.OutcomeStale},
	}
	for _, s := range steps {
		p := stripeEvent(s.id, "customer.subscription.updated", s.created, s.obj)
		if _, err := e.deliver(p, sign(p, secretNew, now)); err != nil {
			t.Fatal(err)
		}
		if got := e.processed(s.id); got != s.outcome {
			t.Fatalf("%s: outcome %s, want %s", s.id, got, s.outcome)
		}
	}
	envs := e.events(payments.SubscriptionStream("sub_ooo"))
	if len(envs) != 2 {
		t.Fatalf("subscription has %d events", len(envs))
	}
	last := envs[1].Event.(*payments.SubscriptionChanged)
	if last.Status != "active" || last.Change != payments.ChangeRenewed || !last.CurrentPeriodEnd.Equal(time.Unix(p2e, 0)) ||
		last.ProductLine != "voice" || last.AccountID != "user-42" {
		t.Fatalf("latest state %+v", last)
	}
	stale := e.events(payments.WebhookStream(older))[1].Event.(*payments.WebhookProcessed)
	if !strings.Contains(stale.Reason, newer) {
		t.Fatalf("the stale outcome does not name the newer event: %q", stale.Reason)
	}
}

func TestTwentyConcurrentDeliveriesAreProcessedOnce(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	now := time.Now()
	id := e.id("evt")
	payload := stripeEvent(id, "customer.subscription.created", now.Unix(), subscription("sub_burst", "active", now.Unix(), now.Unix()+86400, voiceMeta))
	header := sign(payload, secretOld, now)
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts, dups := 0, 0
	start := make(chan struct{})
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r, err := e.deliver(payload, header)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("delivery: %v", err)
			case r.Duplicate:
				dups++
			default:
				firsts++
			}
		}()
	}
	close(start)
	wg.Wait()
	if firsts != 1 || dups != 19 {
		t.Fatalf("%d deliveries recorded, %d duplicates; want 1 and 19", firsts, dups)
	}
	if got := e.processed(id); got != payments.OutcomeRecorded {
		t.Fatalf("outcome %s", got)
	}
	if n := len(e.events(payments.SubscriptionStream("sub_burst"))); n != 1 {
		t.Fatalf("the subscription changed %d times", n)
	}
	if js := e.jobsOf(id); len(js) != 1 {
		t.Fatalf("%d processing jobs were enqueued", len(js))
	}
	var received int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM es.events WHERE event_type = 'payments.webhook_received'`).Scan(&received); err != nil || received != 1 {
		t.Fatalf("received recorded %d times (%v)", received, err)
	}
}

func TestCheckoutCompletionAndInvoicesFromWebhooks(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	ctx := context.Background()
	o := voiceOrder()
	o.Email = ""
	co, err := e.svc.CreateCheckout(ctx, cmd.CheckoutInput{Order: o, Channel: payments.ChannelAccount, AccountID: "user-42"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	deliver := func(id, typ string, created int64, obj map[string]any) string {
		t.Helper()
		p := stripeEvent(id, typ, created, obj)
		if _, err := e.deliver(p, sign(p, secretNew, now)); err != nil {
			t.Fatal(err)
		}
		return e.processed(id)
	}
	session := map[string]any{"id": co.SessionID, "object": "checkout.session", "mode": "subscription", "status": "complete",
		"payment_status": "paid", "customer": "cus_new_1", "subscription": "sub_new_1", "amount_total": 4900, "currency": "usd",
		"client_reference_id": "user-42", "customer_email": nil,
		"customer_details": map[string]any{"email": "payer@example.org", "name": "Pat Payer"},
		// The provider's copy carries our metadata; here only part of it, as after an edit in its dashboard.
		"metadata": map[string]string{"strata_product_line": "voice"}}
	cid := e.id("evt")
	if got := deliver(cid, "checkout.session.completed", now.Unix(), session); got != payments.OutcomeRecorded {
		t.Fatalf("completion: %s", got)
	}
	if got := deliver(e.id("evt"), "checkout.session.completed", now.Unix(), session); got != payments.OutcomeKnown {
		t.Fatalf("a second completion event: %s", got)
	}
	if got := deliver(e.id("evt"), "checkout.session.expired", now.Unix(), session); got != payments.OutcomeKnown {
		t.Fatalf("an expiry after completion: %s", got)
	}
	envs := e.events(payments.CheckoutStream(co.SessionID))
	if len(envs) != 2 {
		t.Fatalf("checkout has %d events", len(envs))
	}
	done := envs[1].Event.(*payments.CheckoutSessionCompleted)
	if done.CustomerID != "cus_new_1" || done.SubscriptionID != "sub_new_1" || done.ProductLine != "voice" || done.Plan != "pro" ||
		done.Billing != "monthly" || done.AccountID != "user-42" || done.UTM.Source != "newsletter" || done.PaymentStatus != "paid" ||
		done.AmountTotal != 4900 || done.ProviderEventID != cid || done.Secret.Key != payments.WebhookKey(cid) {
		t.Fatalf("completed %+v", done)
	}
	var payer payments.Payer
	if err := json.Unmarshal(e.open(done.Secret), &payer); err != nil || payer.Email != "payer@example.org" || payer.Name != "Pat Payer" {
		t.Fatalf("payer %+v %v", payer, err)
	}
	for _, s := range []string{payments.CheckoutStream(co.SessionID), payments.WebhookStream(cid)} {
		if raw := e.raw(s); strings.Contains(raw, "payer@example.org") || strings.Contains(raw, "Pat Payer") {
			t.Fatalf("%s holds the payer in the clear", s)
		}
	}
	var owner string
	if err := e.store.DB().QueryRow(`SELECT owner FROM es.subject_keys WHERE key_id = $1`, payments.WebhookKey(cid)).Scan(&owner); err != nil ||
		owner != e.svc.PayerOwner("payer@example.org") {
		t.Fatalf("the webhook's key owner is %q (%v)", owner, err)
	}

	invoice := func(status string, paid int64) map[string]any {
		return map[string]any{"id": "in_1", "object": "invoice", "number": "ABC-0001", "customer": "cus_new_1",
			"customer_email": "payer@example.org", "customer_name": "Pat Payer", "status": status, "amount_due": 4900,
			"amount_paid": paid, "currency": "usd", "billing_reason": "subscription_create", "attempt_count": 1,
			"period_start": now.Unix(), "period_end": now.Unix(),
			"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
				"subscription": "sub_new_1", "metadata": voiceMeta}},
			"lines": map[string]any{"object": "list", "data": []any{map[string]any{"id": "il_1", "object": "line_item",
				"period": map[string]any{"start": now.Unix(), "end": now.Unix() + 30*86400}}}}}
	}
	if got := deliver(e.id("evt"), "invoice.payment_failed", now.Unix()-50, invoice("open", 0)); got != payments.OutcomeRecorded {
		t.Fatalf("failure: %s", got)
	}
	if got := deliver(e.id("evt"), "invoice.paid", now.Unix(), invoice("paid", 4900)); got != payments.OutcomeRecorded {
		t.Fatalf("payment: %s", got)
	}
	if got := deliver(e.id("evt"), "invoice.payment_succeeded", now.Unix(), invoice("paid", 4900)); got != payments.OutcomeKnown {
		t.Fatalf("the payment announced twice: %s", got)
	}
	if got := deliver(e.id("evt"), "invoice.payment_failed", now.Unix()-100, invoice("open", 0)); got != payments.OutcomeStale {
		t.Fatalf("an older failure after the payment: %s", got)
	}
	invs := e.events(payments.InvoiceStream("in_1"))
	if len(invs) != 2 {
		t.Fatalf("invoice has %d events", len(invs))
	}
	paid := invs[1].Event.(*payments.InvoicePaid)
	if paid.SubscriptionID != "sub_new_1" || paid.AccountID != "user-42" || paid.ProductLine != "voice" || paid.AmountPaid != 4900 ||
		paid.PeriodEnd == nil || !paid.PeriodEnd.Equal(time.Unix(now.Unix()+30*86400, 0)) || paid.Number != "ABC-0001" {
		t.Fatalf("paid %+v", paid)
	}
	if strings.Contains(e.raw(payments.InvoiceStream("in_1")), "payer@example.org") {
		t.Fatal("the invoice holds the payer's email in the clear")
	}
	if got := deliver(e.id("evt"), "charge.refunded", now.Unix(), map[string]any{"id": "ch_1", "object": "charge"}); got != payments.OutcomeIgnored {
		t.Fatalf("an unhandled type: %s", got)
	}
}

func TestWebhookWithoutSecretsNamesTheSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		o    opts
		want []string
	}{
		{opts{noProvider: true}, []string{cmd.SettingSecretKey, cmd.SettingWebhookSecrets}},
		{opts{secrets: []string{}}, []string{cmd.SettingWebhookSecrets}},
	} {
		e := start(t, tc.o)
		p := stripeEvent(e.id("evt"), "customer.subscription.created", time.Now().Unix(), subscription("sub_x", "active", 1, 2, nil))
		_, err := e.deliver(p, sign(p, secretNew, time.Now()))
		if kernel.KindOf(err) != kernel.KindUnavailable {
			t.Fatalf("got %v, want unavailable", err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("%v does not name %s", err, w)
			}
		}
	}
}

package payments_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

func completedSession(id, email, paymentStatus string) map[string]any {
	return map[string]any{"id": id, "object": "checkout.session", "mode": "subscription", "status": "complete",
		"payment_status": paymentStatus, "customer": "cus_" + id, "subscription": "sub_" + id, "amount_total": 4900, "currency": "usd",
		"metadata":         map[string]string{"strata_product_line": "voice", "strata_plan": "pro", "utm_source": "ads"},
		"customer_details": map[string]any{"email": email, "name": "Payer Name"}}
}

func TestRecordedCheckoutOpensThePayer(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	sid := e.id("cs_test_rec")
	if rec, err := e.svc.RecordedCheckout(context.Background(), sid); err != nil || rec.Known() || rec.Paid() {
		t.Fatalf("before anything: %+v %v", rec, err)
	}
	id := e.id("evt")
	p := stripeEvent(id, "checkout.session.completed", time.Now().Unix(), completedSession(sid, "payer@example.com", "paid"))
	if _, err := e.deliver(p, sign(p, secretNew, time.Now())); err != nil {
		t.Fatal(err)
	}
	e.processed(id)
	rec, err := e.svc.RecordedCheckout(context.Background(), sid)
	if err != nil || !rec.Known() || !rec.Paid() || rec.Payer() != (payments.Payer{Email: "payer@example.com", Name: "Payer Name"}) ||
		rec.Completed.ProductLine != "voice" || rec.Completed.UTM.Source != "ads" || rec.ProviderStatus != "" {
		t.Fatalf("recorded %+v %v", rec, err)
	}
	// Recorded: the provider is not asked again.
	before := e.mock.Count("GET", "/v1/checkout/sessions/"+sid)
	if rec, err := e.svc.ConfirmCheckout(context.Background(), sid); err != nil || !rec.Paid() {
		t.Fatalf("confirm a recorded checkout: %+v %v", rec, err)
	}
	if e.mock.Count("GET", "/v1/checkout/sessions/"+sid) != before {
		t.Fatal("a recorded completion was asked of the provider")
	}
}

func TestConfirmCheckoutAsksTheProviderAboutAnOpenSession(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	sid := e.id("cs_test_open")
	rec, err := e.svc.ConfirmCheckout(context.Background(), sid)
	if err != nil || rec.Completed != nil || rec.ProviderStatus != "open" || rec.Paid() {
		t.Fatalf("open session: %+v %v", rec, err)
	}
	req := e.mock.Last(t, "GET", "/v1/checkout/sessions/"+sid)
	if req.Header.Get("Authorization") != "Bearer "+testKey {
		t.Fatalf("sent %v", req.Header)
	}
	if n := len(e.events(payments.CheckoutStream(sid))); n != 0 {
		t.Fatalf("an open session recorded %d events", n)
	}
	none := start(t, opts{noProvider: true})
	if rec, err := none.svc.ConfirmCheckout(context.Background(), sid); err != nil || rec.Known() || rec.ProviderStatus != "" {
		t.Fatalf("without a provider: %+v %v", rec, err)
	}
}

// A session the provider says is complete is recorded once, as its
// webhook would record it (the payer sealed), with the reactions in the
// same transaction, however many confirmations run at once.
func TestConfirmCheckoutRecordsACompleteSessionOnce(t *testing.T) {
	t.Parallel()
	e := start(t, opts{})
	sid := e.id("cs_test_done")
	var gets atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/checkout/sessions/" + sid:
			gets.Add(1)
			_ = json.NewEncoder(w).Encode(completedSession(sid, "Done@Example.com", "paid"))
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such checkout.session"}}`)
		}
	}))
	t.Cleanup(front.Close)
	p, err := cmd.NewStripe(cmd.StripeConfig{SecretKey: testKey, WebhookSecrets: []string{secretNew}, APIBase: front.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.DB().Exec(`CREATE TABLE reacted (session_id text NOT NULL, payer text)`); err != nil {
		t.Fatal(err)
	}
	react := func(ctx context.Context, tx *sql.Tx, recorded []kernel.Event) error {
		for _, ev := range recorded {
			if c, ok := ev.(*payments.CheckoutSessionCompleted); ok {
				if _, err := tx.ExecContext(ctx, `INSERT INTO reacted VALUES ($1, $2)`, c.SessionID, c.Payer.Email); err != nil {
					return err
				}
			}
		}
		return nil
	}
	svc := cmd.New(e.store, e.keys, e.clock, eventstore.NewULIDs(e.clock), cmd.Config{Catalog: payments.NewCatalog(nil),
		PayerKey: bytes.Repeat([]byte{5}, 32), Provider: p, Logger: slog.New(slog.DiscardHandler), Reactions: []cmd.Reaction{react}})

	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := svc.ConfirmCheckout(context.Background(), sid)
			if err != nil || !rec.Paid() || rec.Payer().Email != "Done@Example.com" {
				t.Errorf("confirm: %+v %v", rec, err)
			}
		}()
	}
	wg.Wait()
	envs := e.events(payments.CheckoutStream(sid))
	if len(envs) != 1 {
		t.Fatalf("the completion was recorded %d times", len(envs))
	}
	c := envs[0].Event.(*payments.CheckoutSessionCompleted)
	if c.PaymentStatus != "paid" || c.ProductLine != "voice" || c.CustomerID != "cus_"+sid || c.ProviderEventID != "" ||
		strings.Contains(e.raw(payments.CheckoutStream(sid)), "Done@Example.com") {
		t.Fatalf("recorded %+v (payer sealed: %v)", c, !strings.Contains(e.raw(payments.CheckoutStream(sid)), "Done@"))
	}
	var reactions int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM reacted WHERE session_id = $1 AND payer = 'Done@Example.com'`, sid).Scan(&reactions); err != nil || reactions != 1 {
		t.Fatalf("the reaction ran %d times (%v)", reactions, err)
	}
	// Unknown to the provider: nothing, no error.
	if rec, err := svc.ConfirmCheckout(context.Background(), e.id("cs_test_nobody")); err != nil || rec.Known() {
		t.Fatalf("unknown session: %+v %v", rec, err)
	}
}

package payments_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projpayments "github.com/strata-platform/strata/projections/payments"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func at(sec int64) *time.Time {
	t := time.Unix(sec, 0).UTC()
	return &t
}

// The live read model answers an account's subscription, customer and
// history through its checkouts' customers too, and a rebuild gives the
// same tables.
func TestReadModelAnswersByAccountAndRebuildsTheSame(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range payments.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projpayments.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	now := clock.Now()
	var last eventstore.Key
	add := func(typ, id string, evs ...kernel.Event) {
		t.Helper()
		app, err := store.Append(context.Background(), eventstore.Stream{Type: typ, ID: id}, eventstore.AnyVersion, evs...)
		if err != nil {
			t.Fatal(err)
		}
		last = app.Last
	}
	// Ana's voice checkout completes; her first subscription ended, the
	// second (known only through her checkout's customer: its metadata was
	// lost) is active.
	add(payments.StreamCheckout, payments.CheckoutStream("cs_ana"),
		&payments.CheckoutSessionCreated{SessionID: "cs_ana", Channel: payments.ChannelAccount, ProductLine: "voice", Plan: "pro",
			Billing: "monthly", AccountID: "ana", Price: payments.Price{Money: payments.Money{Amount: 4900, Currency: "usd"}},
			UTM: payments.UTM{Source: "ads"}, At: now},
		&payments.CheckoutSessionCompleted{SessionID: "cs_ana", CustomerID: "cus_ana", SubscriptionID: "sub_new", AccountID: "ana",
			AmountTotal: 4900, Currency: "usd", At: now.Add(time.Minute)})
	add(payments.StreamSubscription, payments.SubscriptionStream("sub_old"), &payments.SubscriptionChanged{SubscriptionID: "sub_old",
		Change: payments.ChangeCancelled, SubscriptionState: payments.SubscriptionState{Status: "canceled", AccountID: "ana",
			CustomerID: "cus_ana", ProductLine: "voice", Plan: "business", EndedAt: at(900)}, ProviderCreated: *at(900), At: now})
	add(payments.StreamSubscription, payments.SubscriptionStream("sub_new"),
		&payments.SubscriptionChanged{SubscriptionID: "sub_new", Change: payments.ChangeCreated, SubscriptionState: payments.SubscriptionState{
			Status: "active", CustomerID: "cus_ana", ProductLine: "voice", Plan: "pro", CurrentPeriodStart: at(500), CurrentPeriodEnd: at(600)},
			ProviderCreated: *at(500), At: now},
		&payments.SubscriptionChanged{SubscriptionID: "sub_new", Change: payments.ChangeRenewed, SubscriptionState: payments.SubscriptionState{
			Status: "active", CustomerID: "cus_ana", ProductLine: "voice", Plan: "pro", CurrentPeriodStart: at(600), CurrentPeriodEnd: at(700)},
			ProviderCreated: *at(600), At: now})
	add(payments.StreamInvoice, payments.InvoiceStream("in_1"),
		&payments.InvoicePaymentFailed{InvoiceFacts: payments.InvoiceFacts{InvoiceID: "in_1", SubscriptionID: "sub_new", CustomerID: "cus_ana",
			AmountDue: 4900, Currency: "usd", AttemptCount: 1}, ProviderCreated: *at(610), At: now},
		&payments.InvoicePaid{InvoiceFacts: payments.InvoiceFacts{InvoiceID: "in_1", SubscriptionID: "sub_new", CustomerID: "cus_ana",
			AmountDue: 4900, AmountPaid: 4900, Currency: "usd", AttemptCount: 2}, ProviderCreated: *at(620), At: now})
	add(payments.StreamInvoice, payments.InvoiceStream("in_0"),
		&payments.InvoicePaid{InvoiceFacts: payments.InvoiceFacts{InvoiceID: "in_0", CustomerID: "cus_ana", ProductLine: "voice",
			AmountDue: 14900, AmountPaid: 14900, Currency: "usd"}, ProviderCreated: *at(100), At: now})
	// Bo's audit invoice is Bo's alone.
	add(payments.StreamInvoice, payments.InvoiceStream("in_bo"), &payments.InvoicePaid{InvoiceFacts: payments.InvoiceFacts{
		InvoiceID: "in_bo", AccountID: "bo", CustomerID: "cus_bo", ProductLine: "audit", AmountDue: 1, AmountPaid: 1, Currency: "usd"},
		ProviderCreated: *at(700), At: now})
	add(payments.StreamCheckout, payments.CheckoutStream("cs_gone"), &payments.CheckoutSessionCreated{SessionID: "cs_gone",
		Channel: payments.ChannelAudit, ProductLine: "audit", Plan: "pro", Billing: "yearly", At: now},
		&payments.CheckoutSessionExpired{SessionID: "cs_gone", At: now})

	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	if err := runner.WaitFor(wctx, last, projpayments.Name); err != nil {
		t.Fatal(err)
	}
	q := context.Background()
	sub, ok, err := projpayments.SubscriptionOf(q, db.SQL, "ana", "voice")
	if err != nil || !ok || sub.SubscriptionID != "sub_new" || sub.Status != "active" || sub.LastChange != "renewed" ||
		!sub.CurrentPeriodEnd.Equal(*at(700)) {
		t.Fatalf("ana's voice subscription %+v %v %v", sub, ok, err)
	}
	if _, ok, _ := projpayments.SubscriptionOf(q, db.SQL, "ana", "audit"); ok {
		t.Fatal("ana has an audit subscription")
	}
	if c, err := projpayments.CustomerOf(q, db.SQL, "ana"); err != nil || c != "cus_ana" {
		t.Fatalf("ana's customer %q %v", c, err)
	}
	hist, more, err := projpayments.History(q, db.SQL, "ana", "voice", 1, 0)
	if err != nil || !more || len(hist) != 1 || hist[0].InvoiceID != "in_1" || hist[0].Status != "paid" || hist[0].Plan != "pro" ||
		hist[0].AttemptCount != 2 {
		t.Fatalf("ana's history page 1 %+v more %v %v", hist, more, err)
	}
	hist, more, err = projpayments.History(q, db.SQL, "ana", "", 10, 1)
	if err != nil || more || len(hist) != 1 || hist[0].InvoiceID != "in_0" {
		t.Fatalf("ana's history page 2 %+v more %v %v", hist, more, err)
	}
	if hist, _, _ := projpayments.History(q, db.SQL, "bo", "", 10, 0); len(hist) != 1 || hist[0].InvoiceID != "in_bo" {
		t.Fatalf("bo's history %+v", hist)
	}
	if c, ok, err := projpayments.CheckoutByID(q, db.SQL, "cs_gone"); err != nil || !ok || c.Status != "expired" {
		t.Fatalf("expired checkout %+v %v %v", c, ok, err)
	}
	if c, _, _ := projpayments.CheckoutByID(q, db.SQL, "cs_ana"); c.Status != "complete" || c.UTMSource != "ads" || c.CustomerID != "cus_ana" {
		t.Fatalf("completed checkout %+v", c)
	}

	live := dump(t, db.SQL)
	if _, err := (projections.Rebuilder{DB: db.SQL, Registry: reg, Logger: logger}).Rebuild(context.Background(), projpayments.Projector{}); err != nil {
		t.Fatal(err)
	}
	if rebuilt := dump(t, db.SQL); rebuilt != live {
		t.Fatalf("rebuild differs:\nlive:\n%s\nrebuilt:\n%s", live, rebuilt)
	}
}

// dump renders every row of the read model, sorted.
func dump(t *testing.T, db *stdsql.DB) string {
	t.Helper()
	var out []string
	for _, table := range []string{"checkouts", "subscriptions", "invoices"} {
		rows, err := db.Query(`SELECT to_jsonb(x)::text FROM ` + projpayments.Schema + `.` + table + ` x`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %s", table, s))
		}
		rows.Close()
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

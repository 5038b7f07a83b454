package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// maxProcessRetries bounds how often processing is decided again after
// another append moved the stream it writes to.
const maxProcessRetries = 20

// derivation is what processing one provider event records.
type derivation struct {
	stream   eventstore.Stream
	expected int64
	events   []kernel.Event
	outcome  string
	reason   string
}

// ProcessWebhook turns a recorded provider event into the payments events
// it means, and closes the event's stream with payments.webhook_processed
// in the same transaction (appended at the stream's version after the
// receipt), so an event is processed at most once however often this runs:
//   - checkout.session.completed → payments.checkout_session_completed
//     (once per session); checkout.session.expired →
//     payments.checkout_session_expired;
//   - customer.subscription.created, .updated, .deleted, .paused, .resumed →
//     payments.subscription_changed, unless the event is older (by the
//     provider's created time) than the last recorded change (outcome
//     stale: nothing changes);
//   - invoice.paid and invoice.payment_succeeded → payments.invoice_paid
//     (once per invoice); invoice.payment_failed →
//     payments.invoice_payment_failed;
//   - any other type is recorded as received and ignored.
//
// It returns the outcome (payments.Outcome*). An event that was processed
// already returns the recorded outcome; an unknown event id is not found.
func (s *Service) ProcessWebhook(ctx context.Context, eventID string) (string, error) {
	return s.process(ctx, eventID, nil)
}

// process is ProcessWebhook; inTx, when set, runs last in the transaction
// that records the outcome (the job's completion). When the event was
// processed already it runs in a transaction of its own.
func (s *Service) process(ctx context.Context, eventID string, inTx func(tx *sql.Tx) error) (string, error) {
	stream := eventstore.Stream{Type: payments.StreamWebhook, ID: payments.WebhookStream(eventID)}
	for attempt := 0; ; attempt++ {
		var w payments.Webhook
		version, envs, err := s.load(ctx, stream.ID, &w)
		if err != nil {
			return "", err
		}
		if w.Received == nil {
			return "", kernel.NotFound("no provider event " + eventID + " was received")
		}
		if w.Processed != nil {
			if inTx != nil {
				if err := eventstore.RunInTx(ctx, s.store.DB(), nil, inTx); err != nil {
					return "", err
				}
			}
			return w.Processed.Outcome, nil
		}
		d, err := s.derive(ctx, w.Received)
		if err != nil {
			return "", fmt.Errorf("process %s (%s): %w", eventID, w.Received.Type, err)
		}
		for _, ev := range d.events {
			if err := s.sealUnder(ctx, ev, payments.WebhookKey(eventID)); err != nil {
				return "", err
			}
		}
		done := &payments.WebhookProcessed{EventID: eventID, Outcome: d.outcome, Stream: d.stream.ID, Reason: d.reason,
			At: s.clock.Now().UTC()}
		md := eventstore.MetadataFrom(ctx)
		md.CausationID = envs[0].EventID
		if md.CorrelationID == "" {
			md.CorrelationID = eventID
		}
		actx := eventstore.WithMetadata(ctx, md)
		err = s.store.InTx(actx, func(tx *sql.Tx) error {
			if _, err := s.store.AppendTx(actx, tx, stream, version, done); err != nil {
				return err
			}
			if len(d.events) > 0 {
				if _, err := s.store.AppendTx(actx, tx, d.stream, d.expected, d.events...); err != nil {
					return err
				}
				for _, react := range s.cfg.Reactions {
					if err := react(actx, tx, d.events); err != nil {
						return err
					}
				}
			}
			if inTx != nil {
				return inTx(tx)
			}
			return nil
		})
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxProcessRetries {
			continue // this event was processed meanwhile, or its target moved: decide again
		}
		if err != nil {
			return "", fmt.Errorf("process %s: %w", eventID, err)
		}
		return d.outcome, nil
	}
}

// derive decides what a received event records.
func (s *Service) derive(ctx context.Context, r *payments.WebhookReceived) (derivation, error) {
	if r.Payload == nil {
		return derivation{outcome: payments.OutcomeIgnored, reason: "the payload was erased"}, nil
	}
	var env struct {
		Data struct {
			Object json.RawMessage `json:"object"`
		} `json:"data"`
	}
	if err := jsonUnmarshal(r.Payload, &env); err != nil {
		return derivation{}, err
	}
	obj := []byte(env.Data.Object)
	now := s.clock.Now().UTC()
	switch r.Type {
	case "checkout.session.completed", "checkout.session.expired":
		var cs stripeCheckoutSession
		if err := jsonUnmarshal(obj, &cs); err != nil {
			return derivation{}, err
		}
		return s.deriveCheckout(ctx, r, cs, now)
	case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
		"customer.subscription.paused", "customer.subscription.resumed":
		var sub stripeSubscription
		if err := jsonUnmarshal(obj, &sub); err != nil {
			return derivation{}, err
		}
		return s.deriveSubscription(ctx, r, sub, now)
	case "invoice.paid", "invoice.payment_succeeded", "invoice.payment_failed":
		var inv stripeInvoice
		if err := jsonUnmarshal(obj, &inv); err != nil {
			return derivation{}, err
		}
		return s.deriveInvoice(ctx, r, inv, now)
	}
	return derivation{outcome: payments.OutcomeIgnored, reason: "payments does not act on " + r.Type}, nil
}

func (s *Service) deriveCheckout(ctx context.Context, r *payments.WebhookReceived, cs stripeCheckoutSession, now time.Time) (derivation, error) {
	if cs.ID == "" {
		return derivation{outcome: payments.OutcomeIgnored, reason: "the session has no id"}, nil
	}
	d := derivation{stream: eventstore.Stream{Type: payments.StreamCheckout, ID: payments.CheckoutStream(cs.ID)}}
	var co payments.Checkout
	v, _, err := s.load(ctx, d.stream.ID, &co)
	if err != nil {
		return d, err
	}
	d.expected = v
	var ev kernel.Event
	if r.Type == "checkout.session.expired" {
		var e *payments.CheckoutSessionExpired
		e, d.outcome = co.Expire(&payments.CheckoutSessionExpired{SessionID: cs.ID, ProviderEventID: r.EventID,
			ProviderCreated: r.ProviderCreated, At: now})
		if e != nil {
			ev = e
		}
	} else {
		md := cs.Metadata
		c := &payments.CheckoutSessionCompleted{SessionID: cs.ID, ProviderEventID: r.EventID, Mode: cs.Mode,
			ProductLine: md[MetaProductLine], Plan: md[MetaPlan], Billing: md[MetaBilling], AccountID: md[MetaAccountID],
			OrganizationID: md[MetaOrganizationID], CustomerID: idOf(cs.Customer), SubscriptionID: idOf(cs.Subscription),
			PaymentStatus: cs.PaymentStatus, AmountTotal: cs.AmountTotal, Currency: cs.Currency,
			UTM: payments.UTM{Source: md[MetaUTMSource], Medium: md[MetaUTMMedium], Campaign: md[MetaUTMCampaign],
				Term: md[MetaUTMTerm], Content: md[MetaUTMContent]},
			ProviderCreated: r.ProviderCreated, At: now}
		if c.AccountID == "" {
			c.AccountID = cs.ClientReferenceID
		}
		payer := payments.Payer{Email: cs.CustomerEmail}
		if cs.CustomerDetails != nil {
			if cs.CustomerDetails.Email != "" {
				payer.Email = cs.CustomerDetails.Email
			}
			payer.Name = cs.CustomerDetails.Name
		}
		if payer != (payments.Payer{}) {
			c.Payer = &payer
		}
		var e *payments.CheckoutSessionCompleted
		e, d.outcome = co.Complete(c)
		if e != nil {
			ev = e
		}
	}
	if ev != nil {
		d.events = []kernel.Event{ev}
	} else {
		d.reason = "the session's " + r.Type + " is recorded already"
	}
	return d, nil
}

func (s *Service) deriveSubscription(ctx context.Context, r *payments.WebhookReceived, sub stripeSubscription, now time.Time) (derivation, error) {
	if sub.ID == "" {
		return derivation{outcome: payments.OutcomeIgnored, reason: "the subscription has no id"}, nil
	}
	d := derivation{stream: eventstore.Stream{Type: payments.StreamSubscription, ID: payments.SubscriptionStream(sub.ID)}}
	var fold payments.Subscription
	v, _, err := s.load(ctx, d.stream.ID, &fold)
	if err != nil {
		return d, err
	}
	d.expected = v
	ev, outcome := fold.Decide(payments.SubscriptionUpdate{SubscriptionID: sub.ID, EventID: r.EventID, EventType: r.Type,
		Deleted: r.Type == "customer.subscription.deleted", State: sub.state(s.cfg.Catalog), Created: r.ProviderCreated}, now)
	d.outcome = outcome
	switch {
	case ev != nil:
		d.events = []kernel.Event{ev}
	case outcome == payments.OutcomeStale:
		d.reason = fmt.Sprintf("created %s, before the recorded change of %s (%s)", r.ProviderCreated.Format(timeFormat),
			fold.LastCreated.Format(timeFormat), fold.LastEventID)
	default:
		d.reason = "recorded already"
	}
	return d, nil
}

func (s *Service) deriveInvoice(ctx context.Context, r *payments.WebhookReceived, inv stripeInvoice, now time.Time) (derivation, error) {
	if inv.ID == "" {
		return derivation{outcome: payments.OutcomeIgnored, reason: "the invoice has no id"}, nil
	}
	d := derivation{stream: eventstore.Stream{Type: payments.StreamInvoice, ID: payments.InvoiceStream(inv.ID)}}
	var fold payments.Invoice
	v, _, err := s.load(ctx, d.stream.ID, &fold)
	if err != nil {
		return d, err
	}
	d.expected = v
	facts := inv.facts()
	var payer *payments.Payer
	if inv.CustomerEmail != "" || inv.CustomerName != "" {
		payer = &payments.Payer{Email: inv.CustomerEmail, Name: inv.CustomerName}
	}
	var ev kernel.Event
	if r.Type == "invoice.payment_failed" {
		var e *payments.InvoicePaymentFailed
		e, d.outcome = fold.Fail(&payments.InvoicePaymentFailed{InvoiceFacts: facts, ProviderEventID: r.EventID,
			ProviderCreated: r.ProviderCreated, At: now, Payer: payer})
		if e != nil {
			ev = e
		}
	} else {
		var e *payments.InvoicePaid
		e, d.outcome = fold.Pay(&payments.InvoicePaid{InvoiceFacts: facts, ProviderEventID: r.EventID,
			ProviderCreated: r.ProviderCreated, At: now, Payer: payer})
		if e != nil {
			ev = e
		}
	}
	if ev != nil {
		d.events = []kernel.Event{ev}
	} else if d.outcome == payments.OutcomeStale {
		d.reason = "the invoice is paid, or a later attempt is recorded"
	} else {
		d.reason = "recorded already"
	}
	return d, nil
}

const timeFormat = "2006-01-02T15:04:05Z07:00"

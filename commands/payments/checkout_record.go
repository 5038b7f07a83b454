package payments

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// CheckoutRecord is what payments recorded about one checkout session, the
// payer's data opened (nil where its key was destroyed).
type CheckoutRecord struct {
	SessionID string
	// Created is our own session, when we created it (nil for a session
	// made elsewhere, known only by its completion).
	Created *payments.CheckoutSessionCreated
	// Completed is the provider's completion, once recorded.
	Completed *payments.CheckoutSessionCompleted
	Expired   bool
	// ProviderStatus is what the provider said when ConfirmCheckout asked
	// it ("open", "complete", "expired"); empty when it was not asked.
	ProviderStatus string
}

// Known reports whether anything is recorded about the session.
func (r CheckoutRecord) Known() bool { return r.Created != nil || r.Completed != nil || r.Expired }

// Paid reports whether the session completed with its payment settled.
func (r CheckoutRecord) Paid() bool {
	return r.Completed != nil && payments.CheckoutPaid(r.Completed.PaymentStatus)
}

// Payer is the payer's email and name: the completion's, else what our
// session was created with.
func (r CheckoutRecord) Payer() payments.Payer {
	var p payments.Payer
	if r.Completed != nil && r.Completed.Payer != nil {
		p = *r.Completed.Payer
	}
	if p.Email == "" && r.Created != nil && r.Created.Payer != nil {
		p.Email = r.Created.Payer.Email
	}
	return p
}

// RecordedCheckout returns what is recorded about a checkout session, read
// from its stream (not the read model, which is eventual), the payer's
// data opened with the key ring.
func (s *Service) RecordedCheckout(ctx context.Context, sessionID string) (CheckoutRecord, error) {
	rec := CheckoutRecord{SessionID: sessionID}
	if sessionID == "" {
		return rec, nil
	}
	_, _, err := s.load(ctx, payments.CheckoutStream(sessionID), folderFunc(func(ev kernel.Event) {
		switch e := ev.(type) {
		case *payments.CheckoutSessionCreated:
			rec.Created = e
		case *payments.CheckoutSessionCompleted:
			rec.Completed = e
		case *payments.CheckoutSessionExpired:
			rec.Expired = true
		}
	}))
	return rec, err
}

// folderFunc folds with a function.
type folderFunc func(kernel.Event)

func (f folderFunc) Apply(ev kernel.Event) { f(ev) }

// CheckoutRetriever is a Provider that can say where a checkout session
// stands (Stripe's GET /v1/checkout/sessions/{id}).
type CheckoutRetriever interface {
	// RetrieveCheckout returns the session object as the provider's JSON;
	// a session the provider does not know is a kernel not-found error.
	RetrieveCheckout(ctx context.Context, sessionID string) ([]byte, error)
}

// maxConfirmRetries bounds how often a confirmation is decided again after
// the checkout's stream moved under it.
const maxConfirmRetries = 5

// ConfirmCheckout is RecordedCheckout for a buyer who may have come back
// before the provider's webhook: when no completion is recorded it asks the
// provider, and a session the provider says is complete is recorded as the
// webhook would record it (payments.checkout_session_completed, once per
// session, the payer sealed, the Reactions run in the same transaction),
// so the later webhook changes nothing. ProviderStatus tells what the
// provider said. Without a provider, or for a session the provider does
// not know, it returns what is recorded; a provider that cannot be reached
// is unavailable (503).
func (s *Service) ConfirmCheckout(ctx context.Context, sessionID string) (CheckoutRecord, error) {
	rec, err := s.RecordedCheckout(ctx, sessionID)
	if err != nil || rec.Completed != nil {
		return rec, err
	}
	retriever, ok := s.cfg.Provider.(CheckoutRetriever)
	if !ok {
		return rec, nil
	}
	raw, err := retriever.RetrieveCheckout(ctx, sessionID)
	if kernel.KindOf(err) == kernel.KindNotFound {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	var cs stripeCheckoutSession
	var head struct {
		Status string `json:"status"`
	}
	if err := jsonUnmarshal(raw, &cs); err != nil {
		return rec, fmt.Errorf("read checkout session %s: %w", sessionID, err)
	}
	_ = jsonUnmarshal(raw, &head)
	if cs.ID != sessionID {
		return rec, kernel.Unavailable("the payment provider answered about another checkout session", nil)
	}
	if head.Status != "complete" {
		rec.ProviderStatus = head.Status
		return rec, nil
	}
	if err := s.recordConfirmed(ctx, cs); err != nil {
		return rec, err
	}
	rec, err = s.RecordedCheckout(ctx, sessionID)
	rec.ProviderStatus = head.Status
	return rec, err
}

// recordConfirmed records the completion of a session the provider said is
// complete, unless one is recorded meanwhile.
func (s *Service) recordConfirmed(ctx context.Context, cs stripeCheckoutSession) error {
	md := eventstore.MetadataFrom(ctx)
	md.Actor = "payments"
	if md.CorrelationID == "" {
		md.CorrelationID = cs.ID
	}
	ctx = eventstore.WithMetadata(ctx, md)
	// The same fields as a webhook's completion; no provider event names it.
	r := &payments.WebhookReceived{Type: "checkout.session.completed", ProviderCreated: s.clock.Now().UTC()}
	for attempt := 0; ; attempt++ {
		d, err := s.deriveCheckout(ctx, r, cs, s.clock.Now().UTC())
		if err != nil || len(d.events) == 0 {
			return err // recorded meanwhile (by the webhook, or another confirmation)
		}
		payer := ""
		if c, ok := d.events[0].(*payments.CheckoutSessionCompleted); ok && c.Payer != nil {
			payer = c.Payer.Email
		}
		key, err := s.fresh(d.events[0], confirmedKey(cs.ID), s.PayerOwner(payer))
		if err != nil {
			return err
		}
		err = s.store.InTx(ctx, func(tx *sql.Tx) error {
			if _, err := s.store.AppendTx(ctx, tx, d.stream, d.expected, d.events...); err != nil {
				return err
			}
			if key != nil {
				if err := s.keys.Store(ctx, tx, key); err != nil {
					return err
				}
			}
			for _, react := range s.cfg.Reactions {
				if err := react(ctx, tx, d.events); err != nil {
					return err
				}
			}
			return nil
		})
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxConfirmRetries {
			continue // the stream moved: decide again
		}
		if err != nil {
			return fmt.Errorf("record the confirmed checkout %s: %w", cs.ID, err)
		}
		if key != nil {
			s.keys.Remember(key)
		}
		return nil
	}
}

// confirmedKey names the data key a confirmed completion's payer is sealed
// under (no provider event, whose key a webhook's completion uses, exists).
func confirmedKey(sessionID string) string {
	return "payments-checkout-confirmed:" + strings.TrimSpace(sessionID)
}

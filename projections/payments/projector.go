// Package payments projects the payments context's events into the tables
// of schema rm_payments_v1, which the payments read API serves: checkout
// sessions (with their attribution), subscriptions as the provider last
// described them, and invoices (payment history). It holds no personal
// data: the payer's email and name stay sealed in the events.
package payments

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_payments_v1.
const Name = "payments.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_payments_v1"

// Projector maintains rm_payments_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: each row is one
// stream's (a session, a subscription, an invoice), so an event that cannot
// be applied parks its stream and the others go on.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	return []string{
		(payments.CheckoutSessionCreated{}).EventType(),
		(payments.CheckoutSessionCompleted{}).EventType(),
		(payments.CheckoutSessionExpired{}).EventType(),
		(payments.SubscriptionChanged{}).EventType(),
		(payments.InvoicePaid{}).EventType(),
		(payments.InvoicePaymentFailed{}).EventType(),
	}
}

// Apply implements projections.Projector. A stream's events arrive in its
// order, which is the order its decisions were taken in, so the last event
// applied is the latest state.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *payments.CheckoutSessionCreated:
		_, err = tx.ExecContext(ctx, `INSERT INTO checkouts (session_id, channel, account_id, organization_id, product_line,
			plan, billing, price_id, amount, currency, status, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
			created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $12, $13, $14, $15, $16)
			ON CONFLICT (session_id) DO NOTHING`,
			ev.SessionID, ev.Channel, null(ev.AccountID), null(ev.OrganizationID), ev.ProductLine, ev.Plan, ev.Billing,
			null(ev.Price.PriceID), nullAmount(ev.Price.Amount), null(ev.Price.Currency), null(ev.UTM.Source),
			null(ev.UTM.Medium), null(ev.UTM.Campaign), null(ev.UTM.Term), null(ev.UTM.Content), ev.At)
	case *payments.CheckoutSessionCompleted:
		_, err = tx.ExecContext(ctx, `INSERT INTO checkouts (session_id, account_id, organization_id, product_line, plan,
			billing, amount, currency, status, customer_id, subscription_id, utm_source, utm_medium, utm_campaign, utm_term,
			utm_content, created_at, completed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'complete', $9, $10, $11, $12, $13, $14, $15, $16, $16)
			ON CONFLICT (session_id) DO UPDATE SET status = 'complete', customer_id = EXCLUDED.customer_id,
				subscription_id = EXCLUDED.subscription_id, completed_at = EXCLUDED.completed_at,
				amount = EXCLUDED.amount, currency = EXCLUDED.currency,
				account_id = COALESCE(checkouts.account_id, EXCLUDED.account_id)`,
			ev.SessionID, null(ev.AccountID), null(ev.OrganizationID), null(ev.ProductLine), null(ev.Plan), null(ev.Billing),
			ev.AmountTotal, null(ev.Currency), null(ev.CustomerID), null(ev.SubscriptionID), null(ev.UTM.Source),
			null(ev.UTM.Medium), null(ev.UTM.Campaign), null(ev.UTM.Term), null(ev.UTM.Content), ev.At)
	case *payments.CheckoutSessionExpired:
		_, err = tx.ExecContext(ctx, `UPDATE checkouts SET status = 'expired', expired_at = $2
			WHERE session_id = $1 AND status = 'open'`, ev.SessionID, ev.At)
	case *payments.SubscriptionChanged:
		st := ev.SubscriptionState
		_, err = tx.ExecContext(ctx, `INSERT INTO subscriptions (subscription_id, account_id, customer_id, product_line, plan,
			billing, price_id, status, last_change, current_period_start, current_period_end, cancel_at_period_end,
			canceled_at, ended_at, provider_created, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
			ON CONFLICT (subscription_id) DO UPDATE SET account_id = EXCLUDED.account_id, customer_id = EXCLUDED.customer_id,
				product_line = EXCLUDED.product_line, plan = EXCLUDED.plan, billing = EXCLUDED.billing,
				price_id = EXCLUDED.price_id, status = EXCLUDED.status, last_change = EXCLUDED.last_change,
				current_period_start = EXCLUDED.current_period_start, current_period_end = EXCLUDED.current_period_end,
				cancel_at_period_end = EXCLUDED.cancel_at_period_end, canceled_at = EXCLUDED.canceled_at,
				ended_at = EXCLUDED.ended_at, provider_created = EXCLUDED.provider_created, updated_at = EXCLUDED.updated_at`,
			ev.SubscriptionID, null(st.AccountID), null(st.CustomerID), null(st.ProductLine), null(st.Plan), null(st.Billing),
			null(st.PriceID), st.Status, ev.Change, st.CurrentPeriodStart, st.CurrentPeriodEnd, st.CancelAtPeriodEnd,
			st.CanceledAt, st.EndedAt, ev.ProviderCreated, ev.At)
	case *payments.InvoicePaid:
		err = upsertInvoice(ctx, tx, ev.InvoiceFacts, "paid", ev.ProviderCreated, ev.At)
	case *payments.InvoicePaymentFailed:
		err = upsertInvoice(ctx, tx, ev.InvoiceFacts, "failed", ev.ProviderCreated, ev.At)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", e.Type, err)
	}
	return nil
}

func upsertInvoice(ctx context.Context, tx *stdsql.Tx, f payments.InvoiceFacts, status string, created, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO invoices (invoice_id, number, subscription_id, customer_id, account_id,
		product_line, plan, status, amount_due, amount_paid, currency, period_start, period_end, billing_reason,
		attempt_count, next_payment_attempt, provider_created, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
		ON CONFLICT (invoice_id) DO UPDATE SET status = EXCLUDED.status, amount_due = EXCLUDED.amount_due,
			amount_paid = EXCLUDED.amount_paid, attempt_count = EXCLUDED.attempt_count,
			next_payment_attempt = EXCLUDED.next_payment_attempt, provider_created = EXCLUDED.provider_created,
			updated_at = EXCLUDED.updated_at, number = COALESCE(EXCLUDED.number, invoices.number)`,
		f.InvoiceID, null(f.Number), null(f.SubscriptionID), null(f.CustomerID), null(f.AccountID), null(f.ProductLine),
		null(f.Plan), status, f.AmountDue, f.AmountPaid, f.Currency, f.PeriodStart, f.PeriodEnd, null(f.BillingReason),
		f.AttemptCount, f.NextAttempt, created, at)
	return err
}

// null stores "" as NULL.
func null(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullAmount(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

package payments

import (
	"context"
	stdsql "database/sql"
	"errors"
	"time"
)

// Querier runs queries: a *sql.DB or a *sql.Tx.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *stdsql.Row
}

// accountCustomers is a CTE naming the provider customers of account $1: those
// its checkouts completed with and those its subscriptions name (a
// subscription's metadata or a checkout's client reference ties them).
const accountCustomers = `customers AS (
	SELECT customer_id FROM ` + Schema + `.checkouts WHERE account_id = $1 AND customer_id IS NOT NULL
	UNION SELECT customer_id FROM ` + Schema + `.subscriptions WHERE account_id = $1 AND customer_id IS NOT NULL)`

// Subscription is a subscription row.
type Subscription struct {
	SubscriptionID     string
	CustomerID         string
	ProductLine        string
	Plan               string
	Billing            string
	Status             string
	LastChange         string
	CurrentPeriodStart *time.Time
	CurrentPeriodEnd   *time.Time
	CancelAtPeriodEnd  bool
	CanceledAt         *time.Time
	EndedAt            *time.Time
	UpdatedAt          time.Time
}

// SubscriptionOf returns account's subscription of product line (any line
// when line is ""): a live one (active, trialing, past due, unpaid, paused)
// before an ended one, then the one whose provider event is newest. ok is
// false when the account has none.
func SubscriptionOf(ctx context.Context, q Querier, account, line string) (Subscription, bool, error) {
	var s Subscription
	var customer, pline, plan, billing stdsql.NullString
	err := q.QueryRowContext(ctx, `WITH `+accountCustomers+`
		SELECT subscription_id, customer_id, product_line, plan, billing, status, last_change, current_period_start,
			current_period_end, cancel_at_period_end, canceled_at, ended_at, updated_at
		FROM `+Schema+`.subscriptions s
		WHERE (s.account_id = $1 OR s.customer_id IN (SELECT customer_id FROM customers))
			AND ($2 = '' OR s.product_line = $2)
		ORDER BY (s.status IN ('active', 'trialing', 'past_due', 'unpaid', 'paused')) DESC, s.provider_created DESC,
			s.subscription_id
		LIMIT 1`, account, line).Scan(&s.SubscriptionID, &customer, &pline, &plan, &billing, &s.Status, &s.LastChange,
		&s.CurrentPeriodStart, &s.CurrentPeriodEnd, &s.CancelAtPeriodEnd, &s.CanceledAt, &s.EndedAt, &s.UpdatedAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		return Subscription{}, false, nil
	}
	if err != nil {
		return Subscription{}, false, err
	}
	s.CustomerID, s.ProductLine, s.Plan, s.Billing = customer.String, pline.String, plan.String, billing.String
	return s, true, nil
}

// CustomerOf returns the provider customer of account most recently seen
// (a completed checkout or a subscription), or "" when it has none.
func CustomerOf(ctx context.Context, q Querier, account string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT customer_id FROM (
			SELECT customer_id, completed_at AS at FROM `+Schema+`.checkouts WHERE account_id = $1 AND customer_id IS NOT NULL
			UNION ALL SELECT customer_id, updated_at FROM `+Schema+`.subscriptions WHERE account_id = $1 AND customer_id IS NOT NULL
		) c ORDER BY at DESC NULLS LAST, customer_id LIMIT 1`, account).Scan(&id)
	if errors.Is(err, stdsql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// Invoice is an invoice row: one payment (or failed attempt) of history.
type Invoice struct {
	InvoiceID      string
	Number         string
	SubscriptionID string
	ProductLine    string
	Plan           string
	Status         string
	AmountDue      int64
	AmountPaid     int64
	Currency       string
	PeriodStart    *time.Time
	PeriodEnd      *time.Time
	BillingReason  string
	AttemptCount   int64
	At             time.Time // the provider's time of the latest event about it
}

// History returns account's invoices of product line (any line when line
// is ""), newest first, limit from offset, and whether more follow.
// Invoices are the account's through their subscription's metadata or the
// account's customers.
func History(ctx context.Context, q Querier, account, line string, limit, offset int) ([]Invoice, bool, error) {
	rows, err := q.QueryContext(ctx, `WITH `+accountCustomers+`
		SELECT i.invoice_id, i.number, i.subscription_id, COALESCE(i.product_line, s.product_line),
			COALESCE(i.plan, s.plan), i.status, i.amount_due, i.amount_paid, i.currency, i.period_start, i.period_end,
			i.billing_reason, i.attempt_count, i.provider_created
		FROM `+Schema+`.invoices i LEFT JOIN `+Schema+`.subscriptions s ON s.subscription_id = i.subscription_id
		WHERE (i.account_id = $1 OR i.customer_id IN (SELECT customer_id FROM customers) OR s.account_id = $1)
			AND ($4 = '' OR COALESCE(i.product_line, s.product_line) = $4)
		ORDER BY i.provider_created DESC, i.invoice_id DESC
		LIMIT $2 OFFSET $3`, account, limit+1, offset, line)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []Invoice
	for rows.Next() {
		var i Invoice
		var number, sub, line, plan, reason stdsql.NullString
		if err := rows.Scan(&i.InvoiceID, &number, &sub, &line, &plan, &i.Status, &i.AmountDue, &i.AmountPaid, &i.Currency,
			&i.PeriodStart, &i.PeriodEnd, &reason, &i.AttemptCount, &i.At); err != nil {
			return nil, false, err
		}
		i.Number, i.SubscriptionID, i.ProductLine, i.Plan, i.BillingReason = number.String, sub.String, line.String, plan.String, reason.String
		out = append(out, i)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

// Checkout is a checkout session row.
type Checkout struct {
	SessionID      string
	Channel        string
	ProductLine    string
	Plan           string
	Billing        string
	Status         string
	CustomerID     string
	SubscriptionID string
	UTMSource      string
	UTMMedium      string
	UTMCampaign    string
	CreatedAt      time.Time
}

// CheckoutByID returns a checkout session; ok is false when unknown.
func CheckoutByID(ctx context.Context, q Querier, sessionID string) (Checkout, bool, error) {
	var c Checkout
	var ch, line, plan, billing, cust, sub, src, med, camp stdsql.NullString
	err := q.QueryRowContext(ctx, `SELECT session_id, channel, product_line, plan, billing, status, customer_id,
		subscription_id, utm_source, utm_medium, utm_campaign, created_at FROM `+Schema+`.checkouts WHERE session_id = $1`,
		sessionID).Scan(&c.SessionID, &ch, &line, &plan, &billing, &c.Status, &cust, &sub, &src, &med, &camp, &c.CreatedAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		return Checkout{}, false, nil
	}
	if err != nil {
		return Checkout{}, false, err
	}
	c.Channel, c.ProductLine, c.Plan, c.Billing = ch.String, line.String, plan.String, billing.String
	c.CustomerID, c.SubscriptionID, c.UTMSource, c.UTMMedium, c.UTMCampaign = cust.String, sub.String, src.String, med.String, camp.String
	return c, true, nil
}

package payments

import (
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/payments"
)

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// The few fields payments reads of Stripe's objects. They are read from
// the raw payload rather than through stripe-go's types so that an event of
// an older API version (current_period_* on the subscription instead of its
// items; invoice.subscription instead of invoice.parent) reads the same.

type stripeCheckoutSession struct {
	ID                string            `json:"id"`
	Mode              string            `json:"mode"`
	PaymentStatus     string            `json:"payment_status"`
	Customer          any               `json:"customer"`
	Subscription      any               `json:"subscription"`
	AmountTotal       int64             `json:"amount_total"`
	Currency          string            `json:"currency"`
	ClientReferenceID string            `json:"client_reference_id"`
	CustomerEmail     string            `json:"customer_email"`
	Metadata          map[string]string `json:"metadata"`
	CustomerDetails   *struct {
		Email string `json:"email"`
		Name  string `json:"name"`
	} `json:"customer_details"`
}

type stripePrice struct {
	ID        string `json:"id"`
	Recurring *struct {
		Interval string `json:"interval"`
	} `json:"recurring"`
}

type stripeSubscription struct {
	ID                 string            `json:"id"`
	Status             string            `json:"status"`
	Customer           any               `json:"customer"`
	Metadata           map[string]string `json:"metadata"`
	CurrentPeriodStart int64             `json:"current_period_start"` // API versions before 2025-03-31
	CurrentPeriodEnd   int64             `json:"current_period_end"`
	CancelAtPeriodEnd  bool              `json:"cancel_at_period_end"`
	CanceledAt         int64             `json:"canceled_at"`
	EndedAt            int64             `json:"ended_at"`
	Items              struct {
		Data []struct {
			CurrentPeriodStart int64        `json:"current_period_start"`
			CurrentPeriodEnd   int64        `json:"current_period_end"`
			Price              *stripePrice `json:"price"`
		} `json:"data"`
	} `json:"items"`
}

type stripeInvoice struct {
	ID                 string            `json:"id"`
	Number             string            `json:"number"`
	Customer           any               `json:"customer"`
	CustomerEmail      string            `json:"customer_email"`
	CustomerName       string            `json:"customer_name"`
	Subscription       any               `json:"subscription"` // API versions before 2025-03-31
	AmountDue          int64             `json:"amount_due"`
	AmountPaid         int64             `json:"amount_paid"`
	Currency           string            `json:"currency"`
	BillingReason      string            `json:"billing_reason"`
	AttemptCount       int64             `json:"attempt_count"`
	NextPaymentAttempt int64             `json:"next_payment_attempt"`
	PeriodStart        int64             `json:"period_start"`
	PeriodEnd          int64             `json:"period_end"`
	Metadata           map[string]string `json:"metadata"`
	Parent             *struct {
		SubscriptionDetails *struct {
			Subscription any               `json:"subscription"`
			Metadata     map[string]string `json:"metadata"`
		} `json:"subscription_details"`
	} `json:"parent"`
	Lines struct {
		Data []struct {
			Period *struct {
				Start int64 `json:"start"`
				End   int64 `json:"end"`
			} `json:"period"`
		} `json:"data"`
	} `json:"lines"`
}

// unix turns a Stripe timestamp into a time; 0 is none.
func unix(sec int64) *time.Time {
	if sec <= 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}

// billingOf maps Stripe's interval to ours.
func billingOf(interval string) string {
	switch interval {
	case "month":
		return payments.Monthly
	case "year":
		return payments.Yearly
	}
	return ""
}

// state reads a subscription object.
func (o stripeSubscription) state(cat payments.Catalog) payments.SubscriptionState {
	st := payments.SubscriptionState{Status: o.Status, CustomerID: idOf(o.Customer), AccountID: o.Metadata[MetaAccountID],
		ProductLine: o.Metadata[MetaProductLine], Plan: o.Metadata[MetaPlan], Billing: o.Metadata[MetaBilling],
		CurrentPeriodStart: unix(o.CurrentPeriodStart), CurrentPeriodEnd: unix(o.CurrentPeriodEnd),
		CancelAtPeriodEnd: o.CancelAtPeriodEnd, CanceledAt: unix(o.CanceledAt), EndedAt: unix(o.EndedAt)}
	if len(o.Items.Data) > 0 {
		it := o.Items.Data[0]
		if st.CurrentPeriodStart == nil {
			st.CurrentPeriodStart = unix(it.CurrentPeriodStart)
		}
		if st.CurrentPeriodEnd == nil {
			st.CurrentPeriodEnd = unix(it.CurrentPeriodEnd)
		}
		if it.Price != nil {
			st.PriceID = it.Price.ID
			if st.Billing == "" && it.Price.Recurring != nil {
				st.Billing = billingOf(it.Price.Recurring.Interval)
			}
		}
	}
	if st.ProductLine == "" { // a subscription made outside our checkout: known by its configured price
		if line, plan, billing, ok := cat.PlanOfPrice(st.PriceID); ok {
			st.ProductLine, st.Plan, st.Billing = line, plan, billing
		}
	}
	return st
}

// facts reads an invoice object.
func (o stripeInvoice) facts() payments.InvoiceFacts {
	f := payments.InvoiceFacts{InvoiceID: o.ID, Number: o.Number, CustomerID: idOf(o.Customer), SubscriptionID: idOf(o.Subscription),
		AmountDue: o.AmountDue, AmountPaid: o.AmountPaid, Currency: o.Currency, BillingReason: o.BillingReason,
		AttemptCount: o.AttemptCount, NextAttempt: unix(o.NextPaymentAttempt)}
	md := o.Metadata
	if o.Parent != nil && o.Parent.SubscriptionDetails != nil {
		if f.SubscriptionID == "" {
			f.SubscriptionID = idOf(o.Parent.SubscriptionDetails.Subscription)
		}
		if len(o.Parent.SubscriptionDetails.Metadata) > 0 {
			md = o.Parent.SubscriptionDetails.Metadata
		}
	}
	f.AccountID, f.ProductLine, f.Plan = md[MetaAccountID], md[MetaProductLine], md[MetaPlan]
	// A subscription invoice's own period_start/end is the period before it
	// (usage billed in arrears); its line's period is what was paid for.
	if len(o.Lines.Data) > 0 && o.Lines.Data[0].Period != nil {
		f.PeriodStart, f.PeriodEnd = unix(o.Lines.Data[0].Period.Start), unix(o.Lines.Data[0].Period.End)
	} else {
		f.PeriodStart, f.PeriodEnd = unix(o.PeriodStart), unix(o.PeriodEnd)
	}
	return f
}

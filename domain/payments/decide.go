package payments

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Subscription is the fold of a subscription's stream: its last recorded
// state and the provider time of the event that said so.
type Subscription struct {
	Exists      bool
	State       SubscriptionState
	LastCreated time.Time // provider created time of the last recorded change
	LastEventID string
}

// Apply folds one event of the subscription's stream.
func (s *Subscription) Apply(ev kernel.Event) {
	if e, ok := ev.(*SubscriptionChanged); ok {
		s.Exists, s.State, s.LastCreated, s.LastEventID = true, e.SubscriptionState, e.ProviderCreated, e.ProviderEventID
	}
}

// SubscriptionUpdate is what one provider event says about a subscription.
type SubscriptionUpdate struct {
	SubscriptionID string
	EventID        string
	EventType      string // the provider's event type
	Deleted        bool   // the provider says the subscription ended (customer.subscription.deleted)
	State          SubscriptionState
	Created        time.Time // the provider event's created time
}

// Decide turns a provider update into the change to record, or nil with
// the outcome when nothing changes:
//   - an update whose event was created before the last recorded one is
//     stale and never overwrites it (webhooks arrive out of order); one
//     created in the same second is applied, in arrival order (the
//     provider's created times have a one-second resolution);
//   - the same provider event twice is known.
//
// Fields the update leaves empty (the product line, plan and account the
// provider's metadata did not carry) keep their recorded values.
func (s *Subscription) Decide(u SubscriptionUpdate, now time.Time) (*SubscriptionChanged, string) {
	if s.Exists && u.EventID != "" && u.EventID == s.LastEventID {
		return nil, OutcomeKnown
	}
	if s.Exists && u.Created.Before(s.LastCreated) {
		return nil, OutcomeStale
	}
	st := u.State
	if s.Exists {
		keep := func(v *string, old string) {
			if *v == "" {
				*v = old
			}
		}
		keep(&st.CustomerID, s.State.CustomerID)
		keep(&st.AccountID, s.State.AccountID)
		keep(&st.ProductLine, s.State.ProductLine)
		keep(&st.Plan, s.State.Plan)
		keep(&st.Billing, s.State.Billing)
		keep(&st.PriceID, s.State.PriceID)
	}
	ev := &SubscriptionChanged{SubscriptionID: u.SubscriptionID, ProviderEventID: u.EventID, ProviderEventType: u.EventType,
		Change: s.classify(u, st), SubscriptionState: st, ProviderCreated: u.Created.UTC(), At: now.UTC()}
	if s.Exists {
		ev.Previous = s.State.Status
	}
	return ev, OutcomeRecorded
}

// classify names the change from the recorded state to st.
func (s *Subscription) classify(u SubscriptionUpdate, st SubscriptionState) string {
	switch {
	case u.Deleted || st.Status == "canceled":
		return ChangeCancelled
	case !s.Exists:
		return ChangeCreated
	case st.Status == "past_due" && s.State.Status != "past_due":
		return ChangePastDue
	case (st.Status == "active" || st.Status == "trialing") && later(st.CurrentPeriodStart, s.State.CurrentPeriodStart):
		return ChangeRenewed
	}
	return ChangeUpdated
}

// later reports whether a is set and after b (or b is unset).
func later(a, b *time.Time) bool {
	return a != nil && (b == nil || a.After(*b))
}

// Checkout is the fold of a checkout session's stream.
type Checkout struct {
	Created   *CheckoutSessionCreated
	Completed bool
	Expired   bool
}

// Apply folds one event of the checkout's stream.
func (c *Checkout) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *CheckoutSessionCreated:
		c.Created = e
	case *CheckoutSessionCompleted:
		c.Completed = true
	case *CheckoutSessionExpired:
		c.Expired = true
	}
}

// Complete decides a completion: recorded once; what our own session
// recorded (line, plan, billing, account, attribution) fills what the
// provider's copy lacks.
func (c *Checkout) Complete(ev *CheckoutSessionCompleted) (*CheckoutSessionCompleted, string) {
	if c.Completed {
		return nil, OutcomeKnown
	}
	if cr := c.Created; cr != nil {
		fill := func(v *string, ours string) {
			if *v == "" {
				*v = ours
			}
		}
		fill(&ev.ProductLine, cr.ProductLine)
		fill(&ev.Plan, cr.Plan)
		fill(&ev.Billing, cr.Billing)
		fill(&ev.AccountID, cr.AccountID)
		fill(&ev.OrganizationID, cr.OrganizationID)
		if ev.UTM == (UTM{}) {
			ev.UTM = cr.UTM
		}
	}
	return ev, OutcomeRecorded
}

// Expire decides an expiry: nothing once the session completed or expired.
func (c *Checkout) Expire(ev *CheckoutSessionExpired) (*CheckoutSessionExpired, string) {
	if c.Completed || c.Expired {
		return nil, OutcomeKnown
	}
	return ev, OutcomeRecorded
}

// Invoice is the fold of an invoice's stream.
type Invoice struct {
	Paid        bool
	LastCreated time.Time
	Events      map[string]bool // provider event ids recorded
}

// Apply folds one event of the invoice's stream.
func (i *Invoice) Apply(ev kernel.Event) {
	if i.Events == nil {
		i.Events = map[string]bool{}
	}
	switch e := ev.(type) {
	case *InvoicePaid:
		i.Paid, i.Events[e.ProviderEventID] = true, true
		i.LastCreated = maxTime(i.LastCreated, e.ProviderCreated)
	case *InvoicePaymentFailed:
		i.Events[e.ProviderEventID] = true
		i.LastCreated = maxTime(i.LastCreated, e.ProviderCreated)
	}
}

// Pay decides a payment: an invoice is paid once (the provider announces it
// under two event types).
func (i *Invoice) Pay(ev *InvoicePaid) (*InvoicePaid, string) {
	if i.Paid || i.Events[ev.ProviderEventID] {
		return nil, OutcomeKnown
	}
	return ev, OutcomeRecorded
}

// Fail decides a failed attempt: every attempt is history, but none once
// the invoice is paid, and none older than what is recorded.
func (i *Invoice) Fail(ev *InvoicePaymentFailed) (*InvoicePaymentFailed, string) {
	if i.Events[ev.ProviderEventID] {
		return nil, OutcomeKnown
	}
	if i.Paid || ev.ProviderCreated.Before(i.LastCreated) {
		return nil, OutcomeStale
	}
	return ev, OutcomeRecorded
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Webhook is the fold of a provider event's stream: received once (its
// first event), processed at most once (its second).
type Webhook struct {
	Received  *WebhookReceived
	Processed *WebhookProcessed
}

// Apply folds one event of the webhook's stream.
func (w *Webhook) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *WebhookReceived:
		w.Received = e
	case *WebhookProcessed:
		w.Processed = e
	}
}

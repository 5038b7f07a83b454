package payments

import (
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the payments context and their stream id prefixes.
const (
	StreamCheckout     = "payments.checkout"     // one checkout session; id CheckoutStream(session id)
	StreamSubscription = "payments.subscription" // one provider subscription; id SubscriptionStream(id)
	StreamInvoice      = "payments.invoice"      // one provider invoice; id InvoiceStream(id)
	StreamWebhook      = "payments.webhook"      // one provider event; id WebhookStream(event id)
	StreamAccount      = "payments.account"      // an account's billing-portal sessions; id AccountStream(account)
	StreamUsage        = "payments.usage"        // one usage report; id UsageStream(identifier)
)

// CheckoutStream is the stream id of a checkout session.
func CheckoutStream(sessionID string) string { return "payments-checkout:" + sessionID }

// SubscriptionStream is the stream id of a subscription.
func SubscriptionStream(id string) string { return "payments-subscription:" + id }

// InvoiceStream is the stream id of an invoice.
func InvoiceStream(id string) string { return "payments-invoice:" + id }

// WebhookStream is the stream id of a provider event: one stream per event
// id, so a second delivery of the event clashes with the first.
func WebhookStream(eventID string) string { return "payments-webhook:" + eventID }

// AccountStream is the stream id of an account's billing events.
func AccountStream(accountID string) string { return "payments-account:" + accountID }

// UsageStream is the stream id of one usage report (by its identifier).
func UsageStream(identifier string) string { return "payments-usage:" + identifier }

// CheckoutKey names the data key a checkout session's payer is sealed under.
func CheckoutKey(sessionID string) string { return "payments-checkout:" + sessionID }

// WebhookKey names the data key a provider event's payload, and the personal
// data of the events derived from it, are sealed under.
func WebhookKey(eventID string) string { return "payments-webhook:" + eventID }

// Payer is the personal data of whoever pays: kept only sealed in events.
type Payer struct {
	Email string `json:"email,omitempty"`
	Name  string `json:"name,omitempty"`
}

// UTM is a checkout's marketing attribution, kept on the session.
type UTM struct {
	Source   string `json:"source,omitempty"`
	Medium   string `json:"medium,omitempty"`
	Campaign string `json:"campaign,omitempty"`
	Term     string `json:"term,omitempty"`
	Content  string `json:"content,omitempty"`
}

// Checkout channels: who asked for the session.
const (
	ChannelAccount = "account" // a signed-in platform caller (/payments/checkout)
	ChannelAudit   = "audit"   // the public audit checkout (/public/ax-audit/checkout)
)

// CheckoutSessionCreated records a checkout session the provider created
// for us: what is sold (line, plan, billing interval, price sent), for whom
// (the signed-in account, if any; the payer's email sealed under
// CheckoutKey) and the attribution (UTM).
type CheckoutSessionCreated struct {
	SessionID      string        `json:"session_id"`
	Provider       string        `json:"provider"`
	Channel        string        `json:"channel"`
	ProductLine    string        `json:"product_line"`
	Plan           string        `json:"plan"`
	Billing        string        `json:"billing"`
	Price          Price         `json:"price"`
	AccountID      string        `json:"account_id,omitempty"`
	OrganizationID string        `json:"organization_id,omitempty"`
	SuccessURL     string        `json:"success_url"`
	CancelURL      string        `json:"cancel_url"`
	UTM            UTM           `json:"utm"`
	ExpiresAt      *time.Time    `json:"expires_at,omitempty"`
	Secret         kernel.Sealed `json:"secret"` // Payer
	At             time.Time     `json:"at"`
	Payer          *Payer        `json:"-"` // plain; nil when the key was destroyed
}

// CheckoutSessionCompleted records the provider's checkout.session.completed:
// the customer and subscription it produced, the payer (sealed under the
// provider event's WebhookKey) and what our session said it sold. It is what
// account provisioning builds on.
type CheckoutSessionCompleted struct {
	SessionID       string        `json:"session_id"`
	ProviderEventID string        `json:"provider_event_id"`
	Mode            string        `json:"mode,omitempty"`
	ProductLine     string        `json:"product_line,omitempty"`
	Plan            string        `json:"plan,omitempty"`
	Billing         string        `json:"billing,omitempty"`
	AccountID       string        `json:"account_id,omitempty"`
	OrganizationID  string        `json:"organization_id,omitempty"`
	CustomerID      string        `json:"customer_id,omitempty"`
	SubscriptionID  string        `json:"subscription_id,omitempty"`
	PaymentStatus   string        `json:"payment_status,omitempty"`
	AmountTotal     int64         `json:"amount_total"`
	Currency        string        `json:"currency,omitempty"`
	UTM             UTM           `json:"utm"`
	ProviderCreated time.Time     `json:"provider_created"`
	Secret          kernel.Sealed `json:"secret"` // Payer
	At              time.Time     `json:"at"`
	Payer           *Payer        `json:"-"`
}

// CheckoutSessionExpired records that a session expired unpaid.
type CheckoutSessionExpired struct {
	SessionID       string    `json:"session_id"`
	ProviderEventID string    `json:"provider_event_id"`
	ProviderCreated time.Time `json:"provider_created"`
	At              time.Time `json:"at"`
}

// Subscription changes, as SubscriptionChanged.Change names them.
const (
	ChangeCreated   = "created"
	ChangeRenewed   = "renewed"   // a new period began (status active or trialing)
	ChangePastDue   = "past_due"  // a payment failed; the provider retries
	ChangeCancelled = "cancelled" // ended (status canceled)
	ChangeUpdated   = "updated"   // anything else (plan, cancel_at_period_end, metadata...)
)

// SubscriptionState is a subscription as the provider last described it.
type SubscriptionState struct {
	Status             string     `json:"status"`
	CustomerID         string     `json:"customer_id,omitempty"`
	AccountID          string     `json:"account_id,omitempty"`
	ProductLine        string     `json:"product_line,omitempty"`
	Plan               string     `json:"plan,omitempty"`
	Billing            string     `json:"billing,omitempty"`
	PriceID            string     `json:"price_id,omitempty"`
	CurrentPeriodStart *time.Time `json:"current_period_start,omitempty"`
	CurrentPeriodEnd   *time.Time `json:"current_period_end,omitempty"`
	CancelAtPeriodEnd  bool       `json:"cancel_at_period_end,omitempty"`
	CanceledAt         *time.Time `json:"canceled_at,omitempty"`
	EndedAt            *time.Time `json:"ended_at,omitempty"`
}

// SubscriptionChanged records a subscription's new state from one provider
// event, with the event's created time (the order decisions go by) and what
// changed.
type SubscriptionChanged struct {
	SubscriptionID    string `json:"subscription_id"`
	ProviderEventID   string `json:"provider_event_id"`
	ProviderEventType string `json:"provider_event_type"`
	Change            string `json:"change"`
	Previous          string `json:"previous_status,omitempty"`
	SubscriptionState
	ProviderCreated time.Time `json:"provider_created"`
	At              time.Time `json:"at"`
}

// InvoiceFacts are an invoice's figures, shared by paid and failed.
type InvoiceFacts struct {
	InvoiceID      string     `json:"invoice_id"`
	Number         string     `json:"number,omitempty"`
	SubscriptionID string     `json:"subscription_id,omitempty"`
	CustomerID     string     `json:"customer_id,omitempty"`
	AccountID      string     `json:"account_id,omitempty"`
	ProductLine    string     `json:"product_line,omitempty"`
	Plan           string     `json:"plan,omitempty"`
	AmountDue      int64      `json:"amount_due"`
	AmountPaid     int64      `json:"amount_paid"`
	Currency       string     `json:"currency"`
	PeriodStart    *time.Time `json:"period_start,omitempty"`
	PeriodEnd      *time.Time `json:"period_end,omitempty"`
	BillingReason  string     `json:"billing_reason,omitempty"`
	AttemptCount   int64      `json:"attempt_count,omitempty"`
	NextAttempt    *time.Time `json:"next_payment_attempt,omitempty"`
}

// InvoicePaid records a paid invoice (payment history).
type InvoicePaid struct {
	InvoiceFacts
	ProviderEventID string        `json:"provider_event_id"`
	ProviderCreated time.Time     `json:"provider_created"`
	Secret          kernel.Sealed `json:"secret"` // Payer
	At              time.Time     `json:"at"`
	Payer           *Payer        `json:"-"`
}

// InvoicePaymentFailed records a failed attempt to pay an invoice.
type InvoicePaymentFailed struct {
	InvoiceFacts
	ProviderEventID string        `json:"provider_event_id"`
	ProviderCreated time.Time     `json:"provider_created"`
	Secret          kernel.Sealed `json:"secret"` // Payer
	At              time.Time     `json:"at"`
	Payer           *Payer        `json:"-"`
}

// PortalSessionCreated records a billing-portal session opened for an
// account's customer.
type PortalSessionCreated struct {
	SessionID  string    `json:"session_id"`
	Provider   string    `json:"provider"`
	AccountID  string    `json:"account_id"`
	CustomerID string    `json:"customer_id"`
	ReturnURL  string    `json:"return_url"`
	At         time.Time `json:"at"`
}

// UsageReported records metered usage reported to the provider (a billing
// meter event), once per identifier.
type UsageReported struct {
	Identifier  string    `json:"identifier"`
	Provider    string    `json:"provider"`
	AccountID   string    `json:"account_id,omitempty"`
	CustomerID  string    `json:"customer_id"`
	ProductLine string    `json:"product_line,omitempty"`
	Meter       string    `json:"meter"`
	Value       int64     `json:"value"`
	Timestamp   time.Time `json:"timestamp"`
	At          time.Time `json:"at"`
}

// WebhookReceived records one verified provider event, once per event id:
// its envelope in the clear, its whole payload sealed under WebhookKey.
type WebhookReceived struct {
	Provider        string          `json:"provider"`
	EventID         string          `json:"event_id"`
	Type            string          `json:"type"`
	APIVersion      string          `json:"api_version,omitempty"`
	Livemode        bool            `json:"livemode"`
	ProviderCreated time.Time       `json:"provider_created"`
	ObjectType      string          `json:"object_type,omitempty"`
	ObjectID        string          `json:"object_id,omitempty"`
	CustomerID      string          `json:"customer_id,omitempty"`
	Secret          kernel.Sealed   `json:"secret"` // the payload
	At              time.Time       `json:"at"`
	Payload         json.RawMessage `json:"-"`
}

// Outcomes of processing a provider event.
const (
	OutcomeRecorded = "recorded" // events were derived and appended
	OutcomeStale    = "stale"    // older than what is recorded: nothing changed
	OutcomeKnown    = "known"    // already recorded (another event said it): nothing changed
	OutcomeIgnored  = "ignored"  // a type payments does not act on
)

// WebhookProcessed closes a provider event's stream: what processing did
// (Outcome), to which stream, and why nothing changed when it did not.
type WebhookProcessed struct {
	EventID string    `json:"event_id"`
	Outcome string    `json:"outcome"`
	Stream  string    `json:"stream,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	At      time.Time `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (CheckoutSessionCreated) EventType() string   { return "payments.checkout_session_created" }
func (CheckoutSessionCompleted) EventType() string { return "payments.checkout_session_completed" }
func (CheckoutSessionExpired) EventType() string   { return "payments.checkout_session_expired" }
func (SubscriptionChanged) EventType() string      { return "payments.subscription_changed" }
func (InvoicePaid) EventType() string              { return "payments.invoice_paid" }
func (InvoicePaymentFailed) EventType() string     { return "payments.invoice_payment_failed" }
func (PortalSessionCreated) EventType() string     { return "payments.portal_session_created" }
func (UsageReported) EventType() string            { return "payments.usage_reported" }
func (WebhookReceived) EventType() string          { return "payments.webhook_received" }
func (WebhookProcessed) EventType() string         { return "payments.webhook_processed" }

// Events lists the constructors of every payments event, for registration.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &CheckoutSessionCreated{} },
		func() kernel.Event { return &CheckoutSessionCompleted{} },
		func() kernel.Event { return &CheckoutSessionExpired{} },
		func() kernel.Event { return &SubscriptionChanged{} },
		func() kernel.Event { return &InvoicePaid{} },
		func() kernel.Event { return &InvoicePaymentFailed{} },
		func() kernel.Event { return &PortalSessionCreated{} },
		func() kernel.Event { return &UsageReported{} },
		func() kernel.Event { return &WebhookReceived{} },
		func() kernel.Event { return &WebhookProcessed{} },
	}
}

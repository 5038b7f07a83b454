package payments

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/strata-platform/strata/domain/payments"
)

// Provider is a payment provider as the payments context uses it: hosted
// checkout sessions for subscriptions, billing-portal sessions, metered
// usage, and the verification of the events it posts to our webhook. Stripe
// is the one implementation (NewStripe); the interface keeps its protocol
// out of the service.
type Provider interface {
	// Name is the provider's name as events record it ("stripe").
	Name() string
	// CreateCheckout creates a hosted checkout session for a subscription.
	CreateCheckout(ctx context.Context, p CheckoutParams) (CheckoutSession, error)
	// CreatePortal creates a billing-portal session for a customer.
	CreatePortal(ctx context.Context, p PortalParams) (PortalSession, error)
	// ReportUsage reports metered usage of a customer (once per identifier:
	// the provider ignores a repeated identifier).
	ReportUsage(ctx context.Context, p UsageParams) error
	// VerifyWebhook checks a webhook request's signature (timestamped HMAC,
	// within a tolerance, under any configured secret) and parses the event.
	// A request that does not verify is a kernel invalid error naming the
	// signature header; no secret configured is ErrWebhookNotConfigured.
	VerifyWebhook(payload []byte, signature string) (WebhookEvent, error)
}

// ErrWebhookNotConfigured: the provider has no webhook signing secret.
var ErrWebhookNotConfigured = errors.New("payments: no webhook signing secret is configured")

// CheckoutParams is one checkout session to create.
type CheckoutParams struct {
	IdempotencyKey    string // the provider creates one session for retries with the same key
	ProductName       string // the product's name, for an inline price
	Price             payments.Price
	Billing           string // payments.Monthly or payments.Yearly
	SuccessURL        string
	CancelURL         string
	Email             string            // prefilled payer email ("" lets the payer type it)
	ClientReferenceID string            // our account id, when the payer is signed in
	Metadata          map[string]string // kept on the session and on the subscription it creates
}

// CheckoutSession is a created checkout session: the payer goes to URL.
type CheckoutSession struct {
	ID        string
	URL       string
	ExpiresAt time.Time
}

// PortalParams is one billing-portal session to create.
type PortalParams struct {
	CustomerID string
	ReturnURL  string
}

// PortalSession is a created billing-portal session: the customer goes to URL.
type PortalSession struct {
	ID  string
	URL string
}

// UsageParams is one usage report.
type UsageParams struct {
	Meter      string // the provider's meter event name
	CustomerID string
	Value      int64
	Identifier string
	Timestamp  time.Time
}

// WebhookEvent is a verified provider event.
type WebhookEvent struct {
	ID         string
	Type       string
	APIVersion string
	Livemode   bool
	Created    time.Time
	Object     json.RawMessage // data.object
	Payload    []byte          // the verified request body
}

// Metadata keys Strata sets on checkout sessions and their subscriptions.
const (
	MetaProductLine    = "strata_product_line"
	MetaPlan           = "strata_plan"
	MetaBilling        = "strata_billing"
	MetaAccountID      = "strata_account_id"
	MetaOrganizationID = "strata_organization_id"
	MetaChannel        = "strata_channel"
	MetaUTMSource      = "utm_source"
	MetaUTMMedium      = "utm_medium"
	MetaUTMCampaign    = "utm_campaign"
	MetaUTMTerm        = "utm_term"
	MetaUTMContent     = "utm_content"
)

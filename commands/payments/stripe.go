package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
)

// DefaultStripeAPIBase is Stripe's API.
const DefaultStripeAPIBase = "https://api.stripe.com"

// DefaultWebhookTolerance is how old a webhook's signed timestamp may be.
const DefaultWebhookTolerance = webhook.DefaultTolerance

// SignatureHeader is the header Stripe signs webhooks in.
const SignatureHeader = "Stripe-Signature"

// StripeConfig configures the Stripe adapter.
type StripeConfig struct {
	SecretKey string
	// WebhookSecrets are the endpoint signing secrets (whsec_...); during a
	// rotation both the old and the new one verify.
	WebhookSecrets []string
	// APIBase is the API's base URL (DefaultStripeAPIBase when empty; a
	// stripe-mock or a proxy in tests).
	APIBase string
	// Tolerance bounds the age of a webhook's signed timestamp
	// (DefaultWebhookTolerance when 0).
	Tolerance  time.Duration
	HTTPClient *http.Client // nil: a client with a 30 s timeout
	Logger     *slog.Logger
}

// Stripe is the Provider over Stripe's API, through stripe-go.
type Stripe struct {
	client    *stripe.Client
	secrets   []string
	tolerance time.Duration
}

// NewStripe returns the Stripe adapter. The secret key is required; the
// API base must be an absolute http(s) URL.
func NewStripe(cfg StripeConfig) (*Stripe, error) {
	if strings.TrimSpace(cfg.SecretKey) == "" {
		return nil, errors.New("stripe: a secret key is required")
	}
	base := strings.TrimRight(cfg.APIBase, "/")
	if base == "" {
		base = DefaultStripeAPIBase
	}
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("stripe: API base must be an absolute http(s) URL, got %q", cfg.APIBase)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	api := stripe.GetBackendWithConfig(stripe.APIBackend, &stripe.BackendConfig{
		URL: stripe.String(base), HTTPClient: hc, LeveledLogger: stripeLogger{logger},
		MaxNetworkRetries: stripe.Int64(2), EnableTelemetry: stripe.Bool(false)})
	backends := &stripe.Backends{API: api, Connect: api, Uploads: api, MeterEvents: api}
	tol := cfg.Tolerance
	if tol <= 0 {
		tol = DefaultWebhookTolerance
	}
	var secrets []string
	for _, s := range cfg.WebhookSecrets {
		if s = strings.TrimSpace(s); s != "" {
			secrets = append(secrets, s)
		}
	}
	return &Stripe{client: stripe.NewClient(cfg.SecretKey, stripe.WithBackends(backends)), secrets: secrets, tolerance: tol}, nil
}

// Name implements Provider.
func (*Stripe) Name() string { return "stripe" }

// stripeInterval is Stripe's name of a billing interval.
func stripeInterval(billing string) string {
	if billing == payments.Yearly {
		return "year"
	}
	return "month"
}

// CreateCheckout implements Provider: a subscription-mode session with one
// line item, the configured price id or an inline price (unit amount,
// currency, recurring interval, product name).
func (s *Stripe) CreateCheckout(ctx context.Context, p CheckoutParams) (CheckoutSession, error) {
	item := &stripe.CheckoutSessionCreateLineItemParams{Quantity: stripe.Int64(1)}
	if p.Price.PriceID != "" {
		item.Price = stripe.String(p.Price.PriceID)
	} else {
		item.PriceData = &stripe.CheckoutSessionCreateLineItemPriceDataParams{
			Currency:    stripe.String(p.Price.Currency),
			UnitAmount:  stripe.Int64(p.Price.Amount),
			Recurring:   &stripe.CheckoutSessionCreateLineItemPriceDataRecurringParams{Interval: stripe.String(stripeInterval(p.Billing))},
			ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(p.ProductName)},
		}
	}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:             stripe.String("subscription"),
		LineItems:        []*stripe.CheckoutSessionCreateLineItemParams{item},
		SuccessURL:       stripe.String(p.SuccessURL),
		CancelURL:        stripe.String(p.CancelURL),
		Metadata:         p.Metadata,
		SubscriptionData: &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: p.Metadata},
	}
	if p.Email != "" {
		params.CustomerEmail = stripe.String(p.Email)
	}
	if p.ClientReferenceID != "" {
		params.ClientReferenceID = stripe.String(p.ClientReferenceID)
	}
	if p.IdempotencyKey != "" {
		params.SetIdempotencyKey(p.IdempotencyKey)
	}
	cs, err := s.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return CheckoutSession{}, providerError("create a checkout session", err)
	}
	if cs.ID == "" || cs.URL == "" {
		return CheckoutSession{}, kernel.Unavailable("the payment provider answered without a checkout URL", nil)
	}
	out := CheckoutSession{ID: cs.ID, URL: cs.URL}
	if cs.ExpiresAt > 0 {
		out.ExpiresAt = time.Unix(cs.ExpiresAt, 0).UTC()
	}
	return out, nil
}

// CreatePortal implements Provider.
func (s *Stripe) CreatePortal(ctx context.Context, p PortalParams) (PortalSession, error) {
	ps, err := s.client.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer: stripe.String(p.CustomerID), ReturnURL: stripe.String(p.ReturnURL)})
	if err != nil {
		return PortalSession{}, providerError("create a billing-portal session", err)
	}
	if ps.URL == "" {
		return PortalSession{}, kernel.Unavailable("the payment provider answered without a portal URL", nil)
	}
	return PortalSession{ID: ps.ID, URL: ps.URL}, nil
}

// ReportUsage implements Provider with a billing meter event.
func (s *Stripe) ReportUsage(ctx context.Context, p UsageParams) error {
	params := &stripe.BillingMeterEventCreateParams{
		EventName:  stripe.String(p.Meter),
		Identifier: stripe.String(p.Identifier),
		Payload:    map[string]string{"stripe_customer_id": p.CustomerID, "value": fmt.Sprint(p.Value)},
		Timestamp:  stripe.Int64(p.Timestamp.Unix()),
	}
	params.SetIdempotencyKey("usage-" + p.Identifier)
	if _, err := s.client.V1BillingMeterEvents.Create(ctx, params); err != nil {
		return providerError("report usage", err)
	}
	return nil
}

// VerifyWebhook implements Provider with stripe-go's webhook package: the
// signed timestamp must be within the tolerance and one v1 signature must
// match one configured secret. The event's API version may differ from
// stripe-go's: payments reads the few fields it needs from both shapes.
func (s *Stripe) VerifyWebhook(payload []byte, signature string) (WebhookEvent, error) {
	if len(s.secrets) == 0 {
		return WebhookEvent{}, ErrWebhookNotConfigured
	}
	var ev stripe.Event
	var err error
	for _, secret := range s.secrets {
		ev, err = webhook.ConstructEventWithOptions(payload, signature, secret,
			webhook.ConstructEventOptions{Tolerance: s.tolerance, IgnoreAPIVersionMismatch: true})
		if err == nil || !errors.Is(err, webhook.ErrNoValidSignature) {
			break // verified, or refused whatever the secret
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, webhook.ErrNotSigned):
		return WebhookEvent{}, kernel.Invalid(SignatureHeader, "required", "the "+SignatureHeader+" header is missing")
	case errors.Is(err, webhook.ErrInvalidHeader):
		return WebhookEvent{}, kernel.Invalid(SignatureHeader, "format", "the "+SignatureHeader+" header is malformed")
	case errors.Is(err, webhook.ErrTooOld):
		return WebhookEvent{}, kernel.Invalid(SignatureHeader, fmt.Sprintf("tolerance:%ds", int(s.tolerance/time.Second)),
			"the signature's timestamp is outside the tolerance")
	case errors.Is(err, webhook.ErrNoValidSignature):
		return WebhookEvent{}, kernel.Invalid(SignatureHeader, "signature", "no signature matches the payload")
	default: // verified, but not an event we can read
		return WebhookEvent{}, &kernel.Error{Kind: kernel.KindInvalid, Field: "body", Rule: "event",
			Message: "the payload is not a Stripe event", Err: err}
	}
	if ev.ID == "" || ev.Type == "" || ev.Data == nil || len(ev.Data.Raw) == 0 {
		return WebhookEvent{}, kernel.Invalid("body", "event", "the payload is not a Stripe event")
	}
	return WebhookEvent{ID: ev.ID, Type: string(ev.Type), APIVersion: ev.APIVersion, Livemode: ev.Livemode,
		Created: time.Unix(ev.Created, 0).UTC(), Object: json.RawMessage(ev.Data.Raw), Payload: payload}, nil
}

// providerError turns a failed call into an unavailable error (503): the
// provider's own message goes to the log through the wrapped cause, never
// to the client, since it may name configuration (price ids, keys).
func providerError(what string, err error) error {
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != http.StatusTooManyRequests {
		return kernel.Unavailable("the payment provider refused to "+what+"; the server log has its reason",
			fmt.Errorf("stripe %s (%d %s %s): %s", what, se.HTTPStatusCode, se.Type, se.Code, se.Msg))
	}
	return kernel.Unavailable("the payment provider could not be reached to "+what, err)
}

// stripeLogger sends stripe-go's log lines to slog.
type stripeLogger struct{ log *slog.Logger }

func (l stripeLogger) Debugf(format string, v ...any) {
	l.log.Debug(fmt.Sprintf(format, v...), "source", "stripe-go")
}
func (l stripeLogger) Infof(format string, v ...any) {
	l.log.Debug(fmt.Sprintf(format, v...), "source", "stripe-go")
}
func (l stripeLogger) Warnf(format string, v ...any) {
	l.log.Warn(fmt.Sprintf(format, v...), "source", "stripe-go")
}
func (l stripeLogger) Errorf(format string, v ...any) {
	l.log.Warn(fmt.Sprintf(format, v...), "source", "stripe-go")
}

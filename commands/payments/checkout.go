package payments

import (
	"context"
	"errors"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// CheckoutInput is a request for a checkout session.
type CheckoutInput struct {
	payments.Order
	Fields         payments.Fields // how the route names the order's fields (DefaultFields when zero)
	Channel        string          // payments.ChannelAccount or payments.ChannelAudit
	AccountID      string          // the signed-in caller, if any
	OrganizationID string
}

// Checkout is a created checkout session.
type Checkout struct {
	SessionID   string
	URL         string
	ExpiresAt   time.Time
	ProductLine string
	Plan        string
	Billing     string
	Price       payments.Price
}

// CreateCheckout validates the order against the catalog, asks the provider
// for a subscription checkout session and records
// payments.checkout_session_created (the payer's email sealed). Without a
// provider, or for a plan nobody priced, it answers 503 naming the setting
// to set; nothing is sent and nothing recorded. The product line, plan,
// billing interval, account and UTM fields travel as metadata on the
// session and on the subscription it creates, so the provider's webhooks
// carry them back.
//
// The session exists at the provider before it is recorded: if the append
// fails, the session is unrecorded until its completion arrives as a
// webhook (which is recorded whether or not the session was).
func (s *Service) CreateCheckout(ctx context.Context, in CheckoutInput) (Checkout, error) {
	fields := in.Fields
	if fields == (payments.Fields{}) {
		fields = payments.DefaultFields
	}
	order, price, err := s.cfg.Catalog.Check(in.Order, fields)
	var np *payments.NotPriced
	if err != nil && !errors.As(err, &np) {
		return Checkout{}, err
	}
	prov, perr := s.provider()
	if np != nil {
		setting := PriceSetting(np.ProductLine, np.Plan, np.Billing)
		msg := np.ProductLine + " " + np.Plan + " (" + np.Billing + ") cannot be sold yet: no price is configured; set " + setting +
			" to a Stripe price id or an amount"
		var ke *kernel.Error
		if errors.As(perr, &ke) {
			msg += "; and " + ke.Message
		}
		return Checkout{}, kernel.Unavailable(msg, nil)
	}
	if perr != nil {
		return Checkout{}, perr
	}
	line, _ := s.cfg.Catalog.Line(order.ProductLine)
	plan, _ := line.Plan(order.Plan)
	md := map[string]string{MetaProductLine: order.ProductLine, MetaPlan: order.Plan, MetaBilling: order.Billing,
		MetaChannel: in.Channel}
	set := func(k, v string) {
		if v != "" {
			md[k] = v
		}
	}
	set(MetaAccountID, in.AccountID)
	set(MetaOrganizationID, in.OrganizationID)
	set(MetaUTMSource, order.UTM.Source)
	set(MetaUTMMedium, order.UTM.Medium)
	set(MetaUTMCampaign, order.UTM.Campaign)
	set(MetaUTMTerm, order.UTM.Term)
	set(MetaUTMContent, order.UTM.Content)
	cs, err := prov.CreateCheckout(ctx, CheckoutParams{
		IdempotencyKey: "checkout-" + s.ids.NewID(), ProductName: line.Name + " " + plan.Name, Price: price,
		Billing: order.Billing, SuccessURL: order.SuccessURL, CancelURL: order.CancelURL, Email: order.Email,
		ClientReferenceID: in.AccountID, Metadata: md})
	if err != nil {
		return Checkout{}, err
	}
	ev := &payments.CheckoutSessionCreated{SessionID: cs.ID, Provider: prov.Name(), Channel: in.Channel,
		ProductLine: order.ProductLine, Plan: order.Plan, Billing: order.Billing, Price: price, AccountID: in.AccountID,
		OrganizationID: in.OrganizationID, SuccessURL: order.SuccessURL, CancelURL: order.CancelURL, UTM: order.UTM,
		At: s.clock.Now().UTC()}
	if !cs.ExpiresAt.IsZero() {
		t := cs.ExpiresAt
		ev.ExpiresAt = &t
	}
	if order.Email != "" {
		ev.Payer = &payments.Payer{Email: order.Email}
	}
	key, err := s.fresh(ev, payments.CheckoutKey(cs.ID), s.PayerOwner(order.Email))
	if err != nil {
		return Checkout{}, err
	}
	stream := eventstore.Stream{Type: payments.StreamCheckout, ID: payments.CheckoutStream(cs.ID)}
	if _, err := s.appendNew(ctx, stream, key, ev); err != nil {
		return Checkout{}, err
	}
	return Checkout{SessionID: cs.ID, URL: cs.URL, ExpiresAt: cs.ExpiresAt, ProductLine: order.ProductLine, Plan: order.Plan,
		Billing: order.Billing, Price: price}, nil
}

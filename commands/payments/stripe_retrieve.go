package payments

import (
	"context"
	"errors"
	"net/http"

	"github.com/stripe/stripe-go/v85"

	"github.com/strata-platform/strata/domain/kernel"
)

var _ CheckoutRetriever = (*Stripe)(nil)

// RetrieveCheckout implements CheckoutRetriever with Stripe's GET
// /v1/checkout/sessions/{id}, returning the session's JSON as Stripe sent
// it (read like a webhook's object, in both API shapes).
func (s *Stripe) RetrieveCheckout(ctx context.Context, sessionID string) ([]byte, error) {
	cs, err := s.client.V1CheckoutSessions.Retrieve(ctx, sessionID, nil)
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode == http.StatusNotFound {
		return nil, kernel.NotFound("the payment provider knows no checkout session " + sessionID)
	}
	if err != nil {
		return nil, providerError("read a checkout session", err)
	}
	if cs.LastResponse == nil || len(cs.LastResponse.RawJSON) == 0 {
		return nil, kernel.Unavailable("the payment provider answered without the checkout session", nil)
	}
	return cs.LastResponse.RawJSON, nil
}

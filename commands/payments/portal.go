package payments

import (
	"context"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// PortalInput asks for a billing-portal session for an account's customer.
type PortalInput struct {
	AccountID  string
	CustomerID string // the provider's customer of the account (from the read model)
	ReturnURL  string
}

// CreatePortal opens a billing-portal session and records
// payments.portal_session_created on the account's stream. An account
// without a provider customer (it never completed a checkout) is not found.
func (s *Service) CreatePortal(ctx context.Context, in PortalInput) (PortalSession, error) {
	prov, err := s.provider()
	if err != nil {
		return PortalSession{}, err
	}
	ret, err := payments.CheckURL("return_url", in.ReturnURL)
	if err != nil {
		return PortalSession{}, err
	}
	if strings.TrimSpace(in.CustomerID) == "" {
		return PortalSession{}, kernel.NotFound("no billing account yet: complete a checkout first")
	}
	ps, err := prov.CreatePortal(ctx, PortalParams{CustomerID: in.CustomerID, ReturnURL: ret})
	if err != nil {
		return PortalSession{}, err
	}
	ev := &payments.PortalSessionCreated{SessionID: ps.ID, Provider: prov.Name(), AccountID: in.AccountID,
		CustomerID: in.CustomerID, ReturnURL: ret, At: s.clock.Now().UTC()}
	stream := eventstore.Stream{Type: payments.StreamAccount, ID: payments.AccountStream(in.AccountID)}
	if _, err := s.store.Append(ctx, stream, eventstore.AnyVersion, ev); err != nil {
		return PortalSession{}, err
	}
	return ps, nil
}

// UsageInput is metered usage to report for a customer.
type UsageInput struct {
	Identifier  string // unique per report; a repeated identifier is reported once
	AccountID   string
	CustomerID  string
	ProductLine string
	Meter       string // the provider's meter event name
	Value       int64
	Timestamp   time.Time
}

// ReportUsage reports usage to the provider and records
// payments.usage_reported, once per identifier: a report whose identifier
// is recorded already is neither sent nor recorded again (reported is
// false). The report is sent before it is recorded; the provider ignores a
// repeated identifier, so a retry after a failed append reports nothing
// twice.
func (s *Service) ReportUsage(ctx context.Context, in UsageInput) (reported bool, err error) {
	prov, err := s.provider()
	if err != nil {
		return false, err
	}
	switch {
	case strings.TrimSpace(in.Identifier) == "":
		return false, kernel.Invalid("identifier", "required", "identifier is required")
	case strings.TrimSpace(in.CustomerID) == "":
		return false, kernel.Invalid("customer_id", "required", "customer_id is required")
	case strings.TrimSpace(in.Meter) == "":
		return false, kernel.Invalid("meter", "required", "meter is required")
	case in.Value <= 0:
		return false, kernel.Invalid("value", "min:1", "value must be a positive whole number")
	}
	stream := eventstore.Stream{Type: payments.StreamUsage, ID: payments.UsageStream(in.Identifier)}
	v, err := s.store.Version(ctx, stream.ID)
	if err != nil {
		return false, err
	}
	if v > 0 {
		return false, nil
	}
	ts := in.Timestamp
	if ts.IsZero() {
		ts = s.clock.Now()
	}
	if err := prov.ReportUsage(ctx, UsageParams{Meter: in.Meter, CustomerID: in.CustomerID, Value: in.Value,
		Identifier: in.Identifier, Timestamp: ts}); err != nil {
		return false, err
	}
	ev := &payments.UsageReported{Identifier: in.Identifier, Provider: prov.Name(), AccountID: in.AccountID,
		CustomerID: in.CustomerID, ProductLine: in.ProductLine, Meter: in.Meter, Value: in.Value, Timestamp: ts.UTC(),
		At: s.clock.Now().UTC()}
	_, err = s.store.Append(ctx, stream, eventstore.NoStream, ev)
	if kernel.KindOf(err) == kernel.KindConflict {
		return false, nil // a concurrent report with this identifier was recorded first
	}
	return err == nil, err
}

package payments

import (
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// utmBody are the attribution fields both checkouts accept.
type utmBody struct {
	UTMSource   string `json:"utm_source"`
	UTMMedium   string `json:"utm_medium"`
	UTMCampaign string `json:"utm_campaign"`
	UTMTerm     string `json:"utm_term"`
	UTMContent  string `json:"utm_content"`
}

func (u utmBody) utm() payments.UTM {
	return payments.UTM{Source: u.UTMSource, Medium: u.UTMMedium, Campaign: u.UTMCampaign, Term: u.UTMTerm, Content: u.UTMContent}
}

// checkoutBody is the body of POST /api/v1/payments/checkout: the seed's
// plan, success_url and cancel_url; product_line (default: the route's
// line, voice) and billing (default monthly) choose among the catalog.
type checkoutBody struct {
	Plan        string `json:"plan"`
	SuccessURL  string `json:"success_url"`
	CancelURL   string `json:"cancel_url"`
	ProductLine string `json:"product_line"`
	Billing     string `json:"billing"`
	utmBody
}

// checkoutView is a created checkout session.
type checkoutView struct {
	SessionID   string  `json:"session_id"`
	URL         string  `json:"url"`
	ExpiresAt   *string `json:"expires_at"`
	ProductLine string  `json:"product_line"`
	Plan        string  `json:"plan"`
	Billing     string  `json:"billing"`
	Amount      *int64  `json:"amount"`   // in the currency's minor unit, when priced inline
	Currency    *string `json:"currency"` // with Amount
}

func viewCheckout(c cmd.Checkout) checkoutView {
	v := checkoutView{SessionID: c.SessionID, URL: c.URL, ProductLine: c.ProductLine, Plan: c.Plan, Billing: c.Billing}
	if !c.ExpiresAt.IsZero() {
		s := c.ExpiresAt.UTC().Format(time.RFC3339)
		v.ExpiresAt = &s
	}
	if c.Price.PriceID == "" && c.Price.Amount > 0 {
		v.Amount, v.Currency = &c.Price.Amount, &c.Price.Currency
	}
	return v
}

// checkout creates a checkout session for the signed-in caller (their
// email prefilled); 201 with the provider's URL, 503 naming the setting
// when payments or the plan's price are not configured.
func (a *API) checkout(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	var body checkoutBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if body.ProductLine == "" {
		body.ProductLine = a.cfg.Line
	}
	co, err := a.svc.CreateCheckout(r.Context(), cmd.CheckoutInput{
		Order: payments.Order{ProductLine: body.ProductLine, Plan: body.Plan, Billing: body.Billing, SuccessURL: body.SuccessURL,
			CancelURL: body.CancelURL, Email: p.Email, UTM: body.utm()},
		Fields: payments.DefaultFields, Channel: payments.ChannelAccount, AccountID: p.UserID, OrganizationID: p.OrganizationID})
	writeJSON(w, r, http.StatusCreated, viewCheckout(co), err)
}

// auditBody is the body of POST /api/v1/public/ax-audit/checkout: the
// seed's tier, billing, email and utm_source, the other UTM fields, and
// optional success and cancel URLs (default: the configured ones).
type auditBody struct {
	Tier       string `json:"tier"`
	Billing    string `json:"billing"`
	Email      string `json:"email"`
	SuccessURL string `json:"success_url"`
	CancelURL  string `json:"cancel_url"`
	utmBody
}

// auditFields names the audit checkout's fields in refusals.
var auditFields = payments.Fields{ProductLine: "product_line", Plan: "tier", Billing: "billing", SuccessURL: "success_url",
	CancelURL: "cancel_url", Email: "email", UTMPrefix: "utm_"}

// auditCheckout creates a checkout session for an audit tier, without
// authentication (rate limited per client), keeping the UTM fields on the
// session for attribution.
func (a *API) auditCheckout(w http.ResponseWriter, r *http.Request) {
	if a.cfg.Limit != nil {
		if err := a.cfg.Limit(r); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	var body auditBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if body.Email == "" {
		httpx.WriteError(w, r, kernel.Invalid("email", "required", "email is required"))
		return
	}
	if body.SuccessURL == "" {
		body.SuccessURL = a.cfg.AuditSuccessURL
	}
	if body.CancelURL == "" {
		body.CancelURL = a.cfg.AuditCancelURL
	}
	order := payments.Order{ProductLine: payments.LineAudit, Plan: body.Tier, Billing: body.Billing, SuccessURL: body.SuccessURL,
		CancelURL: body.CancelURL, Email: body.Email, UTM: body.utm()}
	if body.SuccessURL == "" || body.CancelURL == "" {
		// Nowhere to send the payer: refuse what the client got wrong first,
		// then say what the operator must set.
		check := order
		check.SuccessURL, check.CancelURL = "https://unset.invalid/", "https://unset.invalid/"
		if _, _, err := a.svc.Catalog().Check(check, auditFields); kernel.KindOf(err) == kernel.KindInvalid {
			httpx.WriteError(w, r, err)
			return
		}
		httpx.WriteError(w, r, kernel.Unavailable("the audit checkout is not configured: set STRATA_AUDIT_SUCCESS_URL and "+
			"STRATA_AUDIT_CANCEL_URL, or send success_url and cancel_url", nil))
		return
	}
	rid := httpx.RequestID(r.Context())
	ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: "public:audit", RequestID: rid, CorrelationID: rid})
	co, err := a.svc.CreateCheckout(ctx, cmd.CheckoutInput{Order: order, Fields: auditFields, Channel: payments.ChannelAudit})
	writeJSON(w, r, http.StatusCreated, viewCheckout(co), err)
}

package payments

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	proj "github.com/strata-platform/strata/projections/payments"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// subscriptionView is the caller's subscription of a product line.
type subscriptionView struct {
	ID                 string `json:"id"`
	ProductLine        string `json:"product_line"`
	Plan               string `json:"plan"`
	Billing            string `json:"billing"`
	Status             string `json:"status"`
	LastChange         string `json:"last_change"`
	CurrentPeriodStart any    `json:"current_period_start"`
	CurrentPeriodEnd   any    `json:"current_period_end"`
	CancelAtPeriodEnd  bool   `json:"cancel_at_period_end"`
	CanceledAt         any    `json:"canceled_at"`
	EndedAt            any    `json:"ended_at"`
	UpdatedAt          string `json:"updated_at"`
}

// subscription answers the caller's subscription of the product line
// (query product_line, default the route's line): a live one first, else
// the latest; null when there is none.
func (a *API) subscription(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	line, err := a.line(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s, ok, err := proj.SubscriptionOf(r.Context(), a.cfg.DB, p.UserID, line)
	out := map[string]any{"product_line": line, "subscription": nil}
	if ok {
		out["subscription"] = subscriptionView{ID: s.SubscriptionID, ProductLine: s.ProductLine, Plan: s.Plan, Billing: s.Billing,
			Status: s.Status, LastChange: s.LastChange, CurrentPeriodStart: stamp(s.CurrentPeriodStart),
			CurrentPeriodEnd: stamp(s.CurrentPeriodEnd), CancelAtPeriodEnd: s.CancelAtPeriodEnd, CanceledAt: stamp(s.CanceledAt),
			EndedAt: stamp(s.EndedAt), UpdatedAt: s.UpdatedAt.UTC().Format(time.RFC3339)}
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// paymentView is one invoice of the payment history; amounts are in the
// currency's minor unit (cents).
type paymentView struct {
	InvoiceID      string `json:"invoice_id"`
	Number         string `json:"number,omitempty"`
	SubscriptionID string `json:"subscription_id,omitempty"`
	ProductLine    string `json:"product_line,omitempty"`
	Plan           string `json:"plan,omitempty"`
	Status         string `json:"status"`
	AmountDue      int64  `json:"amount_due"`
	AmountPaid     int64  `json:"amount_paid"`
	Currency       string `json:"currency"`
	PeriodStart    any    `json:"period_start"`
	PeriodEnd      any    `json:"period_end"`
	BillingReason  string `json:"billing_reason,omitempty"`
	AttemptCount   int64  `json:"attempt_count"`
	At             string `json:"at"`
}

// history answers the caller's invoices of the product line, newest first
// (limit 1-100, default 20; offset).
func (a *API) history(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	line, err := a.line(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, err := intParam(r, "limit", 20, 1, 100)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	offset, err := intParam(r, "offset", 0, 0, 1_000_000)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	invs, more, err := proj.History(r.Context(), a.cfg.DB, p.UserID, line, limit, offset)
	items := make([]paymentView, 0, len(invs))
	for _, i := range invs {
		items = append(items, paymentView{InvoiceID: i.InvoiceID, Number: i.Number, SubscriptionID: i.SubscriptionID,
			ProductLine: i.ProductLine, Plan: i.Plan, Status: i.Status, AmountDue: i.AmountDue, AmountPaid: i.AmountPaid,
			Currency: i.Currency, PeriodStart: stamp(i.PeriodStart), PeriodEnd: stamp(i.PeriodEnd), BillingReason: i.BillingReason,
			AttemptCount: i.AttemptCount, At: i.At.UTC().Format(time.RFC3339)})
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"product_line": line, "payments": items, "limit": limit, "offset": offset,
		"has_more": more}, err)
}

// portalBody is the optional body of POST /payments/portal-session.
type portalBody struct {
	ReturnURL string `json:"return_url"`
}

// portal opens a billing-portal session for the caller's customer (the
// one their completed checkout or subscription names); 404 before any.
func (a *API) portal(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	var body portalBody
	if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		if err := httpx.DecodeJSON(r, &body); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	if body.ReturnURL == "" {
		body.ReturnURL = a.cfg.ReturnURL
	}
	if _, err := payments.CheckURL("return_url", body.ReturnURL); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	customer, err := proj.CustomerOf(r.Context(), a.cfg.DB, p.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	ps, err := a.svc.CreatePortal(r.Context(), cmd.PortalInput{AccountID: p.UserID, CustomerID: customer, ReturnURL: body.ReturnURL})
	writeJSON(w, r, http.StatusOK, map[string]any{"session_id": ps.ID, "url": ps.URL}, err)
}

// webhook receives a provider event: the signature verified, recorded once
// per provider event id and processed after the answer; 200 for a new
// event and for a duplicate (which is not processed again), 400 when the
// signature does not verify, 503 when no signing secret is configured.
func (a *API) webhook(w http.ResponseWriter, r *http.Request) {
	payload, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = kernel.E(kernel.KindTooLarge, "request body exceeds the limit of "+strconv.FormatInt(mbe.Limit, 10)+" bytes")
		} else {
			err = kernel.Invalid("body", "read", "the request body could not be read")
		}
		httpx.WriteError(w, r, err)
		return
	}
	rec, err := a.svc.ReceiveWebhook(r.Context(), payload, r.Header.Get(cmd.SignatureHeader))
	writeJSON(w, r, http.StatusOK, map[string]any{"received": true, "event_id": rec.EventID, "type": rec.Type,
		"duplicate": rec.Duplicate}, err)
}

// Package payments serves the payments context over HTTP: the voice
// surface's /api/v1/payments/checkout, /subscription, /history and
// /portal-session (the platform's bearer JWT or API key), the audit's public
// /api/v1/public/ax-audit/checkout, and the provider's webhook at
// /api/v1/payments/webhook (authenticated by its signature). Errors are the
// surface's error shape; reads come from the payments.v1 read model.
package payments

import (
	stdsql "database/sql"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Auth    auth.Authenticator
	// Line is the product line the /payments routes sell and read when the
	// request names none (payments.LineVoice: they are the voice surface's).
	Line string
	// ReturnURL is where the billing portal sends the customer back when
	// the request names no return_url (the platform's public URL).
	ReturnURL string
	// AuditSuccessURL and AuditCancelURL are where the audit checkout sends
	// the payer (STRATA_AUDIT_SUCCESS_URL, STRATA_AUDIT_CANCEL_URL) when the
	// request names none; without either the audit checkout answers 503.
	AuditSuccessURL string
	AuditCancelURL  string
	// Limit, when set, refuses a public audit checkout over the caller's
	// budget (a rate_limited error, with its Retry-After).
	Limit func(r *http.Request) error
	// AccountOnly serves only the account's routes (the voice surface).
	AccountOnly bool
}

// API is the payments context's HTTP layer.
type API struct {
	cfg Config
	svc *cmd.Service
}

func newAPI(cfg Config) *API {
	if cfg.Line == "" {
		cfg.Line = payments.LineVoice
	}
	return &API{cfg: cfg, svc: cfg.Service}
}

// need authenticates the request with the platform's credentials and serves
// h with the caller; appends record the caller and the request id.
func (a *API) need(h func(w http.ResponseWriter, r *http.Request, p auth.Principal)) http.Handler {
	return auth.Require(a.cfg.Auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, Tenant: p.OrganizationID,
			RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), p)
	}))
}

// line reads the optional product_line query parameter.
func (a *API) line(r *http.Request) (string, error) {
	v := r.URL.Query().Get("product_line")
	if v == "" {
		return a.cfg.Line, nil
	}
	ids := a.svc.Catalog().LineIDs()
	for _, id := range ids {
		if v == id {
			return v, nil
		}
	}
	return "", kernel.Invalid("product_line", "enum:"+strings.Join(ids, ","), "product_line must be one of "+strings.Join(ids, ", "))
}

// intParam reads an optional whole-number query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	return httpx.IntParam(r, name, def, lo, hi)
}

// stamp formats an optional time as RFC 3339 (null when unset).
func stamp(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := httpx.WriteJSON(w, status, v); err != nil {
		httpx.WriteError(w, r, err)
	}
}

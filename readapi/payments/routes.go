package payments

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Routes adds the payments routes to a surface's router: the platform
// API's (all of them) and, with cfg.AccountOnly, the voice surface's
// (checkout, subscription, history, portal session: Stripe's webhook and
// the audit checkout stay on the platform API).
func Routes(r *mux.Router, cfg Config) *API {
	a := newAPI(cfg)
	post, get := http.MethodPost, http.MethodGet
	r.Handle("/api/v1/payments/checkout", a.need(a.checkout)).Methods(post)
	r.Handle("/api/v1/payments/subscription", a.need(a.subscription)).Methods(get)
	r.Handle("/api/v1/payments/history", a.need(a.history)).Methods(get)
	r.Handle("/api/v1/payments/portal-session", a.need(a.portal)).Methods(post)
	if cfg.AccountOnly {
		return a
	}
	r.Handle("/api/v1/payments/webhook", http.HandlerFunc(a.webhook)).Methods(post)
	r.Handle("/api/v1/public/ax-audit/checkout", http.HandlerFunc(a.auditCheckout)).Methods(post)
	return a
}

package payments

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Routes adds the payments routes to a surface's router (today the
// platform API's; the voice and audit listeners will mount them too).
func Routes(r *mux.Router, cfg Config) *API {
	a := newAPI(cfg)
	post, get := http.MethodPost, http.MethodGet
	r.Handle("/api/v1/payments/checkout", a.need(a.checkout)).Methods(post)
	r.Handle("/api/v1/payments/subscription", a.need(a.subscription)).Methods(get)
	r.Handle("/api/v1/payments/history", a.need(a.history)).Methods(get)
	r.Handle("/api/v1/payments/portal-session", a.need(a.portal)).Methods(post)
	r.Handle("/api/v1/payments/webhook", http.HandlerFunc(a.webhook)).Methods(post)
	r.Handle("/api/v1/public/ax-audit/checkout", http.HandlerFunc(a.auditCheckout)).Methods(post)
	return a
}

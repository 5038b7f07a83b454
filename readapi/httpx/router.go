package httpx

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
)

// NewRouter returns a router for a surface whose error style is style. Its
// NotFoundHandler answers not_found (404) and its MethodNotAllowedHandler
// answers method_not_allowed (405, with an Allow header listing the methods
// the path accepts), both in style. It also records the matched route
// template for the access log and the metrics. Register routes with mux as
// usual, e.g. r.Handle("/api/v1/x", h).Methods(http.MethodGet).
func NewRouter(style Style) *mux.Router {
	rt := mux.NewRouter()
	rt.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeStyled(w, r, style, kernel.NotFound("no route matches "+r.URL.Path))
	})
	rt.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		allowed := allowedMethods(rt, r)
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeStyled(w, r, style, kernel.E(kernel.KindMethodNotAllowed,
			"method "+r.Method+" is not allowed here; allowed: "+strings.Join(allowed, ", ")))
	})
	rt.Use(captureRoute)
	return rt
}

// allowedMethods lists the standard methods some route of rt accepts for r's
// path. It re-matches the request once per method, which is cheap and only
// happens on the 405 path.
func allowedMethods(rt *mux.Router, r *http.Request) []string {
	var allowed []string
	for _, m := range []string{
		http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
		http.MethodPatch, http.MethodDelete, http.MethodOptions,
	} {
		probe := r.WithContext(r.Context())
		probe.Method = m
		var match mux.RouteMatch
		if rt.Match(probe, &match) && match.MatchErr == nil {
			allowed = append(allowed, m)
		}
	}
	return allowed
}

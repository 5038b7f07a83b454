package httpx

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"
)

// unmatchedRoute labels requests that no route matched (404, 405, or refused
// before routing), so metrics never carry a raw path.
const unmatchedRoute = "unmatched"

// routeSlot carries the matched route template from inside the router back
// out to the middleware that wrap it (metrics, access log), which only read
// it after the handler has returned.
type routeSlot struct{ template string }

func (s *routeSlot) name() string {
	if s.template == "" {
		return unmatchedRoute
	}
	return s.template
}

// withRouteSlot returns the request's slot, adding one if it has none yet.
func withRouteSlot(r *http.Request) (*http.Request, *routeSlot) {
	if s, ok := r.Context().Value(routeKey).(*routeSlot); ok {
		return r, s
	}
	s := &routeSlot{}
	return r.WithContext(context.WithValue(r.Context(), routeKey, s)), s
}

// captureRoute is router middleware (it runs only for matched routes) that
// records the matched route's path template in the request's slot.
func captureRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s, ok := r.Context().Value(routeKey).(*routeSlot); ok {
			if route := mux.CurrentRoute(r); route != nil {
				if tpl, err := route.GetPathTemplate(); err == nil {
					s.template = tpl
				} else if name := route.GetName(); name != "" {
					s.template = name
				} else {
					s.template = "unnamed"
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

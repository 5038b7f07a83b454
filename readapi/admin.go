package readapi

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/strata-platform/strata/readapi/httpx"
)

// AdminHandler serves the admin listener: GET /metrics exposes reg in the
// Prometheus text format (promhttp.HandlerFor; a nil reg exposes nothing) and
// GET /health is the readiness check of the other surfaces (200 ready / 503
// not_ready). Errors use problem details; requests get an id and panic
// recovery, but no access log or metrics, so scrapes do not feed themselves.
// Registering Go and process collectors on reg is up to the caller.
func AdminHandler(reg *prometheus.Registry, health HealthSource) http.Handler {
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	rt := httpx.NewRouter(httpx.StyleProblem)
	rt.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{})).Methods(http.MethodGet)
	rt.Handle("/health", readyHandler(health)).Methods(http.MethodGet, http.MethodHead)
	return httpx.Chain(rt,
		httpx.WithSurface(httpx.SurfaceInfo{Name: "admin", Style: httpx.StyleProblem}),
		httpx.AssignRequestID,
		httpx.Recover,
	)
}

package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics holds the HTTP metrics of all surfaces:
//
//	strata_http_request_duration_seconds{surface,route,method,status} (histogram)
//	strata_http_requests_total{surface,route,method,status}          (counter)
//
// route is the mux route template ("unmatched" when no route matched) and
// method is one of the standard methods or "OTHER", so label cardinality is
// bounded by the routes the code registers, never by what clients send.
type Metrics struct {
	duration *prometheus.HistogramVec
	total    *prometheus.CounterVec
}

// metricLabels returns the label names of both metrics (a function, not a
// package variable, so there is no shared mutable state).
func metricLabels() []string { return []string{"surface", "route", "method", "status"} }

// NewMetrics registers the HTTP metrics on reg and returns them. Calling it
// again with the same registry (one call per surface) returns metrics backed
// by the collectors already registered there, so all surfaces share them.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	if reg == nil {
		return nil, errors.New("httpx: NewMetrics needs a registry")
	}
	duration, err := registerOrReuse(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "strata_http_request_duration_seconds",
		Help:    "Time to serve an HTTP request, by surface, route template, method and status.",
		Buckets: prometheus.DefBuckets,
	}, metricLabels()))
	if err != nil {
		return nil, err
	}
	total, err := registerOrReuse(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "strata_http_requests_total",
		Help: "HTTP requests served, by surface, route template, method and status.",
	}, metricLabels()))
	if err != nil {
		return nil, err
	}
	return &Metrics{duration: duration, total: total}, nil
}

func registerOrReuse[T prometheus.Collector](reg prometheus.Registerer, c T) (T, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(T); ok {
			return existing, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("httpx: register metric: %w", err)
}

// Middleware observes every request it serves, labelled with the surface from
// WithSurface. Requests aborted by a panic are observed too.
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rw := wrapWriter(w)
		r, slot := withRouteSlot(r)
		defer func() {
			labels := prometheus.Labels{
				"surface": SurfaceFrom(r.Context()).Name,
				"route":   slot.name(),
				"method":  methodLabel(r.Method),
				"status":  strconv.Itoa(rw.statusCode()),
			}
			m.duration.With(labels).Observe(time.Since(start).Seconds())
			m.total.With(labels).Inc()
		}()
		next.ServeHTTP(rw, r)
	})
}

func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}

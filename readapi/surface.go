// Package readapi builds Strata's HTTP surfaces: one handler per listener
// (api, builder, captable, voice, hackathon) with the shared middleware chain
// and the health endpoints, plus the admin handler (metrics and health).
// Bounded contexts add their routes later, in readapi/<context>/routes.go,
// on a surface's Router.
package readapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/readapi/httpx"
)

// DefaultMaxBodyBytes is the request body limit when Deps.MaxBodyBytes is 0.
const DefaultMaxBodyBytes int64 = 1 << 20

// Deps are what a surface needs from the process that runs it.
type Deps struct {
	Logger       *slog.Logger         // access log, panics, internal errors; default JSON to stderr
	Registry     *prometheus.Registry // HTTP metrics are registered here; required
	Health       HealthSource         // what the health endpoints report; required
	Version      string               // build commit id, reported by the builder's health
	MaxBodyBytes int64                // request body limit; DefaultMaxBodyBytes when 0
	// BodyLimitFor, when set, overrides the body limit of the requests it
	// returns a positive limit for (upload routes).
	BodyLimitFor func(r *http.Request) int64
	Clock        func() time.Time // optional; default time.Now
	// Checks, when set, adds the surface's own dependencies to its
	// readiness (the voice surface: telephony, payments, blob store): each
	// named check answers nil when healthy, else a client-safe error.
	Checks func(ctx context.Context) map[string]error
}

// Surface is one HTTP surface: Handler serves it (middleware included) and
// Router is where contexts register their routes. Routes added to Router
// after NewSurface returns are served by Handler too.
type Surface struct {
	Name    string
	Router  *mux.Router
	Handler http.Handler
}

// Surfaces lists the surface names in a fixed order: api, builder, captable,
// voice, hackathon. Each call returns a fresh slice.
func Surfaces() []string {
	return []string{"api", "builder", "captable", "voice", "hackathon"}
}

// styleFor is the error body style of each surface (see httpx.Style).
func styleFor(name string) (httpx.Style, bool) {
	switch name {
	case "api", "builder":
		return httpx.StyleProblem, true
	case "captable":
		return httpx.StyleCaptable, true
	case "voice":
		return httpx.StyleVoice, true
	case "hackathon":
		return httpx.StyleHackathon, true
	}
	return 0, false
}

// NewSurface builds the surface called name, one of Surfaces(); any other
// name, or a missing Registry or Health, is an error. Requests pass through
//
//	WithSurface → AssignRequestID → Metrics → AccessLog → Recover → BodyLimit → router
//
// WithSurface comes first so that everything after it knows the surface's
// name, error style and logger; the request id next, so every log line and
// error body carries it; metrics and the access log sit outside Recover so
// they record the 500 it writes for a panic; BodyLimit sits inside Recover and
// before routing, so an oversized declared body is refused without matching.
// Several surfaces may share one Registry; they share the metric families
// and are told apart by the "surface" label.
func NewSurface(name string, deps Deps) (*Surface, error) {
	style, ok := styleFor(name)
	if !ok {
		return nil, fmt.Errorf("readapi: unknown surface %q (known: %s)", name, strings.Join(Surfaces(), ", "))
	}
	if deps.Registry == nil {
		return nil, errors.New("readapi: Deps.Registry is required")
	}
	if deps.Health == nil {
		return nil, errors.New("readapi: Deps.Health is required")
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if deps.MaxBodyBytes == 0 {
		deps.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if deps.Clock == nil {
		deps.Clock = time.Now
	}
	metrics, err := httpx.NewMetrics(deps.Registry)
	if err != nil {
		return nil, fmt.Errorf("readapi: surface %s: %w", name, err)
	}
	router := httpx.NewRouter(style)
	registerHealth(name, router, deps)
	handler := httpx.Chain(router,
		httpx.WithSurface(httpx.SurfaceInfo{Name: name, Style: style, Logger: deps.Logger}),
		httpx.AssignRequestID,
		metrics.Middleware,
		httpx.AccessLog,
		httpx.Recover,
		httpx.BodyLimitBy(deps.MaxBodyBytes, deps.BodyLimitFor),
		httpx.CheckText,
	)
	return &Surface{Name: name, Router: router, Handler: handler}, nil
}

package readapi

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Readiness is what the health endpoints report about dependencies.
type Readiness struct {
	Database error    // nil when the database answers
	Stalled  []string // projectors that are failing/stalled (names), empty when all fine
}

// HealthSource reports readiness. Readiness must honour ctx: the health
// endpoints give it healthCheckTimeout and then report what came back.
type HealthSource interface {
	Readiness(ctx context.Context) Readiness
}

// healthCheckTimeout bounds one readiness check, so a hung database does not
// hang the probes that ask about it.
const healthCheckTimeout = 2 * time.Second

// checks is the per-dependency part of every health body.
type checks struct {
	Database   string `json:"database"`   // "ok" or a short message, never the raw error
	Projectors string `json:"projectors"` // "ok" or "stalled: a,b"
}

type readyBody struct {
	Status string `json:"status"` // ready | not_ready
	Checks checks `json:"checks"`
}

type builderBody struct {
	Status    string `json:"status"` // healthy | degraded | unhealthy
	Timestamp string `json:"timestamp"`
	Version   string `json:"version"`
	Checks    checks `json:"checks"`
}

// check asks src about readiness and reduces the answer to client-safe text.
// The database error itself is logged, not returned.
func check(r *http.Request, src HealthSource) (dbUp, allRunning bool, c checks) {
	ctx, cancel := context.WithTimeout(r.Context(), healthCheckTimeout)
	defer cancel()
	rd := Readiness{Database: errors.New("no health source configured")}
	if src != nil {
		rd = src.Readiness(ctx)
	}
	c = checks{Database: "ok", Projectors: "ok"}
	if rd.Database != nil {
		c.Database = "unavailable"
		var ke *kernel.Error
		if errors.As(rd.Database, &ke) && ke.Kind != kernel.KindInternal && ke.Message != "" {
			c.Database = ke.Message // a kernel message is client-safe by contract
		}
		s := httpx.SurfaceFrom(r.Context())
		s.Logger.WarnContext(r.Context(), "health: database not ready",
			"request_id", httpx.RequestID(r.Context()), "surface", s.Name, "error", rd.Database.Error())
	}
	if len(rd.Stalled) > 0 {
		names := slices.Clone(rd.Stalled)
		slices.Sort(names)
		c.Projectors = "stalled: " + strings.Join(names, ",")
	}
	return rd.Database == nil, len(rd.Stalled) == 0, c
}

// readyHandler answers 200 {"status":"ready"} when the database answers and
// no projector is stalled, and 503 {"status":"not_ready"} otherwise.
func readyHandler(src HealthSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dbUp, running, c := check(r, src)
		status, body := http.StatusOK, readyBody{Status: "ready", Checks: c}
		if !dbUp || !running {
			status, body.Status = http.StatusServiceUnavailable, "not_ready"
		}
		writeHealth(w, r, status, body)
	})
}

// liveHandler answers 200 {"status":"ok"} while the process serves HTTP.
func liveHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeHealth(w, r, http.StatusOK, map[string]string{"status": "ok"})
	})
}

// builderHealthHandler answers the builder's seed shape: healthy (200) when the
// database answers and nothing is stalled, degraded (200) when a projector is
// stalled, unhealthy (503) when the database does not answer.
func builderHealthHandler(src HealthSource, version string, now func() time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dbUp, running, c := check(r, src)
		body := builderBody{Status: "healthy", Timestamp: now().UTC().Format(time.RFC3339), Version: version, Checks: c}
		status := http.StatusOK
		switch {
		case !dbUp:
			status, body.Status = http.StatusServiceUnavailable, "unhealthy"
		case !running:
			body.Status = "degraded"
		}
		writeHealth(w, r, status, body)
	})
}

func writeHealth(w http.ResponseWriter, r *http.Request, status int, body any) {
	w.Header().Set("Cache-Control", "no-store")
	if err := httpx.WriteJSON(w, status, body); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// registerHealth adds the health routes of surface name to rt (GET and HEAD).
func registerHealth(name string, rt *mux.Router, deps Deps) {
	methods := []string{http.MethodGet, http.MethodHead}
	switch name {
	case "builder":
		rt.Handle("/api/health", builderHealthHandler(deps.Health, deps.Version, deps.Clock)).Methods(methods...)
	case "voice":
		rt.Handle("/health", liveHandler()).Methods(methods...)
		rt.Handle("/health/ready", readyHandler(deps.Health)).Methods(methods...)
	default: // api, captable, hackathon
		rt.Handle("/health", readyHandler(deps.Health)).Methods(methods...)
	}
}

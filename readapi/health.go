package readapi

import (
	"context"
	"errors"
	"fmt"
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
	// Parked counts, per projector, the streams it has parked: those
	// streams wait, every other one is served (degraded, not unavailable).
	Parked map[string]int
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
	Projectors string `json:"projectors"` // "ok", "stalled: a,b" or "parked: memory.v1 (1 stream)"
}

type readyBody struct {
	Status string `json:"status"` // ready | degraded | not_ready
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
func check(r *http.Request, src HealthSource) (dbUp, allRunning, degraded bool, c checks) {
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
	var parked []string
	for name, n := range rd.Parked {
		if n > 0 {
			parked = append(parked, fmt.Sprintf("%s (%d %s)", name, n, plural(n, "stream", "streams")))
		}
	}
	slices.Sort(parked)
	switch {
	case len(rd.Stalled) > 0:
		names := slices.Clone(rd.Stalled)
		slices.Sort(names)
		c.Projectors = "stalled: " + strings.Join(names, ",")
		if len(parked) > 0 {
			c.Projectors += "; parked: " + strings.Join(parked, ", ")
		}
	case len(parked) > 0:
		c.Projectors = "parked: " + strings.Join(parked, ", ")
	}
	return rd.Database == nil, len(rd.Stalled) == 0, len(parked) > 0, c
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readyHandler answers 200 {"status":"ready"} when the database answers and
// no projector is stalled, 200 {"status":"degraded"} when some streams are
// parked (they wait; everything else is served), and 503
// {"status":"not_ready"} otherwise.
func readyHandler(src HealthSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dbUp, running, degraded, c := check(r, src)
		status, body := http.StatusOK, readyBody{Status: "ready", Checks: c}
		switch {
		case !dbUp || !running:
			status, body.Status = http.StatusServiceUnavailable, "not_ready"
		case degraded:
			body.Status = "degraded"
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
		dbUp, running, degraded, c := check(r, src)
		body := builderBody{Status: "healthy", Timestamp: now().UTC().Format(time.RFC3339), Version: version, Checks: c}
		status := http.StatusOK
		switch {
		case !dbUp:
			status, body.Status = http.StatusServiceUnavailable, "unhealthy"
		case !running || degraded:
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
		rt.Handle("/health/ready", checkedReadyHandler(deps.Health, deps.Checks)).Methods(methods...)
	default: // api, captable, hackathon
		rt.Handle("/health", readyHandler(deps.Health)).Methods(methods...)
	}
}

// checkedReadyHandler is readyHandler with the surface's own checks: 200
// {"status":"ready","checks":{...}} only when the database, the projectors
// and every named check are healthy; else 503 {"status":"not_ready"} with
// each failing check's message, so the answer names what is not healthy.
func checkedReadyHandler(src HealthSource, extra func(ctx context.Context) map[string]error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dbUp, running, degraded, c := check(r, src)
		all := map[string]string{"database": c.Database, "projectors": c.Projectors}
		healthy := dbUp && running
		if extra != nil {
			ctx, cancel := context.WithTimeout(r.Context(), healthCheckTimeout)
			for name, err := range extra(ctx) {
				all[name] = "ok"
				if err != nil {
					healthy, all[name] = false, clientText(err)
				}
			}
			cancel()
		}
		status, body := http.StatusOK, map[string]any{"status": "ready", "checks": all}
		switch {
		case !healthy:
			status, body["status"] = http.StatusServiceUnavailable, "not_ready"
		case degraded:
			body["status"] = "degraded"
		}
		writeHealth(w, r, status, body)
	})
}

// clientText is an error's client-safe text: a kernel error's message, or
// "unavailable".
func clientText(err error) string {
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Kind != kernel.KindInternal && ke.Message != "" {
		return ke.Message
	}
	return "unavailable"
}

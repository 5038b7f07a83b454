// Package httpx is the shared HTTP kit of Strata's surfaces: JSON decoding and
// encoding, the one mapping from kernel error kinds to HTTP statuses, the
// per-surface error body styles, and the middleware every surface runs
// (request id, access log, panic recovery, body limit, Prometheus metrics).
//
// A surface's handler chain starts with WithSurface, which tells everything
// downstream (WriteError, AccessLog, Recover, BodyLimit, Metrics) which
// surface the request arrived on, which error style to write and which logger
// to use. Without it the kit falls back to StyleProblem and slog.Default().
package httpx

import (
	"context"
	"log/slog"
	"net/http"
)

// Style selects the JSON shape of error bodies. Each surface uses exactly one.
type Style int

// The error body styles. StyleProblem is the zero value, so a request that
// carries no surface information gets RFC 9457 problem details.
const (
	// StyleProblem writes RFC 9457 problem details (application/problem+json);
	// used by the platform API and the builder, whose seeds do not show a shape.
	StyleProblem Style = iota
	// StyleCaptable writes {"error": CODE, "message", "field", "statusCode", "requestId"}.
	StyleCaptable
	// StyleVoice writes {"error": text, "code": snake_case, "details": {field, message}, "request_id"}.
	StyleVoice
	// StyleHackathon writes {"error": {"status_code", "message", "path", "request_id"}}.
	StyleHackathon
)

// SurfaceInfo describes the surface a request arrived on.
type SurfaceInfo struct {
	Name   string       // surface name, used as the "surface" log field and metric label
	Style  Style        // error body style written by WriteError
	Logger *slog.Logger // logger for access logs, panics and internal errors
}

type ctxKey int

const (
	surfaceKey ctxKey = iota
	requestIDKey
	routeKey
)

// WithSurface returns middleware that records info in the request context. It
// must be the outermost middleware of a surface so that every later piece of
// the chain sees it. A nil Logger is replaced by slog.Default().
func WithSurface(info SurfaceInfo) func(http.Handler) http.Handler {
	if info.Logger == nil {
		info.Logger = slog.Default()
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), surfaceKey, info)))
		})
	}
}

// SurfaceFrom returns the surface recorded by WithSurface. Without one it
// returns an unnamed surface with StyleProblem and slog.Default(); the Logger
// of the result is never nil.
func SurfaceFrom(ctx context.Context) SurfaceInfo {
	info, ok := ctx.Value(surfaceKey).(SurfaceInfo)
	if !ok {
		return SurfaceInfo{Style: StyleProblem, Logger: slog.Default()}
	}
	return info
}

// Chain wraps h in the middleware mws; the first one listed is the outermost,
// so Chain(h, a, b) serves a request through a, then b, then h.
func Chain(h http.Handler, mws ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

package httpx

import (
	"log/slog"
	"net/http"
	"time"
)

// AccessLog is middleware that logs one structured line per request, at Info,
// with the surface's logger (see WithSurface): method, route (the route
// template, "unmatched" when no route matched), path, status, bytes,
// duration_ms, request_id, remote_addr and surface. The line is written even
// when the request is aborted by a panic. remote_addr is the peer address as
// seen by the server; forwarded headers are not trusted.
func AccessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rw := wrapWriter(w)
		r, slot := withRouteSlot(r)
		defer func() {
			ctx := r.Context()
			s := SurfaceFrom(ctx)
			s.Logger.LogAttrs(ctx, slog.LevelInfo, "http request",
				slog.String("method", r.Method),
				slog.String("route", slot.name()),
				slog.String("path", r.URL.Path),
				slog.Int("status", rw.statusCode()),
				slog.Int64("bytes", rw.bytes),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.String("request_id", RequestID(ctx)),
				slog.String("remote_addr", r.RemoteAddr),
				slog.String("surface", s.Name),
			)
		}()
		next.ServeHTTP(rw, r)
	})
}

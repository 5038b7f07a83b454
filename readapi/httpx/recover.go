package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
)

// Recover is middleware that turns a panic in the handler into a 500 in the
// surface's error style with the generic message "internal server error".
// The panic value and the stack are logged at Error with the request id and
// never sent to the client. When the response has already started, no error
// body can be written any more: Recover logs the panic and re-panics with
// http.ErrAbortHandler, so net/http aborts the connection without logging
// again. A panic with http.ErrAbortHandler itself passes through untouched.
func Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := wrapWriter(w)
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			ctx := r.Context()
			s := SurfaceFrom(ctx)
			s.Logger.ErrorContext(ctx, "panic recovered",
				"request_id", RequestID(ctx), "surface", s.Name,
				"method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()),
				"response_started", rw.wrote)
			if rw.wrote {
				panic(http.ErrAbortHandler)
			}
			writeBody(rw, r, s.Style, internalView(r))
		}()
		next.ServeHTTP(rw, r)
	})
}

package httpx

import "net/http"

// BodyLimit returns middleware that caps request bodies at n bytes. A request
// whose declared Content-Length exceeds n is refused with too_large (413) in
// the surface's style before the handler runs; any other body (chunked, or a
// lying length) is wrapped in http.MaxBytesReader, so reading past n fails
// with *http.MaxBytesError, which DecodeJSON reports as 413 as well.
// n <= 0 disables the limit.
func BodyLimit(n int64) func(http.Handler) http.Handler { return BodyLimitBy(n, nil) }

// BodyLimitBy is BodyLimit with a per-request override: when by returns a
// positive limit for a request (an upload route), that limit applies
// instead of n.
func BodyLimitBy(def int64, by func(*http.Request) int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if def <= 0 && by == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := def
			if by != nil {
				if o := by(r); o > 0 {
					n = o
				}
			}
			if n <= 0 {
				next.ServeHTTP(w, r)
				return
			}
			if r.ContentLength > n {
				// Do not read the oversized body, and do not keep the connection.
				w.Header().Set("Connection", "close")
				WriteError(w, r, tooLarge(n))
				return
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = http.MaxBytesReader(w, r.Body, n)
			}
			next.ServeHTTP(w, r)
		})
	}
}

package httpx

import (
	"context"
	"net/http"

	"github.com/oklog/ulid/v2"
)

// HeaderRequestID is the header that carries the request id both ways.
const HeaderRequestID = "X-Request-ID"

// maxRequestIDLen bounds an accepted incoming request id.
const maxRequestIDLen = 128

// AssignRequestID is middleware that gives every request an id. An incoming
// X-Request-ID is kept when it is sane (1 to 128 visible ASCII characters,
// 0x21-0x7E, so it is safe in logs and headers); otherwise a new ULID is
// generated. The id is put in the request context (read it with RequestID)
// and set on the response's X-Request-ID header before the handler runs, so
// every response, including errors and recovered panics, carries it.
func AssignRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(HeaderRequestID)
		if !saneRequestID(id) {
			id = ulid.Make().String()
		}
		w.Header().Set(HeaderRequestID, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// RequestID returns the id AssignRequestID gave the request, or "" when the
// request did not pass through it.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

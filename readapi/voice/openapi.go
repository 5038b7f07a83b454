package voice

import (
	_ "embed"
	"net/http"
)

// spec is the voice surface's OpenAPI 3.1 description (the voice routes,
// the payments routes mounted on the surface, the health checks, the
// status-callback webhook), kept in step with the routers by
// TestOpenAPIDocumentsEveryRoute and with the answers by
// TestOpenAPIResponsesConform.
//
//go:embed openapi.json
var spec []byte

// Spec returns the OpenAPI 3.1 description of the voice surface (a copy:
// callers may change it).
func Spec() []byte { return append([]byte(nil), spec...) }

// OpenAPI serves the OpenAPI description at /openapi.json; it needs no
// credentials.
func OpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(spec)
	}
}

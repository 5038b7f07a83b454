package captable

import (
	_ "embed"
	"net/http"
)

// spec is the surface's OpenAPI 3.1 description, written by hand and kept
// in step with Routes by TestOpenAPIDocumentsEveryRoute.
//
//go:embed openapi.json
var spec []byte

// Spec returns the OpenAPI 3.1 description of the cap table surface (a
// copy: callers may change it).
func Spec() []byte { return append([]byte(nil), spec...) }

// OpenAPI serves the OpenAPI description. It needs no credentials; the
// surface serves it at /openapi.json and /api/v1/openapi.json.
func OpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(spec)
	}
}

package builder

import (
	_ "embed"
	"net/http"

	"github.com/gorilla/mux"
)

// spec is the builder surface's OpenAPI 3.1 description, written by hand
// and kept in step with the surface's routes by
// TestOpenAPIDocumentsEveryRoute.
//
//go:embed openapi.json
var spec []byte

// Spec returns the OpenAPI 3.1 description of the builder surface (a copy:
// callers may change it).
func Spec() []byte { return append([]byte(nil), spec...) }

// OpenAPI serves the OpenAPI description. It needs no credentials.
func OpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(spec)
	}
}

// OpenAPIRoutes serves the description at /openapi.json and
// /api/openapi.json (GET and HEAD, no auth).
func OpenAPIRoutes(r *mux.Router) {
	r.Handle("/openapi.json", http.HandlerFunc(OpenAPI)).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/api/openapi.json", http.HandlerFunc(OpenAPI)).Methods(http.MethodGet, http.MethodHead)
}

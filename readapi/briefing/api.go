// Package briefing serves the agent-briefing context on the platform API:
// the internal routes under /api/v1/internal/intelligence (header
// X-Internal-API-Key: one of the configured keys, compared in constant
// time) and the planned public routes, which answer 404 until released.
package briefing

import (
	"crypto/sha256"
	"crypto/subtle"
	stdsql "database/sql"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	// Keys are the internal API keys (STRATA_INTERNAL_API_KEYS; several for
	// rotation). None: every internal route answers 401.
	Keys []string
}

// API is the briefing context's HTTP layer.
type API struct {
	cfg    Config
	svc    *cmd.Service
	hashes [][sha256.Size]byte
}

// Routes adds the briefing routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) *API {
	a := &API{cfg: cfg, svc: cfg.Service}
	for _, k := range cfg.Keys {
		a.hashes = append(a.hashes, sha256.Sum256([]byte(k)))
	}
	const base = "/api/v1/internal/intelligence"
	r.Handle(base+"/agent-briefing", a.internal(a.briefing)).Methods(http.MethodGet)
	r.Handle(base+"/consume-signal", a.internal(a.consume)).Methods(http.MethodPost)
	r.Handle(base+"/observations", a.internal(a.observations)).Methods(http.MethodPost)
	r.Handle(base+"/runs", a.internal(a.runs)).Methods(http.MethodPost)
	for _, p := range []string{"property", "environment", "business", "infrastructure", "briefing"} {
		r.Handle("/v1/intelligence/"+p, http.HandlerFunc(notReleased))
	}
	return a
}

// internal lets a request through with a valid X-Internal-API-Key. Every
// configured key is compared (as SHA-256 digests, in constant time), so
// the time taken says nothing about which key came close.
func (a *API) internal(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		given := r.Header.Get("X-Internal-API-Key")
		if given == "" {
			httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindUnauthenticated, Field: "X-Internal-API-Key",
				Rule: "required", Message: "the X-Internal-API-Key header is required"})
			return
		}
		sum := sha256.Sum256([]byte(given))
		ok := 0
		for i := range a.hashes {
			ok |= subtle.ConstantTimeCompare(sum[:], a.hashes[i][:])
		}
		if ok != 1 {
			httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindUnauthenticated, Field: "X-Internal-API-Key",
				Rule: "valid", Message: "the internal API key is not valid"})
			return
		}
		h(w, r)
	})
}

// notReleased answers the planned public endpoints, as the seed says.
func notReleased(w http.ResponseWriter, r *http.Request) {
	httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindNotFound, Rule: "not_released",
		Message: r.URL.Path + " is a planned endpoint and is not released"})
}

// MaxObservationsBody is the body limit of the observations route: a
// batch of briefing.MaxBatch observations with their texts.
const MaxObservationsBody = 64 << 20

// BodyLimit gives the observations route its own body limit (0: the
// surface's).
func BodyLimit(r *http.Request) int64 {
	if r.URL.Path == "/api/v1/internal/intelligence/observations" {
		return MaxObservationsBody
	}
	return 0
}

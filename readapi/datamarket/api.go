// Package datamarket serves the data marketplace on the platform API,
// under /api/v1/public/data: public reads of the imported datasets (stable
// row order, full-text search, filters, ?version= pins, ETag and
// Last-Modified), /stats, /industries, /seed, the lead score, and each
// dataset's metadata (DCAT-US) and provenance. Every route shares one
// budget of 60 requests a minute per client address, counted for every
// process (429 with Retry-After beyond it).
package datamarket

import (
	stdsql "database/sql"
	"net"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Base is the data marketplace's base path.
const Base = "/api/v1/public/data"

// PerMinute is every client address's request budget.
const PerMinute = 60

// Config wires the routes.
type Config struct {
	DB *stdsql.DB
	// Limiter counts requests per client address (nil: unlimited).
	Limiter *httpx.WindowLimiter
	// Publisher names who publishes the datasets in their metadata.
	Publisher string
	// BaseURL is the API's public URL, for metadata links ("" : relative).
	BaseURL string
	// ContactEmail is the datasets' contact address in their metadata.
	ContactEmail string
}

// API serves the routes.
type API struct {
	cfg Config
	q   *reader
}

// Routes registers the data marketplace on r.
func Routes(r *mux.Router, cfg Config) *API {
	if cfg.Publisher == "" {
		cfg.Publisher = "Strata"
	}
	a := &API{cfg: cfg, q: &reader{db: cfg.DB}}
	get := func(path string, h http.HandlerFunc) {
		r.Handle(Base+path, a.limited(h)).Methods(http.MethodGet, http.MethodHead)
	}
	get("/stats", a.stats)
	get("/industries", a.industries)
	get("/seed", a.seed)
	get("/catalog.json", a.catalog)
	get("/datasets", a.datasets)
	get("/datasets/{dataset}", a.dataset)
	get("/datasets/{dataset}/versions/{version}", a.version)
	for _, d := range datamarket.Catalog() {
		if d.Public {
			get(d.Path, a.page(d))
		}
	}
	r.Handle(Base+"/lead-score", a.limited(a.leadScore)).Methods(http.MethodPost)
	return a
}

// limited counts the request against its client address's budget.
func (a *API) limited(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.cfg.Limiter != nil {
			if err := a.cfg.Limiter.Take(r.Context(), w, "data:"+clientAddr(r), "per client address"); err != nil {
				httpx.WriteError(w, r, err)
				return
			}
		}
		h(w, r)
	})
}

// clientAddr is the request's peer address (the load balancer's own
// address when one is in front).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return strings.TrimSpace(r.RemoteAddr)
	}
	return host
}

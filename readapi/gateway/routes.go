package gateway

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Config is what Routes needs; the routes of a part left nil are not added.
type Config struct {
	Catalog *CatalogAPI
	Chat    *ChatAPI
	Credits *CreditsAPI
}

// Routes adds the gateway's routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) {
	if c := cfg.Catalog; c != nil {
		get := []string{http.MethodGet, http.MethodHead}
		r.Handle("/v1/public/models", c.need(c.list)).Methods(get...)
		r.Handle("/v1/public/models/available", c.need(c.available)).Methods(get...)
		r.Handle("/v1/public/models/resolve", c.need(c.resolve)).Methods(http.MethodPost)
	}
	if c := cfg.Chat; c != nil {
		r.Handle("/v1/messages", c.Messages()).Methods(http.MethodPost)
		r.Handle("/v1/chat/completions", c.Completions()).Methods(http.MethodPost)
		r.Handle("/api/v1/chat/completions", c.Completions()).Methods(http.MethodPost)
		r.Handle("/v1/embeddings", c.Embeddings()).Methods(http.MethodPost)
	}
	if c := cfg.Credits; c != nil {
		r.Handle("/api/v1/public/credits/balance", c.need(c.balance)).Methods(http.MethodGet, http.MethodHead)
		r.Handle("/api/v1/public/usage", c.need(c.usage)).Methods(http.MethodGet, http.MethodHead)
	}
}

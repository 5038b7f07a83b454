// Package voice serves the voice service on the voice surface, base
// /api/v1: outbound calls, live calls and logs, call control (hangup,
// transfer), notes, dispositions, recordings and status-callback
// attempts, SMS, contacts, the number inventory, the do-not-call list and
// the calling-hours guard. Every route but the health checks and
// /openapi.json needs the platform's credentials (a bearer JWT or an
// X-API-Key) and an organization (the tenant); errors are
// {"error", "code", "details": {"field", "message"}}; each tenant may make
// DefaultRate requests a minute (429 with Retry-After beyond).
//
// Lists answer {"items", "page", "limit", "total", "has_more"}.
package voice

import (
	stdsql "database/sql"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// DefaultRate is the voice surface's rate limit: requests per minute per
// tenant (the seed's 200); serve counts it for every process
// (httpx.NewSharedWindowLimiter).
const DefaultRate = 200

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Auth    auth.Authenticator
	// Limiter rate-limits tenants; nil: httpx.NewWindowLimiter(DefaultRate).
	Limiter *httpx.WindowLimiter
	// Handlers are extra routes a provider adapter serves (the Twilio
	// status webhook), by path under /api/v1/providers/.
	Handlers map[string]http.Handler
}

// API is the voice HTTP layer.
type API struct {
	svc   *cmd.Service
	db    *stdsql.DB
	auth  auth.Authenticator
	limit *httpx.WindowLimiter
}

// caller is who a request acts for.
type caller struct {
	auth.Principal
	actor cmd.Actor
}

// need authenticates the request, counts it against the tenant's rate
// limit and serves h; the request's appends record the caller, the tenant
// and the request id. A caller in no organization is refused (403).
func (a *API) need(h func(w http.ResponseWriter, r *http.Request, c caller)) http.Handler {
	return auth.Require(a.auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		c := caller{Principal: p, actor: cmd.Actor{Tenant: p.OrganizationID, User: p.UserID}}
		if c.actor.Tenant == "" {
			httpx.WriteError(w, r, kernel.Forbidden("the credentials act in no organization; the voice service needs one"))
			return
		}
		if err := a.limit.Take(r.Context(), w, "tenant:"+c.actor.Tenant, "per tenant"); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, Tenant: c.actor.Tenant,
			RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), c)
	}))
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, status, v)
}

// Page bounds of list endpoints.
const (
	DefaultLimit = 25
	MaxLimit     = 100
	maxPage      = 100_000
)

// page reads page (from 1) and limit (1-MaxLimit, default def).
func page(r *http.Request, def int) (pg, limit int, err error) {
	if pg, err = intParam(r, "page", 1, 1, maxPage); err != nil {
		return 0, 0, err
	}
	limit, err = intParam(r, "limit", def, 1, MaxLimit)
	return pg, limit, err
}

// intParam reads an optional whole-number query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	return httpx.IntParam(r, name, def, lo, hi)
}

// timeParam reads an optional ISO 8601 date or date-time query parameter.
func timeParam(r *http.Request, name string) (*time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, kernel.Invalid(name, "iso8601", name+" must be an ISO 8601 date (2026-11-27) or date-time (2026-11-27T15:04:05Z)")
}

// listOf is the envelope of every list.
type listOf[T any] struct {
	Items   []T  `json:"items"`
	Page    int  `json:"page"`
	Limit   int  `json:"limit"`
	Total   int  `json:"total"`
	HasMore bool `json:"has_more"`
}

func newList[T any](items []T, pg, limit, total int) listOf[T] {
	if items == nil {
		items = []T{}
	}
	return listOf[T]{Items: items, Page: pg, Limit: limit, Total: total, HasMore: (pg-1)*limit+len(items) < total}
}

// id is a path variable.
func id(r *http.Request, name string) string { return mux.Vars(r)[name] }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func stampPtr(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := stamp(*t)
	return &s
}

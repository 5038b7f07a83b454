// Package community serves community events, RSVPs, calendar export and
// comments on the platform API: /api/v1/community-events and
// /api/v1/community. Every route but the comment listing and the calendar
// feed needs the platform's credentials (an API key or a bearer JWT) and
// acts in the caller's organization (the tenant): another tenant's event is
// not found. Errors are the platform API's problem details.
package community

import (
	stdsql "database/sql"
	"net/http"
	"strconv"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// People is what the community needs to know about platform users.
type People interface {
	// Profile returns a user's display name and avatar URL ("" when unknown).
	Profile(userID string) (name, avatar string, ok bool)
	// Administers reports whether userID may moderate in tenant: an owner
	// or admin of that organization, or a platform administrator.
	Administers(tenant, userID string) bool
}

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Auth    auth.Authenticator
	People  People
	// BaseURL is the platform API's public URL (the calendar feed's links).
	BaseURL string
}

// API is the community's HTTP layer.
type API struct {
	svc     *cmd.Service
	db      *stdsql.DB
	auth    auth.Authenticator
	people  People
	baseURL string
}

// caller is who a request acts for and in which tenant.
type caller struct {
	auth.Principal
	Tenant string
}

// need authenticates the request and serves h with the caller; the
// request's appends record the caller, the tenant and the request id.
func (a *API) need(h func(w http.ResponseWriter, r *http.Request, c caller)) http.Handler {
	return auth.Require(a.auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		c := caller{Principal: p, Tenant: p.OrganizationID}
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, Tenant: c.Tenant,
			RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), c)
	}))
}

// tenant refuses a caller who acts in no organization.
func (c caller) tenant() error {
	if c.Tenant == "" {
		return community.NoTenant()
	}
	return nil
}

// intParam reads an optional whole-number query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		rule := "range:" + strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
		msg := name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
		if hi == maxOffset { // say which end was passed: offsets name both bounds
			rule = "min:" + strconv.Itoa(lo)
			if err == nil && n > hi {
				rule = "max:" + strconv.Itoa(hi)
			}
		}
		return 0, kernel.Invalid(name, rule, msg)
	}
	return n, nil
}

// maxOffset bounds offsets (deep pages are a scan).
const maxOffset = 1_000_000

// boolParam reads an optional true/false query parameter.
func boolParam(r *http.Request, name string, def bool) (bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, kernel.Invalid(name, "boolean", name+" must be true or false")
	}
	return b, nil
}

// enumParam reads an optional query parameter that must be one of values.
func enumParam(r *http.Request, name string, values ...string) (string, error) {
	return httpx.EnumParam(r, name, values...)
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, status, v)
}

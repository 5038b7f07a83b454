// Package content serves the content workflow on the platform API, base
// /api/v1/public (tasks also at /api/v1/tasks): twins, the content
// calendar with its exports and retries, connected social accounts,
// publishing, tasks, social analytics and signed export downloads. Every
// route but the OAuth callback and the signed download needs the
// platform's credentials (X-API-Key, or a bearer token).
//
// Statuses: 400 a value breaks a rule (a caption longer than the
// platform allows, a date in the past), 401 credentials, 403 plan limit,
// 404 missing or soft-deleted, 409 a duplicate or a state that forbids the
// move, 422 the body does not match the schema (not JSON, a member of the
// wrong type, unknown or missing), 503 a platform that is not configured.
package content

import (
	stdsql "database/sql"
	"errors"
	"net/http"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/connections"
	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Base is the content workflow's path prefix.
const Base = "/api/v1/public"

// Config is what Routes needs.
type Config struct {
	Service     *cmd.Service
	Connections *connections.Service
	DB          *stdsql.DB
	Auth        auth.Authenticator
	Blobs       blobs.Store
	Links       *blobs.Links
	// BaseURL is the platform API's public base URL (the OAuth callback
	// and download links are built on it).
	BaseURL string
}

// API is the content HTTP layer.
type API struct {
	cfg Config
	svc *cmd.Service
	db  *stdsql.DB
}

// caller is who a request acts for.
type caller struct {
	auth.Principal
	actor cmd.Actor
}

// need authenticates the request and serves h with the caller; appends
// record the caller and the request id.
func (a *API) need(h func(w http.ResponseWriter, r *http.Request, c caller)) http.Handler {
	return auth.Require(a.cfg.Auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		c := caller{Principal: p, actor: cmd.Actor{Owner: cmd.OwnerOf(p.OrganizationID, p.UserID), User: p.UserID}}
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, Tenant: p.OrganizationID,
			RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), c)
	}))
}

// writeJSON writes v with status, or err (with its extra members).
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		writeErr(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, status, v)
}

func writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var d *cmd.Detailed
	if errors.As(err, &d) {
		err = httpx.WithMembers(err, d.Members)
	}
	httpx.WriteError(w, r, err)
}

// decode reads a JSON body strictly; a body that does not match the
// schema (not JSON, wrong member types, unknown members) is 422.
func decode(r *http.Request, dst any) error {
	return schema(httpx.DecodeJSON(r, dst))
}

// schema turns a decoding failure (invalid) into 422.
func schema(err error) error {
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Kind == kernel.KindInvalid {
		cp := *ke
		cp.Kind = kernel.KindUnprocessable
		return &cp
	}
	return err
}

// required is the 422 of a member the schema requires.
func required(field string) error {
	return &kernel.Error{Kind: kernel.KindUnprocessable, Field: field, Rule: "required", Message: field + " is required"}
}

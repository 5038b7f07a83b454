// Package memory serves the memory service (v2) on the platform API under
// /api/v1/public/memory/v2: remember, recall, forget, the temporal entity
// graph, reflection, profiles, transcript processing and context synthesis.
// Every route needs bearer credentials (a platform JWT, an API key, or an
// OAuth access token with memory:read or memory:write) and acts on the
// caller's own store only: another user's memory or entity is not found.
// Errors are the platform API's problem details, naming the field and rule.
package memory

import (
	stdsql "database/sql"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
	"github.com/strata-platform/strata/readapi/memory/search"
)

// Base is the memory service's path prefix.
const Base = "/api/v1/public/memory/v2"

// OAuth scopes of the memory service.
const (
	ScopeRead  = "memory:read"
	ScopeWrite = "memory:write"
)

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Auth    auth.Authenticator
	// IndexCacheSize bounds the users whose recall indexes stay in memory.
	IndexCacheSize int
	// Embedder, when set, adds dense vectors of an embeddings endpoint to
	// recall (STRATA_EMBEDDINGS_URL); nil: the offline similarity alone.
	Embedder Embedder
	// Writer, when set, rewrites contexts and reflections (STRATA_LLM_URL);
	// nil: they stay extractive.
	Writer Writer
	// Lexicon, when set, gives recall the kinds of nouns (readapi/memory/wordnet,
	// STRATA_WORDNET_DIR); nil: words match as written.
	Lexicon search.Lexicon
	// Actions, when set, serves the write-back actions (POST /actions/...)
	// with the caller's connected accounts; nil: they answer 503.
	Actions *actions.Service
	// Connections, when set, serves /connections: the user's connected
	// accounts at the write-back actions' providers (connect, callback,
	// token, disconnect); nil: those routes answer 503. Actions should get
	// its tokens from the same store (ActionTokens).
	Connections *connections.Service
}

// API is the memory service's HTTP layer.
type API struct {
	svc     *cmd.Service
	db      *stdsql.DB
	auth    auth.Authenticator
	indexes *Indexes
	tokens  *Tokens
	writer  Writer
}

// New returns the API without routes (Routes adds them).
func New(cfg Config) *API {
	return &API{svc: cfg.Service, db: cfg.DB, auth: cfg.Auth, indexes: NewIndexes(cfg.DB, cfg.IndexCacheSize, cfg.Embedder, cfg.Lexicon),
		tokens: &Tokens{}, writer: cfg.Writer}
}

// Service returns the memory command service the API writes through.
func (a *API) Service() *cmd.Service { return a.svc }

// Indexes returns the API's recall indexes (the MCP server shares them).
func (a *API) Indexes() *Indexes { return a.indexes }

// caller is who a request acts for.
type caller struct {
	auth.Principal
}

// need authenticates the request with scope for OAuth tokens and serves h;
// the request's appends record the caller and the request id.
func (a *API) need(scope string, h func(w http.ResponseWriter, r *http.Request, c caller)) http.Handler {
	return auth.RequireScope(a.auth, scope, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, Tenant: p.OrganizationID,
			RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), caller{Principal: p})
	}))
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, status, v)
}

// intParam reads an optional whole-number query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, rangeError(name, lo, hi)
	}
	return n, nil
}

func rangeError(name string, lo, hi int) error {
	return kernel.Invalid(name, "range:"+strconv.Itoa(lo)+"-"+strconv.Itoa(hi),
		name+" must be a whole number from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi))
}

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

// MemoryYears bounds the times memories are stated at and recalled as of:
// people remember and ask about the past (1900 on), and nothing is stated
// past 2100.
var MemoryYears = httpx.Years{Min: 1900, Max: 2100}

// ParseTime reads an RFC 3339 date-time with its offset, or a bare date
// (that day's start in UTC), within MemoryYears; a date-time without an
// offset is refused (rule "datetime_offset"), not read as UTC.
func ParseTime(field, v string) (time.Time, error) {
	return httpx.ParseDateTime(field, v, MemoryYears, true)
}

// optionalTime parses an optional date-time field.
func optionalTime(field string, v *string) (time.Time, error) {
	if v == nil || strings.TrimSpace(*v) == "" {
		return time.Time{}, nil
	}
	return ParseTime(field, *v)
}

// LimitField checks an optional whole-number field within [lo, hi] (def
// when nil); out of range is invalid with the rule "range:lo-hi".
func LimitField(name string, v *int, def, lo, hi int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, rangeError(name, lo, hi)
	}
	return *v, nil
}

func orDefault[T any](v *T, def T) T {
	if v == nil {
		return def
	}
	return *v
}

// Package hackathon serves the hackathon service on the hackathon surface,
// base /api/v1: hackathons, tracks, prizes, participants, teams,
// submissions, rubrics, judging (scores, assignments, the leaderboard),
// search, dashboards and analytics. Every route but /openapi.json and the
// invitation link needs the platform's credentials (a bearer JWT or an
// X-API-Key); errors are {"error": {"status_code", "message", "path"}}.
//
// What one hackathon holds (its details, tracks, prizes, teams,
// submissions, rubrics, participants, assignments) is read from the
// command side's fold of its stream, caught up before every read, so a
// read always reflects every write before it. What spans hackathons or
// needs SQL (the list, search, dashboards, analytics, the leaderboard) is
// read from the hackathon.v1 read model, which commands wait for before
// they answer.
package hackathon

import (
	stdsql "database/sql"
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Auth    auth.Authenticator
	// Limiter rate-limits callers; nil uses NewLimiter(DefaultRate).
	Limiter *Limiter
}

// API is the hackathon HTTP layer.
type API struct {
	boards *Boards
	svc    *cmd.Service
	db     *stdsql.DB
	auth   auth.Authenticator
	limit  *Limiter
}

// caller is who a request acts for.
type caller struct {
	auth.Principal
}

// need authenticates the request, counts it against the caller's rate
// limit and serves h; the request's appends record the caller and the
// request id.
func (a *API) need(h func(w http.ResponseWriter, r *http.Request, c caller)) http.Handler {
	return auth.Require(a.auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		if err := take(r, a.limit, w, "user:"+p.UserID); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		rid := httpx.RequestID(r.Context())
		ctx := eventstore.WithMetadata(r.Context(), eventstore.Metadata{Actor: p.UserID, RequestID: rid, CorrelationID: rid})
		h(w, r.WithContext(ctx), caller{Principal: p})
	}))
}

// hid is the request's hackathon id.
func hid(r *http.Request) string { return mux.Vars(r)["hackathon_id"] }

// view runs read on the hackathon of the request as c sees it.
func (a *API) view(r *http.Request, c caller, read func(h *hackathon.Hackathon) error) error {
	return a.svc.View(r.Context(), hid(r), c.UserID, read)
}

// do runs a decision on the hackathon of the request.
func (a *API) do(r *http.Request, c caller, decide cmd.Decision) error {
	_, err := a.svc.Do(r.Context(), hid(r), c.UserID, false, decide)
	return err
}

// Page bounds of list endpoints.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	maxOffset    = 1_000_000
)

// page reads limit (1-MaxLimit, default DefaultLimit) and offset (>= 0).
func page(r *http.Request) (limit, offset int, err error) {
	if limit, err = intParam(r, "limit", DefaultLimit, 1, MaxLimit); err != nil {
		return 0, 0, err
	}
	offset, err = intParam(r, "offset", 0, 0, maxOffset)
	return limit, offset, err
}

// intParam reads an optional whole-number query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	return httpx.IntParam(r, name, def, lo, hi)
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

// listOf is the envelope of every list: the page and the total.
type listOf[T any] struct {
	Items  []T `json:"items"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// pageOf cuts one page out of all.
func pageOf[T any](all []T, limit, offset int) listOf[T] {
	out := listOf[T]{Items: []T{}, Total: len(all), Limit: limit, Offset: offset}
	if offset < len(all) {
		out.Items = all[offset:min(len(all), offset+limit)]
	}
	return out
}

// number is a JSON number in a request body (or a string holding one),
// kept as its text. Anything else is refused as a type error, so the
// answer names the field ("scores.impact: type:number") where json.Number
// would refuse a non-numeric string without saying which field it was.
type number string

// String returns the number's text.
func (n number) String() string { return string(n) }

// JSONType names the JSON type in a type error.
func (number) JSONType() string { return "number" }

// UnmarshalJSON implements json.Unmarshaler.
func (n *number) UnmarshalJSON(b []byte) error {
	var v json.Number
	if err := json.Unmarshal(b, &v); err != nil || v == "" {
		return &json.UnmarshalTypeError{Value: "non-number", Type: reflect.TypeFor[number]()}
	}
	*n = number(v)
	return nil
}

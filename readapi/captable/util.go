package captable

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Paging defaults and bounds of every list.
const (
	defaultLimit = 20
	maxLimit     = 100
	maxPage      = 1_000_000 // deep pages are a scan; beyond this a page number is a mistake
)

func page(r *http.Request) (proj.Page, error) {
	p := proj.Page{Page: 1, Limit: defaultLimit}
	q := r.URL.Query()
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err == nil && n > maxPage:
			return p, kernel.Invalid("page", "max:"+strconv.Itoa(maxPage), "page must be a whole number from 1 to "+strconv.Itoa(maxPage))
		case err != nil || n < 1:
			return p, kernel.Invalid("page", "min:1", "page must be a whole number from 1 to "+strconv.Itoa(maxPage))
		}
		p.Page = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxLimit {
			return p, kernel.Invalid("limit", "range:1-100", "limit must be a whole number from 1 to 100")
		}
		p.Limit = n
	}
	return p, nil
}

// pagination is the list envelope's paging block.
type pagination struct {
	Page    int  `json:"page"`
	Limit   int  `json:"limit"`
	Total   int  `json:"total"`
	HasMore bool `json:"hasMore"`
}

type listBody[T any] struct {
	Data       []T        `json:"data"`
	Pagination pagination `json:"pagination"`
}

func writeList[T any](w http.ResponseWriter, r *http.Request, p proj.Page, data []T, total int, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, listBody[T]{Data: data, Pagination: pagination{Page: p.Page, Limit: p.Limit, Total: total,
		HasMore: p.Page*p.Limit < total}})
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	if err := httpx.WriteJSON(w, status, v); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// writeOne writes a single resource read from the read model; a resource
// outside the caller's company is 404.
func writeOne[T any](w http.ResponseWriter, r *http.Request, status int, what string, v T, err error) {
	if err = notFoundAs(err, what, mux.Vars(r)["id"]); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, status, v)
}

// notFoundAs turns the read model's not-found into the API's 404 naming
// the resource; other errors pass through.
func notFoundAs(err error, what, id string) error {
	if errors.Is(err, proj.ErrNotFound) {
		return kernel.NotFound(what + " " + id + " not found")
	}
	return err
}

// settled waits until the read model has applied an append (read your
// writes) so the response and the next GET show it.
func (a *API) settled(r *http.Request, app eventstore.Appended) error {
	if app.ToVersion == 0 {
		return nil
	}
	return a.svc.Settle(r.Context(), app.Last)
}

// today is the service clock's UTC date.
func (a *API) today() time.Time { return captable.DayOf(a.svc.Now()).Time }

// dayParam reads an optional date query parameter.
func dayParam(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	d, ok := captable.ParseDay(v)
	if !ok {
		return time.Time{}, kernel.Invalid(name, "date", name+" must be a date (YYYY-MM-DD)")
	}
	return d.Time, nil
}

// instantParam reads an optional RFC 3339 timestamp query parameter (a
// bare date means the end of that day, UTC).
func instantParam(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if d, ok := captable.ParseDay(v); ok {
		return d.Add(24*time.Hour - time.Nanosecond), nil
	}
	return time.Time{}, kernel.Invalid(name, "timestamp", name+" must be an RFC 3339 timestamp or a date")
}

func id(r *http.Request) string { return mux.Vars(r)["id"] }

package content

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// years bounds the date-times the calendar accepts.
var years = httpx.Years{Min: 2000, Max: 2100}

// scheduleBody is POST /content/calendar's body.
type scheduleBody struct {
	TwinID      *string         `json:"twin_id"`
	Title       *string         `json:"title"`
	Platform    *string         `json:"platform"`
	ScheduledAt *string         `json:"scheduled_at"`
	Script      *string         `json:"script"`
	Media       []content.Media `json:"media"`
	// ReelURL is a shorthand for one video.
	ReelURL        *string `json:"reel_url"`
	AllowDuplicate bool    `json:"allow_duplicate"`
}

func (a *API) schedule(w http.ResponseWriter, r *http.Request, c caller) {
	var b scheduleBody
	if err := decode(r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"title", b.Title}, {"platform", b.Platform}, {"scheduled_at", b.ScheduledAt}} {
		if f.v == nil {
			writeErr(w, r, required(f.name))
			return
		}
	}
	if !content.ValidPlatform(*b.Platform) {
		writeErr(w, r, kernel.Invalid("platform", "enum", "platform must be one of "+strings.Join(content.Platforms, ", ")))
		return
	}
	at, err := httpx.ParseDateTime("scheduled_at", *b.ScheduledAt, years, false)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	in := cmd.ItemInput{Title: *b.Title, Platform: *b.Platform, ScheduledAt: at, Media: b.Media, AllowDuplicate: b.AllowDuplicate}
	if b.TwinID != nil {
		in.TwinID = *b.TwinID
	}
	if b.Script != nil {
		in.Script = *b.Script
	}
	if b.ReelURL != nil {
		if len(b.Media) > 0 {
			writeErr(w, r, kernel.Invalid("reel_url", "exclusive", "give reel_url or media, not both"))
			return
		}
		in.Media = []content.Media{{URL: *b.ReelURL, Kind: content.MediaVideo}}
	}
	ev, err := a.svc.Schedule(r.Context(), c.actor, in)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	it, err := a.oneItem(r.Context(), c.actor.Owner, content.OriginCalendar, ev.PostID)
	writeJSON(w, r, http.StatusCreated, it, err)
}

// listFilter reads the calendar's list filters.
func listFilter(r *http.Request, owner string) (itemFilter, error) {
	q := r.URL.Query()
	f := itemFilter{Owner: owner, Origin: content.OriginCalendar}
	var err error
	if f.Platform, err = httpx.EnumParam(r, "platform", content.Platforms...); err != nil {
		return f, err
	}
	if f.Status, err = httpx.EnumParam(r, "status", content.StatusScheduled, content.StatusPublished, content.StatusFailed); err != nil {
		return f, err
	}
	if v := q.Get("from_date"); v != "" {
		if f.From, err = httpx.ParseDateTime("from_date", v, years, true); err != nil {
			return f, err
		}
	}
	if v := q.Get("to_date"); v != "" {
		if f.To, err = httpx.ParseDateTime("to_date", v, years, true); err != nil {
			return f, err
		}
		if len(strings.TrimSpace(v)) == len(time.DateOnly) {
			f.To = f.To.AddDate(0, 0, 1) // a bare to_date includes its whole day
		}
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return f, kernel.Invalid("to_date", "after:from_date", "to_date must not be before from_date")
	}
	if f.Limit, err = httpx.IntParam(r, "limit", 100, 1, 500); err != nil {
		return f, err
	}
	f.Offset, err = httpx.IntParam(r, "offset", 0, 0, 1_000_000)
	return f, err
}

// listItems serves GET /content/calendar: the owner's items by
// scheduled_at, as a JSON array (limit 1-500, default 100; offset).
func (a *API) listItems(w http.ResponseWriter, r *http.Request, c caller) {
	f, err := listFilter(r, c.actor.Owner)
	var out []itemJSON
	if err == nil {
		out, err = a.items(r.Context(), f)
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

func (a *API) getItem(w http.ResponseWriter, r *http.Request, c caller) {
	it, err := a.oneItem(r.Context(), c.actor.Owner, content.OriginCalendar, mux.Vars(r)["item_id"])
	writeJSON(w, r, http.StatusOK, it, err)
}

// deleteItem serves DELETE /content/calendar/{item_id}: 204, later reads 404.
func (a *API) deleteItem(w http.ResponseWriter, r *http.Request, c caller) {
	if err := a.svc.DeleteItem(r.Context(), c.actor, mux.Vars(r)["item_id"]); err != nil {
		writeErr(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// retryItem serves POST /content/calendar/{item_id}/retry: a new attempt
// for each failed platform (the founder's decision, unconfirmed included).
func (a *API) retryItem(w http.ResponseWriter, r *http.Request, c caller) {
	id := mux.Vars(r)["item_id"]
	if _, err := a.oneItem(r.Context(), c.actor.Owner, content.OriginCalendar, id); err != nil {
		writeErr(w, r, err)
		return
	}
	if _, err := a.svc.Retry(r.Context(), c.actor, id); err != nil {
		writeErr(w, r, err)
		return
	}
	it, err := a.oneItem(r.Context(), c.actor.Owner, content.OriginCalendar, id)
	writeJSON(w, r, http.StatusAccepted, it, err)
}

// retryFailedBody is POST /content/calendar/retry-failed's body.
type retryFailedBody struct {
	Platform string `json:"platform"`
	Reason   string `json:"reason"`
	Limit    *int   `json:"limit"`
}

// retryFailed serves POST /content/calendar/retry-failed: every failed item
// of a platform ("" all) and reason ("" any), at most limit (1-500, 100).
func (a *API) retryFailed(w http.ResponseWriter, r *http.Request, c caller) {
	var b retryFailedBody
	if r.ContentLength != 0 {
		if err := decode(r, &b); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	limit := 100
	if b.Limit != nil {
		if *b.Limit < 1 || *b.Limit > 500 {
			writeErr(w, r, kernel.Invalid("limit", "range:1-500", "limit must be a whole number from 1 to 500"))
			return
		}
		limit = *b.Limit
	}
	res, err := a.svc.RetryFailed(r.Context(), c.actor, b.Platform, strings.TrimSpace(b.Reason), limit)
	retried := 0
	for _, x := range res {
		if x.Status == "retried" {
			retried++
		}
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"retried": retried, "items": res}, err)
}

// limits serves GET /content/calendar/limits: the versioned per-platform
// limits items are checked against.
func (a *API) limits(w http.ResponseWriter, r *http.Request, _ caller) {
	out := make([]content.Limits, 0, len(content.Platforms))
	for _, p := range content.Platforms {
		out = append(out, content.LimitsTable[p])
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"version": content.LimitsVersion, "platforms": out}, nil)
}

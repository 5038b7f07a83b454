package community

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/community"
	"github.com/strata-platform/strata/readapi/httpx"
)

// eventBody is the body of create and PATCH; null clears a field.
type eventBody struct {
	Title       *string `json:"title"`
	Description *string `json:"description"`
	StartTime   *string `json:"start_time"`
	EndTime     *string `json:"end_time"`
	Location    *string `json:"location"`
	EventType   *string `json:"event_type"`
	Capacity    *int    `json:"capacity"`
	GroupID     *string `json:"group_id"`
	URL         *string `json:"url"`
	Waitlist    *bool   `json:"waitlist"`
}

// decodeEvent decodes an event body and names the fields it sets.
func decodeEvent(r *http.Request) (community.Details, map[string]bool, error) {
	var body eventBody
	var raw bytes.Buffer
	if r.Body != nil {
		r.Body = io.NopCloser(io.TeeReader(r.Body, &raw))
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		return community.Details{}, nil, err
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(raw.Bytes(), &present); err != nil {
		return community.Details{}, nil, kernel.Invalid("body", "object", "the body must be a JSON object")
	}
	set := map[string]bool{}
	for k := range present {
		set[k] = true
	}
	d := community.Details{Title: deref(body.Title), Description: deref(body.Description), Location: deref(body.Location),
		EventType: deref(body.EventType), Capacity: body.Capacity, GroupID: deref(body.GroupID), URL: deref(body.URL),
		Waitlist: body.Waitlist != nil && *body.Waitlist}
	if set["start_time"] {
		if body.StartTime == nil {
			return d, nil, kernel.Invalid("start_time", "required", "start_time cannot be null")
		}
		t, err := parseTime("start_time", *body.StartTime)
		if err != nil {
			return d, nil, err
		}
		d.StartTime = t
	}
	if body.EndTime != nil && *body.EndTime != "" {
		t, err := parseTime("end_time", *body.EndTime)
		if err != nil {
			return d, nil, err
		}
		d.EndTime = &t
	}
	if set["title"] && body.Title == nil {
		return d, nil, kernel.Invalid("title", "required", "title cannot be null")
	}
	if set["event_type"] && body.EventType == nil {
		return d, nil, kernel.Invalid("event_type", "enum", "event_type must be one of virtual, in_person, hybrid")
	}
	if set["waitlist"] && body.Waitlist == nil {
		return d, nil, kernel.Invalid("waitlist", "boolean", "waitlist must be true or false")
	}
	return d, set, nil
}

// eventYears bounds an event's start and end: community events are
// scheduled now or later (the start may not be in the past), and nothing is
// planned past 2100.
var eventYears = httpx.Years{Min: 2000, Max: 2100}

// parseTime reads an RFC 3339 date-time with its offset (one without is
// refused, not read as UTC) within eventYears.
func parseTime(field, v string) (time.Time, error) {
	return httpx.ParseDateTime(field, v, eventYears, false)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (a *API) createEvent(w http.ResponseWriter, r *http.Request, c caller) {
	if err := c.tenant(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, set, err := decodeEvent(r)
	if err == nil && !set["title"] {
		err = kernel.Invalid("title", "required", "title is required")
	}
	if err == nil && !set["start_time"] {
		err = kernel.Invalid("start_time", "required", "start_time is required")
	}
	var id string
	if err == nil {
		id, err = a.svc.CreateEvent(r.Context(), c.Tenant, c.UserID, d)
	}
	a.writeEvent(w, r, c, http.StatusCreated, id, err)
}

// writeEvent answers with the event as the read model shows it.
func (a *API) writeEvent(w http.ResponseWriter, r *http.Request, c caller, status int, id string, err error) {
	var e proj.EventRow
	if err == nil {
		e, err = proj.Event(r.Context(), a.db, c.Tenant, id)
	}
	writeJSON(w, r, status, toEvent(e), err)
}

func (a *API) getEvent(w http.ResponseWriter, r *http.Request, c caller) {
	a.writeEvent(w, r, c, http.StatusOK, mux.Vars(r)["event_id"], c.tenant())
}

func (a *API) patchEvent(w http.ResponseWriter, r *http.Request, c caller) {
	id := mux.Vars(r)["event_id"]
	err := c.tenant()
	if err == nil { // authorize before the body is read: an outsider learns nothing from a validation error
		err = a.svc.MayAct(r.Context(), c.Tenant, c.UserID, id, true)
	}
	if err == nil {
		var d community.Details
		var set map[string]bool
		if d, set, err = decodeEvent(r); err == nil {
			err = a.svc.UpdateEvent(r.Context(), c.Tenant, c.UserID, id, community.Patch{Fields: set, Details: d})
		}
	}
	a.writeEvent(w, r, c, http.StatusOK, id, err)
}

func (a *API) deleteEvent(w http.ResponseWriter, r *http.Request, c caller) {
	err := c.tenant()
	if err == nil {
		err = a.svc.CancelEvent(r.Context(), c.Tenant, c.UserID, mux.Vars(r)["event_id"])
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// listBody is the envelope of every event list.
type listBody struct {
	Total   int         `json:"total"`
	Offset  int         `json:"offset"`
	Limit   int         `json:"limit"`
	HasMore bool        `json:"has_more"`
	Events  []eventJSON `json:"events"`
}

func writeEvents(w http.ResponseWriter, r *http.Request, p proj.Page, rows []proj.EventRow, total int, err error) {
	out := listBody{Total: total, Offset: p.Offset, Limit: p.Limit, HasMore: p.Offset+len(rows) < total, Events: []eventJSON{}}
	for _, e := range rows {
		out.Events = append(out.Events, toEvent(e))
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// page reads limit (1-100, default def) and offset.
func page(r *http.Request, def int) (proj.Page, error) {
	limit, err := intParam(r, "limit", def, 1, 100)
	if err != nil {
		return proj.Page{}, err
	}
	offset, err := intParam(r, "offset", 0, 0, maxOffset)
	return proj.Page{Limit: limit, Offset: offset}, err
}

package community

import (
	"net/http"

	"github.com/strata-platform/strata/domain/community"
	proj "github.com/strata-platform/strata/projections/community"
)

// listEvents serves GET /community-events: every event of the tenant
// (cancelled ones too), or filter_type upcoming (start_time >= now,
// soonest first), past (start_time < now, latest first) or my_events
// (those the caller created).
func (a *API) listEvents(w http.ResponseWriter, r *http.Request, c caller) {
	var rows []proj.EventRow
	var total int
	p, err := page(r, 50)
	filter := ""
	if err == nil {
		filter, err = enumParam(r, "filter_type", "upcoming", "past", "my_events")
	}
	if err == nil {
		err = c.tenant()
	}
	if err == nil {
		f := proj.EventFilter{Tenant: c.Tenant, GroupID: r.URL.Query().Get("group_id")}
		now := a.svc.Now()
		switch filter {
		case "upcoming":
			f.From = now
		case "past":
			f.Before, f.Order = now, proj.OrderStartDesc
		case "my_events":
			f.Creator = c.UserID
		}
		rows, total, err = proj.Events(r.Context(), a.db, f, p)
	}
	writeEvents(w, r, p, rows, total, err)
}

// browse serves GET /community-events/browse: scheduled events that start
// now or later, by start_time (default) or attendee_count.
func (a *API) browse(w http.ResponseWriter, r *http.Request, c caller) {
	var rows []proj.EventRow
	var total int
	p, err := page(r, 20)
	var eventType, sortBy, order string
	if err == nil {
		eventType, err = enumParam(r, "event_type", community.EventTypes...)
	}
	if err == nil {
		sortBy, err = enumParam(r, "sort_by", "start_time", "attendee_count")
	}
	if err == nil {
		order, err = enumParam(r, "sort_order", "asc", "desc")
	}
	if err == nil {
		err = c.tenant()
	}
	if err == nil {
		f := proj.EventFilter{Tenant: c.Tenant, GroupID: r.URL.Query().Get("group_id"), EventType: eventType,
			From: a.svc.Now(), Scheduled: true}
		switch {
		case sortBy == "attendee_count" && order == "desc":
			f.Order = proj.OrderGoingDesc
		case sortBy == "attendee_count":
			f.Order = proj.OrderGoingAsc
		case order == "desc":
			f.Order = proj.OrderStartDesc
		}
		rows, total, err = proj.Events(r.Context(), a.db, f, p)
	}
	writeEvents(w, r, p, rows, total, err)
}

// myEvents serves GET /community-events/my-events: the events the caller
// RSVP'd to, soonest first, each with the caller's RSVP.
func (a *API) myEvents(w http.ResponseWriter, r *http.Request, c caller) {
	var rows []proj.EventRow
	var total int
	p, err := page(r, 20)
	upcoming, status := true, ""
	if err == nil {
		upcoming, err = boolParam(r, "upcoming_only", true)
	}
	if err == nil {
		status, err = enumParam(r, "status_filter", community.Going, community.Interested, community.NotGoing, community.Waitlisted)
	}
	if err == nil {
		err = c.tenant()
	}
	if err == nil {
		f := proj.MyEventsFilter{Tenant: c.Tenant, User: c.UserID, Status: status}
		if upcoming {
			f.From = a.svc.Now()
		}
		rows, total, err = proj.MyEvents(r.Context(), a.db, f, p)
	}
	writeEvents(w, r, p, rows, total, err)
}

package community

import (
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/community"
	"github.com/strata-platform/strata/readapi/httpx"
)

type rsvpBody struct {
	Status          *string `json:"status"`
	ResponseMessage *string `json:"response_message"`
}

// rsvp serves POST /{event_id}/rsvp: create or update the caller's RSVP.
func (a *API) rsvp(w http.ResponseWriter, r *http.Request, c caller) {
	var body rsvpBody
	var res cmd.RSVPResult
	err := c.tenant()
	if err == nil { // authorize before the body is read
		err = a.svc.MayAct(r.Context(), c.Tenant, c.UserID, mux.Vars(r)["event_id"], false)
	}
	if err == nil {
		err = httpx.DecodeJSON(r, &body)
	}
	if err == nil {
		err = community.CheckRSVPStatus(deref(body.Status))
	}
	if err == nil {
		res, err = a.svc.RSVP(r.Context(), c.Tenant, c.UserID, mux.Vars(r)["event_id"], *body.Status, body.ResponseMessage)
	}
	writeJSON(w, r, http.StatusCreated, fromResult(res), err)
}

// patchRSVP serves PATCH /rsvps/{rsvp_id}: the RSVP's owner changes its
// status or response message.
func (a *API) patchRSVP(w http.ResponseWriter, r *http.Request, c caller) {
	var body rsvpBody
	var res cmd.RSVPResult
	var row proj.RSVPRow
	err := c.tenant()
	if err == nil { // authorize before the body is read: another tenant's RSVP is 404, another user's 403
		row, err = proj.RSVP(r.Context(), a.db, c.Tenant, mux.Vars(r)["rsvp_id"])
	}
	if err == nil && row.UserID != c.UserID {
		err = kernel.Forbidden("only the RSVP's owner may change it")
	}
	if err == nil {
		err = httpx.DecodeJSON(r, &body)
	}
	if err == nil && body.Status == nil && body.ResponseMessage == nil {
		err = kernel.Invalid("status", "required", "status (or response_message) is required")
	}
	if err == nil && body.Status != nil {
		err = community.CheckRSVPStatus(*body.Status)
	}
	if err == nil {
		res, err = a.svc.ChangeRSVP(r.Context(), c.Tenant, c.UserID, row.EventID, row.ID, deref(body.Status), body.ResponseMessage)
	}
	writeJSON(w, r, http.StatusOK, fromResult(res), err)
}

// attendeesBody is the attendee list: counts from the event's running
// totals, attendees in the order they first answered.
type attendeesBody struct {
	EventID         string         `json:"event_id"`
	Total           int            `json:"total"`
	GoingCount      int            `json:"going_count"`
	InterestedCount int            `json:"interested_count"`
	NotGoingCount   int            `json:"not_going_count"`
	WaitlistedCount int            `json:"waitlisted_count"`
	Attendees       []attendeeJSON `json:"attendees"`
	// Limit, Offset and HasMore page the list (GET /rsvps).
	Limit   *int  `json:"limit,omitempty"`
	Offset  *int  `json:"offset,omitempty"`
	HasMore *bool `json:"has_more,omitempty"`
}

// maxAttendees bounds GET /attendees, which the seed does not page.
const maxAttendees = 10000

// attendees serves GET /{event_id}/attendees (status_filter).
func (a *API) attendees(w http.ResponseWriter, r *http.Request, c caller) {
	a.attendeeList(w, r, c, proj.Page{Limit: maxAttendees}, false)
}

// rsvps serves GET /{event_id}/rsvps: the attendee shape with paging.
func (a *API) rsvps(w http.ResponseWriter, r *http.Request, c caller) {
	p, err := page(r, 50)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.attendeeList(w, r, c, p, true)
}

func (a *API) attendeeList(w http.ResponseWriter, r *http.Request, c caller, p proj.Page, paged bool) {
	var out attendeesBody
	status, err := enumParam(r, "status_filter", community.Going, community.Interested, community.NotGoing, community.Waitlisted)
	if err == nil {
		err = c.tenant()
	}
	var e proj.EventRow
	if err == nil {
		e, err = proj.Event(r.Context(), a.db, c.Tenant, mux.Vars(r)["event_id"])
	}
	var rows []proj.RSVPRow
	if err == nil {
		rows, out.Total, err = proj.RSVPs(r.Context(), a.db, e.ID, status, p)
	}
	out.EventID, out.GoingCount, out.InterestedCount = e.ID, e.Going, e.Interested
	out.NotGoingCount, out.WaitlistedCount = e.NotGoing, e.Waitlisted
	out.Attendees = make([]attendeeJSON, 0, len(rows))
	for _, row := range rows {
		out.Attendees = append(out.Attendees, toAttendee(row))
	}
	if paged {
		more := p.Offset+len(rows) < out.Total
		out.Limit, out.Offset, out.HasMore = &p.Limit, &p.Offset, &more
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// historyBody is an RSVP's history.
type historyBody struct {
	RSVPID  string        `json:"rsvp_id"`
	EventID string        `json:"event_id"`
	UserID  string        `json:"user_id"`
	Changes []changeJSON  `json:"changes"`
	Current *attendeeJSON `json:"current"`
}

type changeJSON struct {
	Status          string  `json:"status"`
	Previous        *string `json:"previous_status"`
	ResponseMessage *string `json:"response_message"`
	Reason          *string `json:"promotion_reason,omitempty"`
	At              string  `json:"at"`
	Version         int64   `json:"event_version"`
}

// rsvpHistory serves GET /rsvps/{rsvp_id}/history (beyond the seed): every
// change of the RSVP, from the event's stream, for its owner and the
// event's creator.
func (a *API) rsvpHistory(w http.ResponseWriter, r *http.Request, c caller) {
	var out historyBody
	err := c.tenant()
	var row proj.RSVPRow
	if err == nil {
		row, err = proj.RSVP(r.Context(), a.db, c.Tenant, mux.Vars(r)["rsvp_id"])
	}
	var changes []cmd.RSVPChange
	if err == nil {
		changes, err = a.svc.RSVPHistory(r.Context(), c.Tenant, c.UserID, row.EventID, row.ID)
	}
	out.RSVPID, out.EventID, out.UserID, out.Changes = row.ID, row.EventID, row.UserID, []changeJSON{}
	for _, ch := range changes {
		out.Changes = append(out.Changes, changeJSON{Status: ch.Status, Previous: strPtr(ch.Previous),
			ResponseMessage: strPtr(ch.ResponseMessage), Reason: strPtr(ch.Reason), At: ts(ch.At), Version: ch.EventVersion})
	}
	if err == nil {
		cur := toAttendee(row)
		out.Current = &cur
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

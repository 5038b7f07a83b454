package community

import (
	stdsql "database/sql"
	"time"

	cmd "github.com/strata-platform/strata/commands/community"
	proj "github.com/strata-platform/strata/projections/community"
)

// eventJSON is an event: the seed's fields, the RSVP counts (attendee_count
// is the number going) and, beyond the seed, url, waitlist and sequence.
type eventJSON struct {
	ID              string  `json:"id"`
	Title           string  `json:"title"`
	Description     *string `json:"description"`
	StartTime       string  `json:"start_time"`
	EndTime         *string `json:"end_time"`
	Location        *string `json:"location"`
	EventType       string  `json:"event_type"`
	Capacity        *int64  `json:"capacity"`
	Status          string  `json:"status"`
	CreatorID       string  `json:"creator_id"`
	TenantID        string  `json:"tenant_id"`
	GroupID         *string `json:"group_id"`
	URL             *string `json:"url"`
	Waitlist        bool    `json:"waitlist"`
	Sequence        int     `json:"sequence"`
	AttendeeCount   int     `json:"attendee_count"`
	GoingCount      int     `json:"going_count"`
	InterestedCount int     `json:"interested_count"`
	NotGoingCount   int     `json:"not_going_count"`
	WaitlistedCount int     `json:"waitlisted_count"`
	SpotsLeft       *int64  `json:"spots_left"`
	CreatedAt       string  `json:"created_at"`
	UpdatedAt       string  `json:"updated_at"`
	// MyRSVP is the caller's RSVP (my-events only).
	MyRSVP *myRSVPJSON `json:"my_rsvp,omitempty"`
}

type myRSVPJSON struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func toEvent(e proj.EventRow) eventJSON {
	out := eventJSON{ID: e.ID, Title: e.Title, Description: str(e.Description), StartTime: ts(e.StartTime),
		Location: str(e.Location), EventType: e.EventType, Status: e.Status, CreatorID: e.CreatorID,
		TenantID: e.TenantID, GroupID: str(e.GroupID), URL: str(e.URL), Waitlist: e.Waitlist, Sequence: e.Sequence,
		AttendeeCount: e.Going, GoingCount: e.Going, InterestedCount: e.Interested, NotGoingCount: e.NotGoing,
		WaitlistedCount: e.Waitlisted, CreatedAt: ts(e.CreatedAt), UpdatedAt: ts(e.UpdatedAt)}
	if e.EndTime.Valid {
		s := ts(e.EndTime.Time)
		out.EndTime = &s
	}
	if e.Capacity.Valid {
		c, left := e.Capacity.Int64, max(e.Capacity.Int64-int64(e.Going), 0)
		out.Capacity, out.SpotsLeft = &c, &left
	}
	if e.RSVPID.Valid {
		out.MyRSVP = &myRSVPJSON{ID: e.RSVPID.String, Status: e.RSVPStatus.String}
	}
	return out
}

// rsvpJSON is an RSVP.
type rsvpJSON struct {
	ID               string  `json:"id"`
	EventID          string  `json:"event_id"`
	UserID           string  `json:"user_id"`
	Status           string  `json:"status"`
	ResponseMessage  *string `json:"response_message"`
	CreatedAt        string  `json:"created_at"`
	UpdatedAt        string  `json:"updated_at"`
	WaitlistPosition *int    `json:"waitlist_position,omitempty"`
}

func fromResult(r cmd.RSVPResult) rsvpJSON {
	out := rsvpJSON{ID: r.ID, EventID: r.EventID, UserID: r.UserID, Status: r.Status,
		ResponseMessage: strPtr(r.ResponseMessage), CreatedAt: ts(r.CreatedAt), UpdatedAt: ts(r.UpdatedAt)}
	if r.WaitlistPosition > 0 {
		p := r.WaitlistPosition
		out.WaitlistPosition = &p
	}
	return out
}

// attendeeJSON is the seed's attendee shape.
type attendeeJSON struct {
	UserID          string  `json:"user_id"`
	RSVPID          string  `json:"rsvp_id"`
	Status          string  `json:"status"`
	ResponseMessage *string `json:"response_message"`
	RSVPCreatedAt   string  `json:"rsvp_created_at"`
	RSVPUpdatedAt   string  `json:"rsvp_updated_at"`
}

func toAttendee(r proj.RSVPRow) attendeeJSON {
	return attendeeJSON{UserID: r.UserID, RSVPID: r.ID, Status: r.Status, ResponseMessage: str(r.ResponseMessage),
		RSVPCreatedAt: ts(r.CreatedAt), RSVPUpdatedAt: ts(r.UpdatedAt)}
}

// ts writes a time as UTC ISO 8601 with Z.
func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func str(s stdsql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

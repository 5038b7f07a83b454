package community

import (
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Event statuses.
const (
	StatusScheduled = "scheduled"
	StatusCancelled = "cancelled"
)

// RSVP statuses. Waitlisted is only ever given by the service (a going
// RSVP at capacity on an event with a waitlist), never asked for.
const (
	Going      = "going"
	Interested = "interested"
	NotGoing   = "not_going"
	Waitlisted = "waitlisted"
)

// RSVP is one user's answer to one event.
type RSVP struct {
	ID              string
	UserID          string
	Status          string
	ResponseMessage string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Event is the fold of an event's stream: its details, status and every
// RSVP with the counts the capacity rule is decided on.
type Event struct {
	ID        string
	TenantID  string
	CreatorID string
	Details
	Status    string
	Sequence  int
	CreatedAt time.Time
	UpdatedAt time.Time
	Version   int64

	rsvps    map[string]*RSVP // by user id
	byID     map[string]string
	waitlist []string // user ids, first come first served
	counts   map[string]int
}

// Exists reports whether the stream has been opened.
func (e *Event) Exists() bool { return e.ID != "" }

// Count returns how many RSVPs have status.
func (e *Event) Count(status string) int { return e.counts[status] }

// RSVPOf returns user's RSVP, if any.
func (e *Event) RSVPOf(user string) (RSVP, bool) {
	r, ok := e.rsvps[user]
	if !ok {
		return RSVP{}, false
	}
	return *r, true
}

// RSVPByID returns the RSVP with id, if it belongs to this event.
func (e *Event) RSVPByID(id string) (RSVP, bool) {
	user, ok := e.byID[id]
	if !ok {
		return RSVP{}, false
	}
	return e.RSVPOf(user)
}

// WaitlistPosition is user's 1-based place on the waitlist (0: not on it).
func (e *Event) WaitlistPosition(user string) int {
	return slices.Index(e.waitlist, user) + 1
}

// Ended reports whether the event is over at now: after its end, or after
// its start when the end is not known.
func (e *Event) Ended(now time.Time) bool {
	end := e.StartTime
	if e.EndTime != nil {
		end = *e.EndTime
	}
	return now.After(end)
}

// Apply folds one event of the stream.
func (e *Event) Apply(ev kernel.Event) {
	switch ev := ev.(type) {
	case *EventCreated:
		*e = Event{ID: ev.EventID, TenantID: ev.TenantID, CreatorID: ev.CreatorID, Details: ev.Details,
			Status: StatusScheduled, CreatedAt: ev.At, UpdatedAt: ev.At, Version: e.Version,
			rsvps: map[string]*RSVP{}, byID: map[string]string{}, counts: map[string]int{}}
	case *EventUpdated:
		e.Details, e.Sequence, e.UpdatedAt = ev.Details, ev.Sequence, ev.At
	case *EventCancelled:
		e.Status, e.Sequence, e.UpdatedAt = StatusCancelled, ev.Sequence, ev.At
	case *RSVPChanged:
		r := e.rsvps[ev.UserID]
		if r == nil {
			r = &RSVP{ID: ev.RSVPID, UserID: ev.UserID, CreatedAt: ev.At}
			e.rsvps[ev.UserID], e.byID[ev.RSVPID] = r, ev.UserID
		}
		e.setStatus(r, ev.Status)
		r.ResponseMessage, r.UpdatedAt = ev.ResponseMessage, ev.At
	case *RSVPPromoted:
		if r := e.rsvps[ev.UserID]; r != nil {
			e.setStatus(r, Going)
			r.UpdatedAt = ev.At
		}
	}
}

// setStatus moves r to status; a waitlisted RSVP that stays waitlisted
// (its message changed) keeps its place in the queue.
func (e *Event) setStatus(r *RSVP, status string) {
	if r.Status == status {
		return
	}
	if r.Status != "" {
		e.counts[r.Status]--
	}
	if r.Status == Waitlisted {
		if i := slices.Index(e.waitlist, r.UserID); i >= 0 {
			e.waitlist = slices.Delete(e.waitlist, i, i+1)
		}
	}
	if status == Waitlisted {
		e.waitlist = append(e.waitlist, r.UserID)
	}
	r.Status = status
	e.counts[status]++
}

// Replay folds a whole stream.
func Replay(evs []kernel.Event) *Event {
	e := &Event{}
	for _, ev := range evs {
		e.Apply(ev)
		e.Version++
	}
	return e
}

// placesLeft is how many more people may go with capacity and going
// already going (-1: unlimited).
func placesLeft(capacity *int, going int) int {
	if capacity == nil {
		return -1
	}
	return max(*capacity-going, 0)
}

// promotions moves the head of the waitlist to going, free places at most
// (-1: everyone).
func (e *Event) promotions(free int, reason string, at time.Time) []kernel.Event {
	var out []kernel.Event
	for i := 0; i < len(e.waitlist) && (free < 0 || i < free); i++ {
		u := e.waitlist[i]
		out = append(out, &RSVPPromoted{EventID: e.ID, RSVPID: e.rsvps[u].ID, UserID: u, Reason: reason, At: at})
	}
	return out
}

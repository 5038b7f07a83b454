package community

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// RSVPStatuses are the statuses a caller may ask for.
var RSVPStatuses = []string{Going, Interested, NotGoing}

// CheckRSVPStatus refuses a status a caller may not ask for.
func CheckRSVPStatus(status string) error {
	switch status {
	case Going, Interested, NotGoing:
		return nil
	case "":
		return kernel.Invalid("status", "required", "status is required: going, interested or not_going")
	}
	return kernel.Invalid("status", "enum", "status must be one of going, interested, not_going")
}

// Respond decides user's RSVP: it creates one (with id newID) or changes
// the user's existing one. message nil keeps the current response message.
// A move to going at capacity is refused, or waitlisted when the event has
// a waitlist; a going person who stops going frees a place, which the first
// waitlisted person takes in the same decision. Asking for what the RSVP
// already is gives no events. It returns the RSVP as decided.
func (e *Event) Respond(user, status string, message *string, newID string, now time.Time) (RSVP, []kernel.Event, error) {
	if err := e.open(now); err != nil {
		return RSVP{}, nil, err
	}
	if err := CheckRSVPStatus(status); err != nil {
		return RSVP{}, nil, err
	}
	cur, exists := e.rsvps[user]
	r := RSVP{ID: newID, UserID: user, CreatedAt: stamp(now)}
	if exists {
		r = *cur
	}
	if message != nil {
		msg := strings.TrimSpace(*message)
		if err := maxChars("response_message", msg, MaxResponseMessage); err != nil {
			return RSVP{}, nil, err
		}
		r.ResponseMessage = msg
	}
	going := e.counts[Going]
	target := status
	if status == Going && !(exists && (cur.Status == Going || cur.Status == Waitlisted)) && placesLeft(e.Capacity, going) == 0 {
		if !e.Waitlist {
			return RSVP{}, nil, kernel.Invalid("status", "capacity",
				fmt.Sprintf("the event is at capacity: all %d places are taken", *e.Capacity))
		}
		target = Waitlisted
	} else if status == Going && exists && cur.Status == Waitlisted {
		target = Waitlisted
	}
	if exists && target == cur.Status && r.ResponseMessage == cur.ResponseMessage {
		return r, nil, nil
	}
	at := stamp(now)
	r.Status, r.UpdatedAt = target, at
	ch := &RSVPChanged{EventID: e.ID, RSVPID: r.ID, UserID: user, Status: target, ResponseMessage: r.ResponseMessage, At: at}
	if exists {
		ch.Previous = cur.Status
	}
	out := []kernel.Event{ch}
	if exists && cur.Status == Going && target != Going {
		out = append(out, e.promotions(placesLeft(e.Capacity, going-1), PromotedPlaceFreed, at)...)
	}
	return r, out, nil
}

// ChangeRSVP decides a change of the RSVP with id by actor, who must own
// it. status "" keeps what the RSVP asked for (going for a waitlisted one).
func (e *Event) ChangeRSVP(id, actor, status string, message *string, now time.Time) (RSVP, []kernel.Event, error) {
	cur, ok := e.RSVPByID(id)
	if !ok {
		return RSVP{}, nil, kernel.NotFound("RSVP " + id + " not found")
	}
	if cur.UserID != actor {
		return RSVP{}, nil, kernel.Forbidden("only the RSVP's owner may change it")
	}
	if status == "" {
		status = cur.Status
		if status == Waitlisted {
			status = Going
		}
	}
	return e.Respond(actor, status, message, id, now)
}

// open refuses RSVPs to a cancelled or finished event.
func (e *Event) open(now time.Time) error {
	if e.Status == StatusCancelled {
		return kernel.Invalid("event_id", "not_cancelled", "the event is cancelled; it takes no RSVPs")
	}
	if e.Ended(now) {
		return kernel.Invalid("event_id", "not_ended", "the event is over; it takes no RSVPs")
	}
	return nil
}

package community

import (
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Create decides a new event: the details must be valid and the start must
// not be in the past.
func Create(id, tenant, creator string, d Details, now time.Time) (*EventCreated, error) {
	if tenant == "" {
		return nil, NoTenant()
	}
	if d.EventType == "" {
		d.EventType = DefaultEventType
	}
	d = d.normalize()
	if err := d.validate(); err != nil {
		return nil, err
	}
	if d.StartTime.Before(now.Truncate(time.Second)) {
		return nil, kernel.Invalid("start_time", "not_past", "start_time must not be in the past")
	}
	return &EventCreated{EventID: id, TenantID: tenant, CreatorID: creator, Details: d, At: stamp(now)}, nil
}

// NoTenant is the refusal of a caller that acts in no organization.
func NoTenant() error {
	return kernel.Invalid("tenant", "required", "the caller belongs to no organization (tenant); community events are scoped to one")
}

// Patch is a partial update: Fields names the fields the request set (by
// their JSON names), Details holds their new values. A named field with its
// zero value clears it (description, end_time, location, capacity,
// group_id, url).
type Patch struct {
	Fields map[string]bool
	Details
}

// Editable lists the fields a Patch may name.
var Editable = []string{"title", "description", "start_time", "end_time", "location", "event_type", "capacity", "group_id", "url", "waitlist"}

func (p Patch) apply(d Details) Details {
	n := p.Details
	set := p.Fields
	if set["title"] {
		d.Title = n.Title
	}
	if set["description"] {
		d.Description = n.Description
	}
	if set["start_time"] {
		d.StartTime = n.StartTime
	}
	if set["end_time"] {
		d.EndTime = n.EndTime
	}
	if set["location"] {
		d.Location = n.Location
	}
	if set["event_type"] {
		d.EventType = n.EventType // an explicit empty type is refused, not defaulted
	}
	if set["capacity"] {
		d.Capacity = n.Capacity
	}
	if set["group_id"] {
		d.GroupID = n.GroupID
	}
	if set["url"] {
		d.URL = n.URL
	}
	if set["waitlist"] {
		d.Waitlist = n.Waitlist
	}
	return d
}

// Update decides a partial update by actor: only the creator may update,
// a cancelled event cannot change, the capacity cannot drop below the
// people already going, and a new start must not be in the past. Raising
// the capacity (or making it unlimited) promotes waitlisted people in the
// same decision. No change gives no events.
func (e *Event) Update(actor string, p Patch, now time.Time) ([]kernel.Event, error) {
	if actor != e.CreatorID {
		return nil, kernel.Forbidden("only the event's creator may update it")
	}
	if e.Status == StatusCancelled {
		return nil, kernel.Invalid("status", "not_cancelled", "the event is cancelled; a cancelled event cannot be changed")
	}
	d := p.apply(e.Details).normalize()
	if err := d.validate(); err != nil {
		return nil, err
	}
	if !d.StartTime.Equal(e.StartTime) && d.StartTime.Before(now.Truncate(time.Second)) {
		return nil, kernel.Invalid("start_time", "not_past", "start_time must not be moved into the past")
	}
	going := e.counts[Going]
	if d.Capacity != nil && *d.Capacity < going {
		return nil, kernel.Invalid("capacity", "min_going",
			fmt.Sprintf("capacity %d is below the %d people already going", *d.Capacity, going))
	}
	if !d.Waitlist && len(e.waitlist) > 0 {
		return nil, kernel.Invalid("waitlist", "waitlist_empty",
			fmt.Sprintf("the waitlist cannot be turned off while %d people are on it", len(e.waitlist)))
	}
	changed := changedFields(e.Details, d)
	if len(changed) == 0 {
		return nil, nil
	}
	at := stamp(now)
	out := []kernel.Event{&EventUpdated{EventID: e.ID, Details: d, Changed: changed, Sequence: e.Sequence + 1, By: actor, At: at}}
	return append(out, e.promotions(placesLeft(d.Capacity, going), PromotedCapacityRaised, at)...), nil
}

// Cancel decides a cancellation by actor (the creator only). Cancelling a
// cancelled event changes nothing.
func (e *Event) Cancel(actor string, now time.Time) ([]kernel.Event, error) {
	if actor != e.CreatorID {
		return nil, kernel.Forbidden("only the event's creator may cancel it")
	}
	if e.Status == StatusCancelled {
		return nil, nil
	}
	return []kernel.Event{&EventCancelled{EventID: e.ID, Sequence: e.Sequence + 1, By: actor, At: stamp(now)}}, nil
}

func changedFields(a, b Details) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("title", a.Title != b.Title)
	add("description", a.Description != b.Description)
	add("start_time", !a.StartTime.Equal(b.StartTime))
	add("end_time", !sameTime(a.EndTime, b.EndTime))
	add("location", a.Location != b.Location)
	add("event_type", a.EventType != b.EventType)
	add("capacity", !sameInt(a.Capacity, b.Capacity))
	add("group_id", a.GroupID != b.GroupID)
	add("url", a.URL != b.URL)
	add("waitlist", a.Waitlist != b.Waitlist)
	return out
}

func sameTime(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}

func sameInt(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// stamp is the recorded time of a decision: UTC, to the microsecond (what
// PostgreSQL keeps), so a read model shows exactly what the event says.
func stamp(now time.Time) time.Time { return now.UTC().Truncate(time.Microsecond) }

package community_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
)

// respond decides user's RSVP (new RSVPs get id "r-"+user), applies the
// events and returns them.
func respond(t *testing.T, e *community.Event, user, status string, msg *string) (community.RSVP, []kernel.Event) {
	t.Helper()
	r, evs, err := e.Respond(user, status, msg, "r-"+user, now)
	if err != nil {
		t.Fatalf("%s %s: %v", user, status, err)
	}
	apply(e, evs)
	return r, evs
}

// limited is an event of capacity n (with a waitlist or not).
func limited(t *testing.T, n int, waitlist bool) *community.Event {
	d := details()
	d.Capacity, d.Waitlist = ptr(n), waitlist
	return newEvent(t, d)
}

// promoted lists the users of the RSVPPromoted events in evs, checking
// their reason.
func promoted(t *testing.T, evs []kernel.Event, reason string) []string {
	t.Helper()
	var out []string
	for _, ev := range evs {
		if p, ok := ev.(*community.RSVPPromoted); ok {
			if p.Reason != reason || p.RSVPID != "r-"+p.UserID {
				t.Fatalf("promotion %+v, want reason %s", p, reason)
			}
			out = append(out, p.UserID)
		}
	}
	return out
}

func positions(e *community.Event, users ...string) []int {
	var out []int
	for _, u := range users {
		out = append(out, e.WaitlistPosition(u))
	}
	return out
}

func TestRespondCapacityWithoutWaitlist(t *testing.T) {
	e := limited(t, 1, false)
	respond(t, e, "a", community.Going, nil)
	_, _, err := e.Respond("b", community.Going, nil, "r-b", now)
	refused(t, err, "status", "capacity")
	respond(t, e, "b", community.Interested, nil)
	_, _, err = e.ChangeRSVP("r-b", "b", community.Going, nil, now)
	refused(t, err, "status", "capacity")
	// The one going may keep going (a message change is no new place).
	if _, evs := respond(t, e, "a", community.Going, ptr("see you")); len(evs) != 1 {
		t.Fatalf("message change of a going RSVP: %v", show(evs))
	}
	_, _, err = e.Respond("c", "", nil, "r-c", now)
	refused(t, err, "status", "required")
	_, _, err = e.Respond("c", community.Waitlisted, nil, "r-c", now)
	refused(t, err, "status", "enum")
	_, _, err = e.Respond("c", community.Interested, ptr(strings.Repeat("é", community.MaxResponseMessage+1)), "r-c", now)
	refused(t, err, "response_message", "max_length:1000")
}

func TestWaitlistAndPromotionOnLeave(t *testing.T) {
	e := limited(t, 2, true)
	respond(t, e, "a", community.Going, nil)
	respond(t, e, "b", community.Going, nil)
	for _, u := range []string{"c", "d", "e"} {
		r, evs := respond(t, e, u, community.Going, nil)
		if r.Status != community.Waitlisted || evs[0].(*community.RSVPChanged).Status != community.Waitlisted {
			t.Fatalf("%s at capacity: %+v %v", u, r, show(evs))
		}
	}
	if got := positions(e, "a", "c", "d", "e"); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("positions = %v", got)
	}
	// Asking going again while waitlisted changes nothing.
	if r, evs, err := e.Respond("d", community.Going, nil, "x", now); err != nil || evs != nil || r.Status != community.Waitlisted || r.ID != "r-d" {
		t.Fatalf("waitlisted asks going again: %+v %v %v", r, show(evs), err)
	}
	// a stops going: c takes the place in the same decision.
	_, evs := respond(t, e, "a", community.NotGoing, nil)
	ch := evs[0].(*community.RSVPChanged)
	if ch.Previous != community.Going || ch.Status != community.NotGoing || len(evs) != 2 {
		t.Fatalf("leave: %v", show(evs))
	}
	if got := promoted(t, evs, community.PromotedPlaceFreed); !slices.Equal(got, []string{"c"}) {
		t.Fatalf("promoted %v, want [c]", got)
	}
	if r, _ := e.RSVPOf("c"); r.Status != community.Going || e.Count(community.Going) != 2 || e.Count(community.Waitlisted) != 2 {
		t.Fatalf("after promotion: c %+v, going %d waitlisted %d", r, e.Count(community.Going), e.Count(community.Waitlisted))
	}
	// Going -> interested frees a place too.
	_, evs = respond(t, e, "b", community.Interested, nil)
	if got := promoted(t, evs, community.PromotedPlaceFreed); !slices.Equal(got, []string{"d"}) {
		t.Fatalf("promoted %v, want [d]", got)
	}
	// A waitlisted person who becomes interested leaves the queue; nobody is promoted.
	respond(t, e, "f", community.Going, nil)
	_, evs = respond(t, e, "e", community.Interested, nil)
	if len(evs) != 1 || e.Count(community.Going) != 2 {
		t.Fatalf("waitlisted -> interested: %v, going %d", show(evs), e.Count(community.Going))
	}
	if got := positions(e, "e", "f"); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("positions = %v, want [0 1]", got)
	}
}

func TestRespondMessages(t *testing.T) {
	e := newEvent(t, details())
	r, _ := respond(t, e, "a", community.Interested, ptr("  maybe  "))
	if r.ResponseMessage != "maybe" {
		t.Fatalf("message %q, want trimmed", r.ResponseMessage)
	}
	r, evs := respond(t, e, "a", community.Going, nil)
	if len(evs) != 1 || r.ResponseMessage != "maybe" || evs[0].(*community.RSVPChanged).ResponseMessage != "maybe" {
		t.Fatalf("nil message must keep it: %+v %v", r, show(evs))
	}
	if _, evs := respond(t, e, "a", community.Going, ptr("maybe ")); evs != nil {
		t.Fatalf("same status and message: %v", show(evs))
	}
	if r, evs := respond(t, e, "a", community.Going, ptr("")); len(evs) != 1 || r.ResponseMessage != "" {
		t.Fatalf("empty message clears it: %+v %v", r, show(evs))
	}
}

func TestRespondClosedEvents(t *testing.T) {
	d := details()
	d.EndTime = ptr(d.StartTime.Add(time.Hour))
	e := newEvent(t, d)
	if _, _, err := e.Respond("a", community.Going, nil, "r", *d.EndTime); err != nil {
		t.Fatalf("at the end instant: %v", err)
	}
	_, _, err := e.Respond("a", community.Going, nil, "r", d.EndTime.Add(time.Second))
	refused(t, err, "event_id", "not_ended")
	e = newEvent(t, details()) // no end: over after the start
	_, _, err = e.Respond("a", community.Going, nil, "r", e.StartTime.Add(time.Nanosecond))
	refused(t, err, "event_id", "not_ended")
}

func TestChangeRSVP(t *testing.T) {
	e := limited(t, 1, true)
	respond(t, e, "a", community.Going, ptr("hi"))
	respond(t, e, "b", community.Going, nil)
	_, _, err := e.ChangeRSVP("r-a", "b", community.NotGoing, nil, now)
	kind(t, err, kernel.KindForbidden)
	_, _, err = e.ChangeRSVP("nope", "a", community.NotGoing, nil, now)
	kind(t, err, kernel.KindNotFound)
	// Status "" keeps the asked-for status: going stays going, waitlisted
	// stays waitlisted (it asked for going).
	r, evs, err := e.ChangeRSVP("r-a", "a", "", ptr("hello"), now)
	if err != nil || len(evs) != 1 || r.Status != community.Going || r.ResponseMessage != "hello" || r.ID != "r-a" {
		t.Fatalf("keep going: %+v %v %v", r, show(evs), err)
	}
	apply(e, evs)
	if r, evs, err := e.ChangeRSVP("r-b", "b", "", nil, now); err != nil || evs != nil || r.Status != community.Waitlisted {
		t.Fatalf("keep waitlisted: %+v %v %v", r, show(evs), err)
	}
	r, evs, err = e.ChangeRSVP("r-a", "a", community.Interested, nil, now)
	if err != nil || r.Status != community.Interested || r.ResponseMessage != "hello" ||
		!slices.Equal(promoted(t, evs, community.PromotedPlaceFreed), []string{"b"}) {
		t.Fatalf("change to interested: %+v %v %v", r, show(evs), err)
	}
}

func TestUpdateCapacityAndWaitlist(t *testing.T) {
	e := limited(t, 2, true)
	for _, u := range []string{"a", "b", "c", "d", "e", "f"} {
		respond(t, e, u, community.Going, nil)
	}
	low := patch("capacity")
	low.Capacity = ptr(1)
	_, err := e.Update("creator", low, now)
	refused(t, err, "capacity", "min_going")
	off := patch("waitlist")
	_, err = e.Update("creator", off, now)
	refused(t, err, "waitlist", "waitlist_empty")
	// Raising the capacity by 2 promotes the first two waitlisted, in order.
	up := patch("capacity")
	up.Capacity = ptr(4)
	evs, err := e.Update("creator", up, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := evs[0].(*community.EventUpdated); !ok {
		t.Fatalf("first event %T, want EventUpdated", evs[0])
	}
	if got := promoted(t, evs, community.PromotedCapacityRaised); !slices.Equal(got, []string{"c", "d"}) {
		t.Fatalf("promoted %v, want [c d]", got)
	}
	apply(e, evs)
	if got := positions(e, "c", "e", "f"); !slices.Equal(got, []int{0, 1, 2}) || e.Count(community.Going) != 4 {
		t.Fatalf("positions %v, going %d", got, e.Count(community.Going))
	}
	// Unlimited capacity promotes everyone left.
	unlimited := patch("capacity")
	evs, err = e.Update("creator", unlimited, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := promoted(t, evs, community.PromotedCapacityRaised); !slices.Equal(got, []string{"e", "f"}) {
		t.Fatalf("promoted %v, want [e f]", got)
	}
	apply(e, evs)
	if e.Capacity != nil || e.Count(community.Going) != 6 || e.Count(community.Waitlisted) != 0 {
		t.Fatalf("after unlimited: capacity %v going %d waitlisted %d", e.Capacity, e.Count(community.Going), e.Count(community.Waitlisted))
	}
	// With the queue empty the waitlist may be turned off; equal capacity is fine.
	off.Capacity = ptr(6)
	off.Fields["capacity"] = true
	if evs, err = e.Update("creator", off, now); err != nil || len(evs) != 1 {
		t.Fatalf("waitlist off, capacity = going: %v %v", show(evs), err)
	}
}

// A waitlisted person who edits their message still asked for going at the
// same moment: they keep their place in the queue (first come, first served).
func TestWaitlistedMessageEditKeepsPlace(t *testing.T) {
	e := limited(t, 1, true)
	for _, u := range []string{"a", "b", "c"} {
		respond(t, e, u, community.Going, nil)
	}
	_, evs := respond(t, e, "b", community.Going, ptr("please let me in"))
	if len(evs) != 1 {
		t.Fatalf("message edit: %v", show(evs))
	}
	if got := positions(e, "b", "c"); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("positions of b, c after b's message edit = %v, want [1 2]", got)
	}
	_, evs = respond(t, e, "a", community.NotGoing, nil)
	if got := promoted(t, evs, community.PromotedPlaceFreed); !slices.Equal(got, []string{"b"}) {
		t.Errorf("promoted %v, want [b] (first in the queue)", got)
	}
}

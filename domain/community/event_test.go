package community_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
)

// now is the decisions' clock; it has sub-second parts on purpose.
var now = time.Date(2030, 5, 1, 12, 0, 0, 500_600_700, time.UTC)

func ptr[T any](v T) *T { return &v }

func details() community.Details {
	return community.Details{Title: "Meetup", StartTime: now.Add(48 * time.Hour).Truncate(time.Second)}
}

// refused checks err is a kernel invalid error naming field and rule.
func refused(t *testing.T, err error, field, rule string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != field || ke.Rule != rule {
		t.Fatalf("err = %v, want invalid %s/%s", err, field, rule)
	}
}

func kind(t *testing.T, err error, want kernel.Kind) {
	t.Helper()
	if got := kernel.KindOf(err); err == nil || got != want {
		t.Fatalf("err = %v (kind %v), want kind %v", err, got, want)
	}
}

// show renders events for failure messages.
func show(evs []kernel.Event) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = fmt.Sprintf("%+v", ev)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// apply folds decided events the way the command service does.
func apply(e *community.Event, evs []kernel.Event) {
	for _, ev := range evs {
		e.Apply(ev)
		e.Version++
	}
}

// newEvent creates an event by "creator" with d.
func newEvent(t *testing.T, d community.Details) *community.Event {
	t.Helper()
	ev, err := community.Create("ev-1", "tenant", "creator", d, now)
	if err != nil {
		t.Fatal(err)
	}
	return community.Replay([]kernel.Event{ev})
}

func TestCreateRefusesPastStartAndBadEnd(t *testing.T) {
	d := details()
	d.StartTime = now.Add(-time.Second)
	_, err := community.Create("e", "tenant", "u", d, now)
	refused(t, err, "start_time", "not_past")
	// The start may be in the current second: now is compared at whole seconds.
	d.StartTime = now.Truncate(time.Second)
	if _, err := community.Create("e", "tenant", "u", d, now); err != nil {
		t.Fatalf("start in the current second: %v", err)
	}
	d = details()
	d.EndTime = ptr(d.StartTime)
	_, err = community.Create("e", "tenant", "u", d, now)
	refused(t, err, "end_time", "after_start")
	d.EndTime = ptr(d.StartTime.Add(-time.Hour))
	_, err = community.Create("e", "tenant", "u", d, now)
	refused(t, err, "end_time", "after_start")
	// Sub-second ends are truncated first: start+0.9s is not after start.
	d.EndTime = ptr(d.StartTime.Add(900 * time.Millisecond))
	_, err = community.Create("e", "tenant", "u", d, now)
	refused(t, err, "end_time", "after_start")
	_, err = community.Create("e", "", "u", details(), now)
	refused(t, err, "tenant", "required")
}

func TestCreateNormalizes(t *testing.T) {
	zone := time.FixedZone("UTC+2", 2*3600)
	start := now.Add(72 * time.Hour).In(zone).Add(123 * time.Millisecond)
	end := start.Add(2*time.Hour + 999*time.Millisecond)
	d := community.Details{Title: "  Go meetup \n", Description: "\tabout Go ", Location: " Berlin ",
		GroupID: " g1 ", URL: "  https://example.org/e  ", StartTime: start, EndTime: &end}
	ev, err := community.Create("e", "tenant", "u", d, now)
	if err != nil {
		t.Fatal(err)
	}
	got := ev.Details
	if got.Title != "Go meetup" || got.Description != "about Go" || got.Location != "Berlin" || got.GroupID != "g1" ||
		got.URL != "https://example.org/e" {
		t.Fatalf("text not trimmed: %+v", got)
	}
	if got.EventType != "virtual" {
		t.Fatalf("event_type = %q, want virtual", got.EventType)
	}
	wantStart := start.UTC().Truncate(time.Second)
	if !got.StartTime.Equal(wantStart) || got.StartTime.Nanosecond() != 0 || got.StartTime.Location() != time.UTC {
		t.Fatalf("start_time = %v, want %v in UTC", got.StartTime, wantStart)
	}
	if got.EndTime == nil || !got.EndTime.Equal(end.Truncate(time.Second)) || got.EndTime.Location() != time.UTC {
		t.Fatalf("end_time = %v, want %v in UTC", got.EndTime, end.Truncate(time.Second))
	}
	if !ev.At.Equal(now.Truncate(time.Microsecond)) || ev.At.Location() != time.UTC {
		t.Fatalf("at = %v, want now to the microsecond", ev.At)
	}
	d.EventType = "hybrid"
	if ev, err := community.Create("e", "tenant", "u", d, now); err != nil || ev.Details.EventType != "hybrid" {
		t.Fatalf("explicit type: %v %v", ev, err)
	}
	d.EventType = "party"
	_, err = community.Create("e", "tenant", "u", d, now)
	refused(t, err, "event_type", "enum")
	d.EventType, d.Title = "", " \t "
	_, err = community.Create("e", "tenant", "u", d, now)
	refused(t, err, "title", "required")
}

func TestCreateCapacityAndURL(t *testing.T) {
	for _, c := range []struct {
		capacity *int
		ok       bool
	}{{nil, true}, {ptr(1), true}, {ptr(community.MaxCapacity), true}, {ptr(0), false}, {ptr(-1), false},
		{ptr(community.MaxCapacity + 1), false}} {
		d := details()
		d.Capacity = c.capacity
		_, err := community.Create("e", "tenant", "u", d, now)
		if c.ok && err != nil {
			t.Fatalf("capacity %v: %v", c.capacity, err)
		}
		if !c.ok {
			refused(t, err, "capacity", "range")
		}
	}
	for url, ok := range map[string]bool{"https://example.org/x?y=1": true, "http://a.b": true, "  http://a.b  ": true,
		"ftp://example.org": false, "example.org": false, "https://": false, "mailto:a@b.c": false, "/relative": false} {
		d := details()
		d.URL = url
		_, err := community.Create("e", "tenant", "u", d, now)
		if ok && err != nil {
			t.Fatalf("url %q: %v", url, err)
		}
		if !ok {
			refused(t, err, "url", "url")
		}
	}
}

func patch(fields ...string) community.Patch {
	p := community.Patch{Fields: map[string]bool{}}
	for _, f := range fields {
		p.Fields[f] = true
	}
	return p
}

func TestUpdateRules(t *testing.T) {
	e := newEvent(t, details())
	p := patch("title")
	p.Title = "New"
	_, err := e.Update("someone else", p, now)
	kind(t, err, kernel.KindForbidden)
	// No change (after trimming) and no named field give no events.
	same := patch("title", "capacity")
	same.Title = "  Meetup "
	if evs, err := e.Update("creator", same, now); err != nil || evs != nil {
		t.Fatalf("no-op update: %v %v", show(evs), err)
	}
	if evs, err := e.Update("creator", patch(), now); err != nil || evs != nil {
		t.Fatalf("empty patch: %v %v", show(evs), err)
	}
	past := patch("start_time")
	past.StartTime = now.Add(-time.Minute)
	_, err = e.Update("creator", past, now)
	refused(t, err, "start_time", "not_past")
	bad := patch("capacity")
	bad.Capacity = ptr(0)
	_, err = e.Update("creator", bad, now)
	refused(t, err, "capacity", "range")
	// Sequence counts updates and the cancellation; Changed names the fields.
	for i, title := range []string{"One", "Two"} {
		p := patch("title", "capacity", "location")
		p.Title, p.Capacity = title, ptr(10+i)
		evs, err := e.Update("creator", p, now)
		if err != nil || len(evs) != 1 {
			t.Fatalf("update %d: %v %v", i, show(evs), err)
		}
		u := evs[0].(*community.EventUpdated)
		if u.Sequence != i+1 || u.By != "creator" || u.Details.Title != title {
			t.Fatalf("update %d: %+v", i, u)
		}
		// location is named but unchanged, so it is not listed.
		if !slices.Equal(u.Changed, []string{"title", "capacity"}) {
			t.Fatalf("changed = %v, want [title capacity]", u.Changed)
		}
		apply(e, evs)
		if e.Sequence != i+1 || e.Title != title || *e.Capacity != 10+i {
			t.Fatalf("fold after update %d: %+v", i, e)
		}
	}
	cancelled(t, e)
	_, err = e.Update("creator", p, now)
	refused(t, err, "status", "not_cancelled")
}

func cancelled(t *testing.T, e *community.Event) {
	t.Helper()
	_, err := e.Cancel("someone else", now)
	kind(t, err, kernel.KindForbidden)
	evs, err := e.Cancel("creator", now)
	if err != nil || len(evs) != 1 {
		t.Fatalf("cancel: %v %v", show(evs), err)
	}
	seq := e.Sequence
	if c := evs[0].(*community.EventCancelled); c.Sequence != seq+1 || c.By != "creator" {
		t.Fatalf("cancelled: %+v", c)
	}
	apply(e, evs)
	if e.Status != community.StatusCancelled || e.Sequence != seq+1 {
		t.Fatalf("fold after cancel: %s %d", e.Status, e.Sequence)
	}
	if evs, err := e.Cancel("creator", now); err != nil || evs != nil {
		t.Fatalf("second cancel: %v %v", show(evs), err)
	}
	_, _, err = e.Respond("u", community.Going, nil, "r", now)
	refused(t, err, "event_id", "not_cancelled")
}

func TestCancel(t *testing.T) { cancelled(t, newEvent(t, details())) }

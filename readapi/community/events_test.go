package community_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCreateGetAndFields(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"title": "  Go night  ", "description": "Talks", "end_time": w.at(26 * time.Hour),
		"location": "Lisbon", "event_type": "hybrid", "capacity": 30, "group_id": "g-1", "url": "https://example.com/go"})
	if ev["title"] != "Go night" || ev["status"] != "scheduled" || ev["creator_id"] != ada.ID || ev["tenant_id"] != ada.Org ||
		ev["event_type"] != "hybrid" || ev["capacity"] != float64(30) || ev["group_id"] != "g-1" || ev["attendee_count"] != float64(0) {
		t.Fatalf("created event: %v", ev)
	}
	if ev["start_time"] != w.at(24*time.Hour) || !strings.HasSuffix(ev["created_at"].(string), "Z") {
		t.Fatalf("times must be UTC ISO 8601: %v %v", ev["start_time"], ev["created_at"])
	}
	got := w.must(ada, http.StatusOK, "GET", base+"/"+ev["id"].(string), nil)
	if got["title"] != "Go night" || got["description"] != "Talks" || got["spots_left"] != float64(30) {
		t.Fatalf("get: %v", got)
	}
	// Defaults: event_type virtual, capacity null (unlimited), no end.
	plain := w.event(ada, nil)
	if plain["event_type"] != "virtual" || plain["capacity"] != nil || plain["end_time"] != nil || plain["description"] != nil {
		t.Fatalf("defaults: %v", plain)
	}
	// A start with an offset is stored in UTC.
	off := w.event(ada, map[string]any{"start_time": w.api.Clock.Now().Add(48 * time.Hour).In(time.FixedZone("X", 2*3600)).Format(time.RFC3339)})
	if off["start_time"] != w.at(48*time.Hour) {
		t.Fatalf("offset start: %v, want %s", off["start_time"], w.at(48*time.Hour))
	}
}

func TestCreateRefusals(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	post := func(body map[string]any) reply { return w.do(ada, "POST", base, body) }
	start := w.at(time.Hour)
	w.refused(post(map[string]any{"start_time": start}), 400, "title", "required")
	w.refused(post(map[string]any{"title": "  ", "start_time": start}), 400, "title", "required")
	w.refused(post(map[string]any{"title": "x"}), 400, "start_time", "required")
	w.refused(post(map[string]any{"title": "x", "start_time": "tomorrow"}), 400, "start_time", "datetime")
	// A local time names no instant: refused, not read as UTC.
	w.refused(post(map[string]any{"title": "x", "start_time": strings.TrimSuffix(start, "Z")}), 400, "start_time", "datetime_offset")
	w.refused(post(map[string]any{"title": "x", "start_time": "9999-01-01T00:00:00Z"}), 400, "start_time", "year_range:2000-2100")
	w.refused(post(map[string]any{"title": "x", "start_time": "0000-01-01T00:00:00Z"}), 400, "start_time", "year_range:2000-2100")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "end_time": "9999-12-31T00:00:00Z"}), 400, "end_time", "year_range:2000-2100")
	w.refused(post(map[string]any{"title": "x", "start_time": w.at(-time.Minute)}), 400, "start_time", "not_past")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "end_time": w.at(30 * time.Minute)}), 400, "end_time", "after_start")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "event_type": "party"}), 400, "event_type", "enum")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "capacity": 0}), 400, "capacity", "range")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "capacity": 2.5}), 400, "capacity", "type:integer")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "url": "ftp://x"}), 400, "url", "url")
	w.refused(post(map[string]any{"title": strings.Repeat("é", 201), "start_time": start}), 400, "title", "max_length:200")
	w.refused(post(map[string]any{"title": "x", "start_time": start, "colour": "red"}), 400, "colour", "unknown_field")
	if r := w.do(nil, "POST", base, map[string]any{"title": "x", "start_time": start}); r.status != 401 {
		t.Fatalf("anonymous create: %d", r.status)
	}
	// Nothing was half-written.
	if l := w.must(ada, 200, "GET", base, nil); l["total"] != float64(0) {
		t.Fatalf("refused creates left events: %v", l)
	}
}

func TestPatchCreatorOnlyAndRules(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	ev := w.event(ada, map[string]any{"capacity": 3, "description": "d", "location": "here"})
	path := base + "/" + ev["id"].(string)

	w.refused(w.do(bob, "PATCH", path, map[string]any{"title": "mine"}), 403, "", "")
	got := w.must(ada, 200, "PATCH", path, map[string]any{"title": "Renamed", "description": nil, "capacity": nil})
	if got["title"] != "Renamed" || got["description"] != nil || got["capacity"] != nil || got["location"] != "here" || got["sequence"] != float64(1) {
		t.Fatalf("partial patch: %v", got)
	}
	// No change, no new revision.
	if again := w.must(ada, 200, "PATCH", path, map[string]any{"title": "Renamed"}); again["sequence"] != float64(1) {
		t.Fatalf("a no-op patch raised the sequence: %v", again)
	}
	w.refused(w.do(ada, "PATCH", path, map[string]any{"end_time": w.at(time.Hour)}), 400, "end_time", "after_start")
	w.refused(w.do(ada, "PATCH", path, map[string]any{"start_time": w.at(-time.Hour)}), 400, "start_time", "not_past")
	w.refused(w.do(ada, "PATCH", path, map[string]any{"event_type": nil}), 400, "event_type", "enum")

	// Capacity below the people already going.
	w.must(ada, 200, "PATCH", path, map[string]any{"capacity": 5})
	for _, u := range []*user{bob, w.member(ada, "Cy"), w.member(ada, "Di")} {
		w.must(u, 201, "POST", path+"/rsvp", map[string]any{"status": "going"})
	}
	w.refused(w.do(ada, "PATCH", path, map[string]any{"capacity": 2}), 400, "capacity", "min_going")
	w.must(ada, 200, "PATCH", path, map[string]any{"capacity": 3})

	// DELETE: creator only, 204, the event stays as cancelled; then it is frozen.
	w.refused(w.do(bob, "DELETE", path, nil), 403, "", "")
	if r := w.do(ada, "DELETE", path, nil); r.status != 204 || len(r.raw) != 0 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	got = w.must(bob, 200, "GET", path, nil)
	if got["status"] != "cancelled" || got["sequence"] != float64(4) {
		t.Fatalf("cancelled event: %v", got)
	}
	w.refused(w.do(ada, "PATCH", path, map[string]any{"title": "back"}), 400, "status", "not_cancelled")
	w.refused(w.do(bob, "POST", path+"/rsvp", map[string]any{"status": "not_going"}), 400, "event_id", "not_cancelled")
	if r := w.do(ada, "DELETE", path, nil); r.status != 204 {
		t.Fatalf("cancelling twice: %d", r.status)
	}
}

func TestTenantIsolationOnEveryRoute(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	eve := w.register("Eve") // another organization
	ev := w.event(ada, nil)
	id := ev["id"].(string)
	rsvp := w.must(ada, 201, "POST", base+"/"+id+"/rsvp", map[string]any{"status": "going"})
	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", base + "/" + id, nil},
		{"PATCH", base + "/" + id, map[string]any{"title": "x"}},
		{"DELETE", base + "/" + id, nil},
		{"POST", base + "/" + id + "/rsvp", map[string]any{"status": "going"}},
		{"GET", base + "/" + id + "/attendees", nil},
		{"GET", base + "/" + id + "/rsvps", nil},
		{"GET", base + "/" + id + "/export/ical", nil},
		{"PATCH", base + "/rsvps/" + rsvp["id"].(string), map[string]any{"status": "interested"}},
		{"GET", base + "/rsvps/" + rsvp["id"].(string) + "/history", nil},
	}
	for _, rt := range routes {
		if r := w.do(eve, rt.method, rt.path, rt.body); r.status != 404 {
			t.Errorf("%s %s from another tenant: %d %s", rt.method, rt.path, r.status, r.raw)
		}
	}
	for _, p := range []string{base, base + "/browse", base + "/my-events"} {
		if l := w.must(eve, 200, "GET", p, nil); l["total"] != float64(0) {
			t.Errorf("%s shows another tenant's events: %v", p, l)
		}
	}
	if got := w.must(ada, 200, "GET", base+"/"+id, nil); got["status"] != "scheduled" || got["attendee_count"] != float64(1) {
		t.Fatalf("the other tenant changed the event: %v", got)
	}
	// Unknown and malformed ids are 404 too.
	for _, p := range []string{base + "/00000000-0000-7000-8000-000000000000", base + "/not-a-uuid"} {
		if r := w.do(ada, "GET", p, nil); r.status != 404 {
			t.Errorf("GET %s: %d", p, r.status)
		}
	}
}

func TestAPIKeyAuthentication(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	key := ada.withKey()
	ev := w.event(key, map[string]any{"title": "By key"})
	if ev["creator_id"] != ada.ID || ev["tenant_id"] != ada.Org {
		t.Fatalf("event created with an API key: %v", ev)
	}
	w.must(ada, 200, "PATCH", base+"/"+ev["id"].(string), map[string]any{"title": "By JWT"})
}

func TestListFiltersAndPaging(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	for i := 1; i <= 5; i++ {
		w.event(ada, map[string]any{"title": "A" + string(rune('0'+i)), "start_time": w.at(time.Duration(i) * time.Hour), "group_id": "g"})
	}
	soon := w.event(bob, map[string]any{"title": "B", "start_time": w.at(30 * time.Minute)})
	l := w.must(bob, 200, "GET", base+"?limit=2&offset=1", nil)
	evs := l["events"].([]any)
	if l["total"] != float64(6) || l["limit"] != float64(2) || l["offset"] != float64(1) || l["has_more"] != true || len(evs) != 2 {
		t.Fatalf("page: %v", l)
	}
	if evs[0].(map[string]any)["title"] != "A1" {
		t.Fatalf("soonest first: %v", evs)
	}
	mine := w.must(bob, 200, "GET", base+"?filter_type=my_events", nil)
	if mine["total"] != float64(1) || mine["events"].([]any)[0].(map[string]any)["id"] != soon["id"] {
		t.Fatalf("my_events: %v", mine)
	}
	if g := w.must(bob, 200, "GET", base+"?group_id=g", nil); g["total"] != float64(5) {
		t.Fatalf("group filter: %v", g)
	}
	w.refused(w.do(bob, "GET", base+"?limit=0", nil), 400, "limit", "range:1-100")
	w.refused(w.do(bob, "GET", base+"?limit=101", nil), 400, "limit", "range:1-100")
	w.refused(w.do(bob, "GET", base+"?offset=-1", nil), 400, "offset", "min:0")
	if r := w.do(bob, "GET", base+"?offset=99999999999", nil); r.status != 400 || r.body["rule"] != "max:1000000" ||
		!strings.Contains(fmt.Sprint(r.body["detail"]), "to 1000000") {
		t.Fatalf("a huge offset must name the maximum: %d %s", r.status, r.raw)
	}
	w.refused(w.do(bob, "GET", base+"?filter_type=soon", nil), 400, "filter_type", "enum")
	if d := w.must(bob, 200, "GET", base, nil); d["limit"] != float64(50) {
		t.Fatalf("default limit: %v", d["limit"])
	}
}

func TestUpcomingAndPastAtTheBoundary(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"start_time": w.at(time.Hour)})
	count := func(q string) float64 { return w.must(ada, 200, "GET", base+q, nil)["total"].(float64) }
	w.api.Clock.Advance(time.Hour) // now == start_time: still upcoming
	if count("?filter_type=upcoming") != 1 || count("?filter_type=past") != 0 || count("/browse") != 1 {
		t.Fatal("an event starting exactly now must be upcoming and browsable")
	}
	w.api.Clock.Advance(time.Second)
	if count("?filter_type=upcoming") != 0 || count("?filter_type=past") != 1 || count("/browse") != 0 {
		t.Fatal("an event that started a second ago is past")
	}
	// RSVPs close when the event is over (end unknown: at its start).
	w.refused(w.do(ada, "POST", base+"/"+ev["id"].(string)+"/rsvp", map[string]any{"status": "going"}), 400, "event_id", "not_ended")
}

// TestTotalsFromDayCounts checks the totals of full pages (counted from the
// per-day counts plus the rows of the days the bounds cut) against the
// number of events a page large enough for all of them returns, for every
// filter, across days, a cancellation, a moved start and a changed type.
func TestTotalsFromDayCounts(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	types := []string{"virtual", "in_person", "hybrid"}
	var ids []string
	for i, h := range []int{1, 2, 5, 23, 25, 30, 47, 49, 70, 100, 170, 300} {
		ev := w.event(ada, map[string]any{"start_time": w.at(time.Duration(h) * time.Hour), "event_type": types[i%3]})
		ids = append(ids, ev["id"].(string))
	}
	w.must(ada, 204, "DELETE", base+"/"+ids[3], nil)
	w.must(ada, 200, "PATCH", base+"/"+ids[4], map[string]any{"start_time": w.at(400 * time.Hour), "event_type": "hybrid"})
	w.must(ada, 204, "DELETE", base+"/"+ids[4], nil)
	w.must(ada, 200, "PATCH", base+"/"+ids[5], map[string]any{"start_time": w.at(3 * time.Hour)})
	key := ada.withKey() // the clock moves days: past a session token's life
	check := func(q string) {
		t.Helper()
		all := w.must(key, 200, "GET", strings.Replace(base+q, "?x=1", "?", 1)+"&limit=100", nil)
		one := w.must(key, 200, "GET", strings.Replace(base+q, "?x=1", "?", 1)+"&limit=1", nil)
		if n := float64(len(all["events"].([]any))); all["total"] != n || one["total"] != n {
			t.Errorf("%s: total %v with a full page, %v with every row, %v rows", q, one["total"], all["total"], n)
		}
	}
	for step := 0; step < 4; step++ {
		for _, q := range []string{"?x=1", "?filter_type=upcoming", "?filter_type=past", "/browse?x=1",
			"/browse?event_type=hybrid", "/browse?event_type=virtual", "/browse?sort_by=attendee_count"} {
			check(q)
		}
		w.api.Clock.Advance(37 * time.Hour) // events move from upcoming to past, across day boundaries
	}
}

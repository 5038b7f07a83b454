package community_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/community"
)

func TestRSVPCreateUpdateAndOwnerOnly(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	ev := w.event(ada, nil)
	path := base + "/" + ev["id"].(string)

	r := w.must(bob, 201, "POST", path+"/rsvp", map[string]any{"status": "interested", "response_message": "maybe"})
	if r["status"] != "interested" || r["response_message"] != "maybe" || r["user_id"] != bob.ID || r["event_id"] != ev["id"] {
		t.Fatalf("rsvp: %v", r)
	}
	// POST again updates the same RSVP (201 as the seed says), keeping the message.
	again := w.must(bob, 201, "POST", path+"/rsvp", map[string]any{"status": "going"})
	if again["id"] != r["id"] || again["status"] != "going" || again["response_message"] != "maybe" {
		t.Fatalf("second POST must update the RSVP: %v", again)
	}
	w.refused(w.do(bob, "POST", path+"/rsvp", map[string]any{"status": "yes"}), 400, "status", "enum")
	w.refused(w.do(bob, "POST", path+"/rsvp", map[string]any{}), 400, "status", "required")

	rp := base + "/rsvps/" + r["id"].(string)
	w.refused(w.do(ada, "PATCH", rp, map[string]any{"status": "not_going"}), 403, "", "")
	p := w.must(bob, 200, "PATCH", rp, map[string]any{"status": "not_going"})
	if p["status"] != "not_going" || p["id"] != r["id"] {
		t.Fatalf("patch: %v", p)
	}
	w.refused(w.do(bob, "PATCH", rp, map[string]any{}), 400, "status", "required")
	w.refused(w.do(bob, "PATCH", base+"/rsvps/00000000-0000-7000-8000-000000000000", map[string]any{"status": "going"}), 404, "", "")

	att := w.must(ada, 200, "GET", path+"/attendees", nil)
	if att["total"] != float64(1) || att["going_count"] != float64(0) || att["not_going_count"] != float64(1) {
		t.Fatalf("attendees: %v", att)
	}
	a := att["attendees"].([]any)[0].(map[string]any)
	if a["user_id"] != bob.ID || a["rsvp_id"] != r["id"] || a["status"] != "not_going" || a["response_message"] != "maybe" || a["rsvp_created_at"] != r["created_at"] {
		t.Fatalf("attendee shape: %v", a)
	}
	// The whole history is kept.
	h := w.must(bob, 200, "GET", rp+"/history", nil)
	ch := h["changes"].([]any)
	if len(ch) != 3 || ch[0].(map[string]any)["status"] != "interested" || ch[2].(map[string]any)["previous_status"] != "going" {
		t.Fatalf("history: %v", h)
	}
	w.must(ada, 200, "GET", rp+"/history", nil) // the event's creator may read it
	cy := w.member(ada, "Cy")
	w.refused(w.do(cy, "GET", rp+"/history", nil), 403, "", "")
}

// TestCapacityRace sends 200 concurrent going RSVPs from 200 users to an
// event with capacity 50: exactly 50 are going, 150 are refused, and a
// replay of the stream agrees with the read model.
func TestCapacityRace(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"capacity": 50})
	path := base + "/" + ev["id"].(string)
	users := make([]*user, 200)
	for i := range users {
		users[i] = w.member(ada, "U")
	}
	statuses := make([]int, len(users))
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = w.do(u, "POST", path+"/rsvp", map[string]any{"status": "going"}).status
		}()
	}
	wg.Wait()
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	if counts[201] != 50 || counts[400] != 150 || len(counts) != 2 {
		t.Fatalf("answers: %v, want 50 x 201 and 150 x 400", counts)
	}
	att := w.must(ada, 200, "GET", path+"/attendees?status_filter=going", nil)
	if att["going_count"] != float64(50) || att["total"] != float64(50) || len(att["attendees"].([]any)) != 50 {
		t.Fatalf("read model: going %v total %v", att["going_count"], att["total"])
	}
	replayed, err := w.svc.Replay(context.Background(), ada.Org, ev["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if replayed.Count(community.Going) != 50 || replayed.Version != 51 {
		t.Fatalf("replay: %d going at version %d", replayed.Count(community.Going), replayed.Version)
	}
}

// TestCapacityLoweredWhileRSVPsArrive races PATCH capacity against new
// going RSVPs: whatever the order, going never exceeds the capacity in
// force, and a refused lowering names the rule.
func TestCapacityLoweredWhileRSVPsArrive(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"capacity": 40})
	path := base + "/" + ev["id"].(string)
	users := make([]*user, 60)
	for i := range users {
		users[i] = w.member(ada, "U")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	lowered := map[int]int{}
	for i, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.do(u, "POST", path+"/rsvp", map[string]any{"status": "going"})
		}()
		if i%10 == 5 {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				r := w.do(ada, "PATCH", path, map[string]any{"capacity": c})
				mu.Lock()
				lowered[c] = r.status
				mu.Unlock()
				if r.status == 400 && (r.body["field"] != "capacity" || r.body["rule"] != "min_going") {
					t.Errorf("refused lowering: %s", r.raw)
				}
			}(35 - i/10)
		}
	}
	wg.Wait()
	got := w.must(ada, 200, "GET", path, nil)
	capacity, going := got["capacity"].(float64), got["going_count"].(float64)
	if going > capacity {
		t.Fatalf("going %v exceeds capacity %v (PATCH answers %v)", going, capacity, lowered)
	}
	replayed, err := w.svc.Replay(context.Background(), ada.Org, ev["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if float64(replayed.Count(community.Going)) != going || float64(*replayed.Capacity) != capacity {
		t.Fatalf("replay %d/%d, read model %v/%v", replayed.Count(community.Going), *replayed.Capacity, going, capacity)
	}
	if going != capacity && replayed.Count(community.Going) != 60 {
		// Someone was refused, so the event must have been full when refused.
		att := w.must(ada, 200, "GET", path+"/attendees", nil)
		if att["total"].(float64) != going {
			t.Fatalf("refused RSVPs left rows: %v", att["total"])
		}
	}
}

func TestWaitlistPromotesInOrder(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	ev := w.event(ada, map[string]any{"capacity": 2, "waitlist": true})
	path := base + "/" + ev["id"].(string)
	us := []*user{w.member(ada, "A"), w.member(ada, "B"), w.member(ada, "C"), w.member(ada, "D")}
	rs := make([]map[string]any, len(us))
	for i, u := range us {
		rs[i] = w.must(u, 201, "POST", path+"/rsvp", map[string]any{"status": "going"})
	}
	if rs[2]["status"] != "waitlisted" || rs[2]["waitlist_position"] != float64(1) || rs[3]["waitlist_position"] != float64(2) {
		t.Fatalf("at capacity with a waitlist: %v / %v", rs[2], rs[3])
	}
	// A going person leaves: the first waitlisted is promoted, by an event.
	w.must(us[0], 201, "POST", path+"/rsvp", map[string]any{"status": "not_going"})
	going := w.must(ada, 200, "GET", path+"/attendees?status_filter=going", nil)
	ids := map[any]bool{}
	for _, a := range going["attendees"].([]any) {
		ids[a.(map[string]any)["user_id"]] = true
	}
	if !ids[us[1].ID] || !ids[us[2].ID] || going["waitlisted_count"] != float64(1) {
		t.Fatalf("after a place freed: %v", going)
	}
	h := w.must(us[2], 200, "GET", base+"/rsvps/"+rs[2]["id"].(string)+"/history", nil)
	last := h["changes"].([]any)[1].(map[string]any)
	if last["status"] != "going" || last["promotion_reason"] != "place_freed" {
		t.Fatalf("promotion must be in the history: %v", h)
	}
	// Raising the capacity promotes the rest.
	w.must(ada, 200, "PATCH", path, map[string]any{"capacity": 10})
	if got := w.must(ada, 200, "GET", path, nil); got["going_count"] != float64(3) || got["waitlisted_count"] != float64(0) {
		t.Fatalf("after raising the capacity: %v", got)
	}
	// Without a waitlist a full event refuses.
	full := w.event(ada, map[string]any{"capacity": 1})
	w.must(us[0], 201, "POST", base+"/"+full["id"].(string)+"/rsvp", map[string]any{"status": "going"})
	w.refused(w.do(us[1], "POST", base+"/"+full["id"].(string)+"/rsvp", map[string]any{"status": "going"}), 400, "status", "capacity")
	// Interested is always allowed.
	w.must(us[1], 201, "POST", base+"/"+full["id"].(string)+"/rsvp", map[string]any{"status": "interested"})
}

func TestBrowseOrderingAndMyEvents(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	cy := w.member(ada, "Cy")
	a := w.event(ada, map[string]any{"title": "A", "start_time": w.at(1 * time.Hour), "event_type": "in_person"})
	b := w.event(ada, map[string]any{"title": "B", "start_time": w.at(2 * time.Hour)})
	c := w.event(ada, map[string]any{"title": "C", "start_time": w.at(3 * time.Hour)})
	gone := w.event(ada, map[string]any{"title": "X", "start_time": w.at(4 * time.Hour)})
	w.must(ada, 204, "DELETE", base+"/"+gone["id"].(string), nil)
	titles := func(q string) []string {
		var out []string
		for _, e := range w.must(bob, 200, "GET", base+"/browse"+q, nil)["events"].([]any) {
			out = append(out, e.(map[string]any)["title"].(string))
		}
		return out
	}
	eq := func(got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("got %v, want %v", got, want)
			}
		}
	}
	eq(titles(""), "A", "B", "C") // cancelled events are not browsable
	eq(titles("?sort_order=desc"), "C", "B", "A")
	rsvp := func(u *user, ev map[string]any, status string) map[string]any {
		return w.must(u, 201, "POST", base+"/"+ev["id"].(string)+"/rsvp", map[string]any{"status": status})
	}
	rsvp(bob, c, "going")
	rsvp(cy, c, "going")
	rb := rsvp(bob, b, "going")
	eq(titles("?sort_by=attendee_count&sort_order=desc"), "C", "B", "A")
	// Counts follow RSVP changes.
	w.must(bob, 200, "PATCH", base+"/rsvps/"+rb["id"].(string), map[string]any{"status": "not_going"})
	rsvp(ada, a, "going")
	rsvp(bob, a, "going")
	rsvp(cy, a, "going")
	eq(titles("?sort_by=attendee_count&sort_order=desc"), "A", "C", "B")
	eq(titles("?sort_by=attendee_count"), "B", "C", "A")
	eq(titles("?event_type=in_person"), "A")
	w.refused(w.do(bob, "GET", base+"/browse?sort_by=popularity", nil), 400, "sort_by", "enum")

	mine := w.must(bob, 200, "GET", base+"/my-events", nil)
	if mine["total"] != float64(3) || mine["limit"] != float64(20) {
		t.Fatalf("my-events: %v", mine)
	}
	first := mine["events"].([]any)[0].(map[string]any)
	if first["title"] != "A" || first["my_rsvp"].(map[string]any)["status"] != "going" {
		t.Fatalf("my-events first: %v", first)
	}
	if g := w.must(bob, 200, "GET", base+"/my-events?status_filter=going", nil); g["total"] != float64(2) {
		t.Fatalf("my-events going: %v", g)
	}
	w.api.Clock.Advance(150 * time.Minute) // A and B are past
	if u := w.must(bob, 200, "GET", base+"/my-events", nil); u["total"] != float64(1) {
		t.Fatalf("upcoming only: %v", u)
	}
	if all := w.must(bob, 200, "GET", base+"/my-events?upcoming_only=false", nil); all["total"] != float64(3) {
		t.Fatalf("all my events: %v", all)
	}
	if r := w.do(bob, "GET", base+"/my-events?upcoming_only=maybe", nil); r.status != http.StatusBadRequest {
		t.Fatalf("bad boolean: %d", r.status)
	}
	// The paged RSVP list.
	l := w.must(ada, 200, "GET", base+"/"+a["id"].(string)+"/rsvps?limit=2", nil)
	if l["total"] != float64(3) || l["has_more"] != true || len(l["attendees"].([]any)) != 2 || l["going_count"] != float64(3) {
		t.Fatalf("rsvps page: %v", l)
	}
}

package community_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
)

const (
	propSeeds = 200
	propSteps = 300
	propUsers = 20
)

var propStatuses = []string{community.Going, community.Going, community.Interested, community.NotGoing}

// TestRSVPDecisionsKeepInvariants runs random RSVPs, RSVP changes, capacity
// changes and waitlist toggles against one event, applying every accepted
// decision, and checks after each one that the capacity holds, that nobody
// waits while there is room, that the counts are the RSVPs' statuses, that
// refusals are justified, that promotions take the head of the queue, and
// that replaying the whole stream gives the same fold.
func TestRSVPDecisionsKeepInvariants(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(1); seed <= propSeeds; seed++ {
		if !t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { runProperty(t, seed, seen) }) {
			return // the first failing seed is enough
		}
	}
	// The random walk must reach every interesting case, or it proves little.
	t.Logf("decision kinds over %d seeds: %v", propSeeds, seen)
	for _, k := range []string{"capacity", "min_going", "waitlist_empty", "not_found", "forbidden", "no_events",
		community.Waitlisted, community.PromotedPlaceFreed, community.PromotedCapacityRaised} {
		if seen[k] < 50 {
			t.Errorf("only %d decisions of kind %s over %d seeds: %v", seen[k], k, propSeeds, seen)
		}
	}
}

func user(i int) string { return fmt.Sprintf("u%02d", i) }

// waitlist is the queue in order, read through WaitlistPosition.
func waitlist(e *community.Event) []string {
	q := make([]string, e.Count(community.Waitlisted))
	for i := range propUsers {
		if p := e.WaitlistPosition(user(i)); p > 0 && p <= len(q) {
			q[p-1] = user(i)
		}
	}
	return q
}

func runProperty(t *testing.T, seed uint64, seen map[string]int) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	d := details()
	if rng.IntN(3) > 0 {
		d.Capacity = ptr(1 + rng.IntN(6))
	}
	d.Waitlist = rng.IntN(2) == 0
	created, err := community.Create("ev", "tenant", "creator", d, now)
	if err != nil {
		t.Fatal(err)
	}
	log := []kernel.Event{created}
	e := community.Replay(log)
	messages := []*string{nil, nil, ptr(""), ptr("hi"), ptr(" see you ")}
	for step := range propSteps {
		at := now.Add(time.Duration(step) * time.Second)
		u := user(rng.IntN(propUsers))
		before, had := e.RSVPOf(u)
		queue := waitlist(e)
		going := e.Count(community.Going)
		var evs []kernel.Event
		var r community.RSVP
		var why string
		switch op := rng.IntN(10); {
		case op < 5:
			why = "respond"
			r, evs, err = e.Respond(u, propStatuses[rng.IntN(4)], messages[rng.IntN(5)], fmt.Sprint("r", step), at)
		case op < 7:
			why = "change"
			id, actor, status := before.ID, u, ""
			if !had {
				id = "missing"
			}
			if rng.IntN(6) == 0 {
				actor = user(rng.IntN(propUsers))
			}
			if rng.IntN(3) > 0 {
				status = propStatuses[rng.IntN(4)]
			}
			r, evs, err = e.ChangeRSVP(id, actor, status, messages[rng.IntN(5)], at)
			if err == nil {
				justified(t, had && actor == u, "change by %s of %s's RSVP %q accepted", actor, u, id)
			} else if k := kernel.KindOf(err); k == kernel.KindNotFound || k == kernel.KindForbidden {
				justified(t, (k == kernel.KindNotFound) == !had && (k == kernel.KindForbidden) == (had && actor != u),
					"change by %s of %s's RSVP %q: %v", actor, u, id, err)
				seen[map[kernel.Kind]string{kernel.KindNotFound: "not_found", kernel.KindForbidden: "forbidden"}[k]]++
				continue
			}
		case op < 9:
			why = "capacity"
			p := patch("capacity")
			if rng.IntN(4) > 0 {
				p.Capacity = ptr(1 + rng.IntN(12))
			}
			evs, err = e.Update("creator", p, at)
			if ke, ok := err.(*kernel.Error); ok && ke.Rule == "min_going" {
				justified(t, p.Capacity != nil && *p.Capacity < going, "min_going refused %+v with %d going", p.Details, going)
				seen["min_going"]++
				continue
			}
		default:
			why = "toggle waitlist"
			p := patch("waitlist")
			p.Waitlist = !e.Waitlist
			evs, err = e.Update("creator", p, at)
			if ke, ok := err.(*kernel.Error); ok && ke.Rule == "waitlist_empty" {
				justified(t, len(queue) > 0, "waitlist_empty refused with an empty queue")
				seen["waitlist_empty"]++
				continue
			}
		}
		if ke, ok := err.(*kernel.Error); ok && ke.Rule == "capacity" {
			justified(t, e.Capacity != nil && !e.Waitlist && going >= *e.Capacity && before.Status != community.Going,
				"capacity refusal of %s (%q) with %d going, capacity %s", u, before.Status, going, capacityOf(e))
			seen["capacity"]++
			continue
		}
		if err != nil {
			t.Fatalf("step %d %s: unexpected refusal %v", step, why, err)
		}
		if len(evs) == 0 {
			seen["no_events"]++
		}
		for _, ev := range evs {
			switch ev := ev.(type) {
			case *community.RSVPChanged:
				seen[ev.Status]++
			case *community.RSVPPromoted:
				seen[ev.Reason]++
			}
		}
		checkDecision(t, e, evs, queue, step)
		apply(e, evs)
		log = append(log, evs...)
		if why == "respond" || why == "change" {
			if got, _ := e.RSVPOf(u); got != r {
				t.Fatalf("step %d: decided RSVP %+v, folded %+v", step, r, got)
			}
		}
		checkFold(t, e, log, step)
	}
}

func capacityOf(e *community.Event) string {
	if e.Capacity == nil {
		return "unlimited"
	}
	return fmt.Sprint(*e.Capacity)
}

func justified(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Fatalf("unjustified decision: "+format, args...)
	}
}

// checkDecision checks decided events against the fold they were decided
// on: every change names the status it replaces, and promotions take the
// head of the queue in order.
func checkDecision(t *testing.T, e *community.Event, evs []kernel.Event, queue []string, step int) {
	t.Helper()
	var promotedUsers []string
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *community.RSVPChanged:
			prev, _ := e.RSVPOf(ev.UserID)
			if ev.Previous != prev.Status {
				t.Fatalf("step %d: change of %s says previous %q, fold has %q", step, ev.UserID, ev.Previous, prev.Status)
			}
		case *community.RSVPPromoted:
			promotedUsers = append(promotedUsers, ev.UserID)
		}
	}
	if len(promotedUsers) > len(queue) || !slices.Equal(promotedUsers, queue[:len(promotedUsers)]) {
		t.Fatalf("step %d: promoted %v, queue was %v", step, promotedUsers, queue)
	}
}

// checkFold checks the invariants of the fold and that Replay(log) gives
// the same fold.
func checkFold(t *testing.T, e *community.Event, log []kernel.Event, step int) {
	t.Helper()
	going, waiting := e.Count(community.Going), e.Count(community.Waitlisted)
	if e.Capacity != nil && going > *e.Capacity {
		t.Fatalf("step %d: %d going over capacity %d", step, going, *e.Capacity)
	}
	if (e.Capacity == nil || going < *e.Capacity) && waiting > 0 {
		t.Fatalf("step %d: %d waiting with %d going, capacity %s", step, waiting, going, capacityOf(e))
	}
	if waiting > 0 && !e.Waitlist {
		t.Fatalf("step %d: %d waiting on an event without a waitlist", step, waiting)
	}
	tally := map[string]int{}
	for i := range propUsers {
		r, ok := e.RSVPOf(user(i))
		if ok {
			tally[r.Status]++
			if byID, _ := e.RSVPByID(r.ID); byID != r {
				t.Fatalf("step %d: RSVPByID(%s) = %+v, want %+v", step, r.ID, byID, r)
			}
		}
		if (e.WaitlistPosition(user(i)) > 0) != (r.Status == community.Waitlisted) {
			t.Fatalf("step %d: %s is %q at waitlist position %d", step, user(i), r.Status, e.WaitlistPosition(user(i)))
		}
	}
	if q := waitlist(e); slices.Contains(q, "") {
		t.Fatalf("step %d: waitlist positions are not 1..%d: %v", step, waiting, q)
	}
	re := community.Replay(log)
	for _, s := range []string{community.Going, community.Interested, community.NotGoing, community.Waitlisted} {
		if e.Count(s) != tally[s] || re.Count(s) != tally[s] {
			t.Fatalf("step %d: count %s = %d, replay %d, RSVPs %d", step, s, e.Count(s), re.Count(s), tally[s])
		}
	}
	if re.Version != e.Version || e.Version != int64(len(log)) || re.Sequence != e.Sequence || re.Waitlist != e.Waitlist ||
		(re.Capacity == nil) != (e.Capacity == nil) || (re.Capacity != nil && *re.Capacity != *e.Capacity) {
		t.Fatalf("step %d: replay %+v, incremental %+v", step, re, e)
	}
	if !slices.Equal(waitlist(re), waitlist(e)) {
		t.Fatalf("step %d: replayed waitlist %v, incremental %v", step, waitlist(re), waitlist(e))
	}
	for i := range propUsers {
		a, okA := e.RSVPOf(user(i))
		b, okB := re.RSVPOf(user(i))
		if a != b || okA != okB {
			t.Fatalf("step %d: %s: incremental %+v, replay %+v", step, user(i), a, b)
		}
	}
}

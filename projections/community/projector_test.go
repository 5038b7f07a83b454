package community_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projcommunity "github.com/strata-platform/strata/projections/community"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// harness is a store with the community events, the community projector
// running live, and the command service waiting for it (read your writes).
type harness struct {
	db    *stdsql.DB
	reg   *eventstore.Registry
	clock *kernel.FixedClock
	svc   *cmd.Service
}

func start(t *testing.T) *harness {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range community.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2031, 3, 4, 9, 0, 0, 123_456_789, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	wake := projections.NewSignal()
	runner, err := projections.NewRunner(db.SQL, reg, wake, logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projcommunity.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, notified := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	go func() { defer close(notified); store.RunNotifier(ctx, wake.Fire) }()
	t.Cleanup(func() { cancel(); <-done; <-notified })
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projcommunity.Name)
	}
	return &harness{db: db.SQL, reg: reg, clock: clock, svc: cmd.New(store, clock, logger, cmd.Config{Wait: wait})}
}

func ptr[T any](v T) *T { return &v }

// ev is an event of the workload and the RSVP ids handed out on it.
type ev struct {
	id, tenant, creator string
	rsvps               map[string]string // user -> RSVP id
}

// expectRefusal fails on any error but a refusal of the input (a decision).
func expectRefusal(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestReadModelMatchesReplayAndRebuild drives the command service with
// random RSVPs, RSVP changes, capacity changes, waitlist toggles,
// reschedules and a cancellation, then checks that every event's row and
// RSVPs are what replaying its stream gives (and the per-day counts what
// the rows give), and that rebuilding the projector (in batches and event
// by event) gives identical tables.
func TestReadModelMatchesReplayAndRebuild(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	now := h.clock.Now()
	configs := []struct {
		tenant   string
		capacity *int
		waitlist bool
	}{{"t1", ptr(3), true}, {"t1", ptr(2), false}, {"t1", nil, false}, {"t2", ptr(1), true}, {"t2", ptr(4), true}}
	var evs []*ev
	for i, c := range configs {
		creator := fmt.Sprintf("creator%d", i)
		end := now.Add(30*24*time.Hour + 2*time.Hour)
		id, err := h.svc.CreateEvent(ctx, c.tenant, creator, community.Details{Title: fmt.Sprintf("Event %d", i),
			StartTime: now.Add(30 * 24 * time.Hour), EndTime: &end, Capacity: c.capacity, Waitlist: c.waitlist, Location: "Here"})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, &ev{id: id, tenant: c.tenant, creator: creator, rsvps: map[string]string{}})
	}
	rng := rand.New(rand.NewPCG(42, 7))
	statuses := []string{community.Going, community.Going, community.Going, community.Interested, community.NotGoing}
	messages := []*string{nil, nil, ptr(""), ptr("see you"), ptr(" maybe ")}
	const steps = 500
	for step := range steps {
		h.clock.Advance(time.Second + time.Duration(rng.IntN(1000))*time.Microsecond)
		e := evs[rng.IntN(len(evs))]
		u := fmt.Sprintf("u%02d", rng.IntN(12))
		what := fmt.Sprintf("step %d on %s", step, e.id)
		switch op := rng.IntN(21); {
		case op < 12:
			res, err := h.svc.RSVP(ctx, e.tenant, u, e.id, statuses[rng.IntN(len(statuses))], messages[rng.IntN(len(messages))])
			expectRefusal(t, what, err)
			if err == nil {
				e.rsvps[u] = res.ID
				checkPosition(t, h, e, res)
			}
		case op < 15:
			id, ok := e.rsvps[u]
			if !ok {
				continue
			}
			status := ""
			if rng.IntN(2) == 0 {
				status = statuses[rng.IntN(len(statuses))]
			}
			res, err := h.svc.ChangeRSVP(ctx, e.tenant, u, e.id, id, status, messages[rng.IntN(len(messages))])
			expectRefusal(t, what, err)
			if err == nil {
				checkPosition(t, h, e, res)
			}
		case op < 20:
			cur, err := h.svc.Replay(ctx, e.tenant, e.id)
			if err != nil {
				t.Fatal(err)
			}
			p := community.Patch{Fields: map[string]bool{"waitlist": true}, Details: community.Details{Waitlist: !cur.Waitlist}}
			if op < 18 { // a capacity near the people going: one below (refused), equal, above, or unlimited
				p = community.Patch{Fields: map[string]bool{"capacity": true}}
				if rng.IntN(8) > 0 {
					p.Capacity = ptr(max(1, cur.Count(community.Going)+rng.IntN(4)-1))
				}
			}
			if op == 19 { // another day (maybe the same), another type: the event moves between event_days buckets
				shift := time.Duration(rng.IntN(3)-1) * 24 * time.Hour
				p = community.Patch{Fields: map[string]bool{"start_time": true, "end_time": true, "event_type": true},
					Details: community.Details{StartTime: cur.StartTime.Add(shift), EndTime: ptr(cur.EndTime.Add(shift)),
						EventType: community.EventTypes[rng.IntN(len(community.EventTypes))]}}
			}
			expectRefusal(t, what, h.svc.UpdateEvent(ctx, e.tenant, e.creator, e.id, p))
		default:
			if step > steps*3/4 && rng.IntN(4) == 0 { // late, and rarely: most events stay open
				expectRefusal(t, what, h.svc.CancelEvent(ctx, e.tenant, e.creator, e.id))
			}
		}
	}
	checkWorkloadReach(t, h, evs)
	for _, e := range evs {
		checkEvent(t, h, e)
	}
	checkEventDays(t, h.db)
	live := dump(t, h.db)
	for _, p := range []projections.Projector{projcommunity.Projector{}, applyOnly{}} {
		res, err := projections.Rebuilder{DB: h.db, Registry: h.reg, BatchSize: 97}.Rebuild(ctx, p)
		if err != nil {
			t.Fatalf("rebuild with %T: %v", p, err)
		}
		if res.Applied == 0 {
			t.Fatalf("rebuild with %T applied nothing: %+v", p, res)
		}
		if got := dump(t, h.db); got != live {
			t.Fatalf("rebuild with %T differs from the live tables:\n%s", p, diff(live, got))
		}
	}
	// The live consumer carries on from the rebuild's handover.
	for _, e := range evs {
		if _, err := h.svc.RSVP(ctx, e.tenant, "late", e.id, community.Interested, ptr("after the rebuild")); err != nil {
			expectRefusal(t, "after rebuild", err)
		}
		checkEvent(t, h, e)
	}
}

// applyOnly is the projector without ApplyBatch: a rebuild with it applies
// event by event, as the live consumer of a plain projector does.
type applyOnly struct{}

func (applyOnly) Name() string      { return projcommunity.Name }
func (applyOnly) Handles() []string { return projcommunity.Projector{}.Handles() }
func (applyOnly) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	return projcommunity.Projector{}.Apply(ctx, tx, e)
}

// checkPosition checks an RSVP's reported waitlist position against a replay.
func checkPosition(t *testing.T, h *harness, e *ev, res cmd.RSVPResult) {
	t.Helper()
	fold, err := h.svc.Replay(context.Background(), e.tenant, e.id)
	if err != nil {
		t.Fatal(err)
	}
	if got := fold.WaitlistPosition(res.UserID); got != res.WaitlistPosition {
		t.Fatalf("%s on %s: reported waitlist position %d, replay %d", res.UserID, e.id, res.WaitlistPosition, got)
	}
}

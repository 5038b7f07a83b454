package community_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestTwoProcessesNeverDecideOnStaleState runs two services (two processes'
// caches) on one store: each decides on its cached fold, and a fold that
// another process moved on is caught up before anything is appended or
// refused.
func TestTwoProcessesNeverDecideOnStaleState(t *testing.T) {
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
	clock := kernel.NewFixedClock(time.Now().UTC().Truncate(time.Second))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, b := cmd.New(store, clock, logger, cmd.Config{}), cmd.New(store, clock, logger, cmd.Config{})
	ctx, one := context.Background(), 1
	id, err := a.CreateEvent(ctx, "org", "ada", community.Details{Title: "Tiny", StartTime: clock.Now().Add(time.Hour), Capacity: &one})
	if err != nil {
		t.Fatal(err)
	}
	rsvp := func(s *cmd.Service, user, status string) error {
		_, err := s.RSVP(ctx, "org", user, id, status, nil)
		return err
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	full := func(err error) {
		t.Helper()
		if kernel.KindOf(err) != kernel.KindInvalid {
			t.Fatalf("want the capacity refusal, got %v", err)
		}
	}
	must(rsvp(a, "u1", community.Going)) // a's cache: full
	must(rsvp(b, "u1", community.NotGoing))
	must(rsvp(a, "u3", community.Going)) // a's stale fold said full: it caught up instead of refusing
	full(rsvp(a, "u4", community.Going))
	full(rsvp(b, "u5", community.Going)) // b's stale fold said free: its append clashed and it caught up
	must(b.UpdateEvent(ctx, "org", "ada", id, community.Patch{Fields: map[string]bool{"capacity": true}}))
	must(rsvp(a, "u4", community.Going)) // unlimited now, as b decided
	ev, err := a.Replay(ctx, "org", id)
	must(err)
	if ev.Count(community.Going) != 2 || ev.Capacity != nil {
		t.Fatalf("replay: %d going, capacity %v", ev.Count(community.Going), ev.Capacity)
	}
	if _, err := b.RSVP(ctx, "other-org", "u9", id, community.Going, nil); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("another tenant: %v", err)
	}
}

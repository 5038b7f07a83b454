package projections_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// A projector is read past the events it does not handle in the database
// (a window of ten batches a read, its last event delivered to move the
// checkpoint): with long runs of other events between its own, before it
// starts and while it runs, it applies each of its events exactly once,
// in order, and its checkpoint reaches the store's last event, whatever
// type that is.
func TestUnhandledRunsAreReadPast(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const name = "test.skip.v1"
	createSchema(t, e.db.SQL, name)
	ctx := context.Background()
	appendRun := func(prefix string, ignoredN, tickedN int) {
		t.Helper()
		for i := range ignoredN {
			if _, err := e.store.Append(ctx, eventstore.Stream{Type: "test.noise", ID: fmt.Sprintf("%s-noise-%d", prefix, i%5)},
				eventstore.AnyVersion, ignored{}, ignored{}, ignored{}, ignored{}, ignored{}, ignored{}, ignored{}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range tickedN {
			if _, err := e.store.Append(ctx, eventstore.Stream{Type: "test.counter", ID: fmt.Sprintf("%s-%d", prefix, i%3)},
				eventstore.AnyVersion, ticked{N: i}); err != nil {
				t.Fatal(err)
			}
		}
	}
	appendRun("before", 100, 4) // 700 other events, then 4 of its own
	appendRun("before2", 30, 1)
	_, stop := e.start(t, projections.Config{BatchSize: 20, PollInterval: 20 * time.Millisecond}, &counter{name: name})
	defer stop()
	appendRun("during", 60, 45) // 45 of its own: more than a batch in one window
	appendRun("tail", 40, 0)    // the store ends with events it does not handle
	e.caughtUp(t, name)
	exactlyOnce(t, e.db.SQL, name)
	st, err := projections.ReadStatus(ctx, e.db.SQL, []string{name})
	if err != nil || len(st) != 1 || st[0].LagEvents != 0 {
		t.Fatalf("status %+v %v", st, err)
	}
}

// handlesNothing is a projector of no event type (Handles nil).
type handlesNothing struct{ applied atomic.Int64 }

func (*handlesNothing) Name() string      { return "test.nothing.v1" }
func (*handlesNothing) Handles() []string { return nil }
func (p *handlesNothing) Apply(context.Context, *stdsql.Tx, eventstore.Envelope) error {
	p.applied.Add(1)
	return nil
}

// A projector of no event type still moves its checkpoint to the store's
// last event (its reads ask for no type and get each window's last event),
// and applies nothing.
func TestAProjectorOfNoTypeKeepsUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := &handlesNothing{}
	createSchema(t, e.db.SQL, p.Name())
	for i := range 30 {
		if _, err := e.store.Append(context.Background(), eventstore.Stream{Type: "test.counter", ID: fmt.Sprintf("n-%d", i%4)},
			eventstore.AnyVersion, ticked{N: i}, ignored{}); err != nil {
			t.Fatal(err)
		}
	}
	_, stop := e.start(t, projections.Config{BatchSize: 5, PollInterval: 20 * time.Millisecond}, p)
	defer stop()
	e.caughtUp(t, p.Name())
	if n := p.applied.Load(); n != 0 {
		t.Errorf("applied %d events", n)
	}
}

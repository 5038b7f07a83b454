package folds_test

import (
	"context"
	"sync"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type added struct {
	N int `json:"n"`
}

func (added) EventType() string { return "test.added" }

// counter refuses to pass 40.
type counter struct{ total, events int }

func (c *counter) Apply(e kernel.Event) {
	if a, ok := e.(*added); ok {
		c.total += a.N
		c.events++
	}
}

// Two caches (two processes) over one store decide 60 concurrent commands
// on one stream, each refused once the total reached 40: every decision is
// made on the folded state of every earlier append, so exactly 40 are
// appended, the stream has no gap, and both caches fold the same total. A
// command that the other process beats MaxConflictRetries times in a row
// ends in a conflict (409, to be retried): it appended nothing.
func TestTwoCachesDecideOnEveryEarlierAppend(t *testing.T) {
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	if err := reg.Register(eventstore.EventDef{Name: "test.added", Version: 1, New: func() kernel.Event { return &added{} }}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	store := eventstore.New(db.SQL, reg, kernel.SystemClock{}, eventstore.NewULIDs(kernel.SystemClock{}))
	caches := []*folds.Cache[counter, *counter]{folds.New[counter, *counter](store, 8), folds.New[counter, *counter](store, 8)}
	stream := eventstore.Stream{Type: "test", ID: "counter-1"}
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	appended, refused, beaten := 0, 0, 0
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := caches[i%2]
			err := c.Locked(stream.ID, func(e *folds.Entry[counter]) error {
				_, err := c.Decide(ctx, stream, e, false, func(st *counter) ([]kernel.Event, error) {
					if st.total >= 40 {
						return nil, kernel.E(kernel.KindUnprocessable, "full")
					}
					return []kernel.Event{&added{N: 1}}, nil
				})
				return err
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				appended++
			case kernel.KindOf(err) == kernel.KindUnprocessable:
				refused++
			case kernel.KindOf(err) == kernel.KindConflict:
				beaten++
			default:
				t.Errorf("decide: %v", err)
			}
		}()
	}
	wg.Wait()
	if appended != 40 || refused+beaten != 20 {
		t.Fatalf("appended %d, refused %d, beaten %d times over; want 40 appended and 20 not", appended, refused, beaten)
	}
	for i, c := range caches {
		if err := c.Locked(stream.ID, func(e *folds.Entry[counter]) error {
			if err := c.CatchUp(ctx, stream.ID, e); err != nil {
				return err
			}
			if e.State.total != 40 || e.State.events != 40 || e.Version != 40 {
				t.Errorf("cache %d folds total %d, %d events, version %d; want 40, 40, 40", i, e.State.total, e.State.events, e.Version)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}

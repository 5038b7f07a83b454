package projections_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// A commit wakes, through the database's notification (as in another
// process), the waiters of its event types and not those of other types;
// a plain Wait and a sub of every type wake for any commit.
func TestNotificationWakesOnlyTheConsumersOfItsTypes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ticks := e.wake.Subscribe([]string{"test.ticked"})
	defer ticks.Close()
	ignores := e.wake.Subscribe([]string{"test.ignored"})
	defer ignores.Close()
	every := e.wake.Subscribe(nil)
	defer every.Close()
	// The listener fires once for everyone when it connects: wait for that.
	select {
	case <-every.Wait():
	case <-time.After(10 * time.Second):
		t.Fatal("the listener never connected")
	}
	tw, iw, ew, pw := ticks.Wait(), ignores.Wait(), every.Wait(), e.wake.Wait()
	if _, err := e.store.Append(ctx, eventstore.Stream{Type: "test", ID: "s-1"}, 0, &ignored{}); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]<-chan struct{}{"the test.ignored sub": iw, "the all-types sub": ew, "a plain waiter": pw} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not woken by a test.ignored commit", name)
		}
	}
	select {
	case <-tw:
		t.Fatal("the test.ticked sub was woken by a test.ignored commit")
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := e.store.Append(ctx, eventstore.Stream{Type: "test", ID: "s-2"}, 0, &ticked{N: 1}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tw:
	case <-time.After(10 * time.Second):
		t.Fatal("the test.ticked sub was not woken by its commit")
	}
}

// FireTypes with no types (a commit whose types are not known) wakes
// every sub.
func TestFireWithoutTypesWakesEverySub(t *testing.T) {
	sig := projections.NewSignal()
	a, b := sig.Subscribe([]string{"x"}), sig.Subscribe([]string{"y"})
	aw, bw := a.Wait(), b.Wait()
	sig.FireTypes(nil)
	for _, ch := range []<-chan struct{}{aw, bw} {
		select {
		case <-ch:
		default:
			t.Fatal("a sub was not woken")
		}
	}
	aw, bw = a.Wait(), b.Wait()
	sig.FireTypes([]string{"y", "z"})
	select {
	case <-aw:
		t.Fatal("sub x woken by y")
	default:
	}
	select {
	case <-bw:
	default:
		t.Fatal("sub y not woken by y")
	}
}

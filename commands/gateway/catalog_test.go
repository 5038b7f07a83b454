package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func newStore(t *testing.T) (*eventstore.Store, *kernel.FixedClock) {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range catalog.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Now().UTC().Truncate(time.Second))
	return eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock)), clock
}

// Processes starting together import the built-in catalog once; operators'
// concurrent changes all land, each decided on the catalog the one before
// made (the stream's version check), and a second process's view sees
// them after its catch-up.
func TestConcurrentChangesLandOnceEach(t *testing.T) {
	t.Parallel()
	store, clock := newStore(t)
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	view := projgateway.NewCatalogView(store, logger)
	var wg sync.WaitGroup
	results := make([]catalog.ImportResult, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cmdgateway.NewCatalog(store, clock, view.Sync).ImportBuiltin(ctx)
			if err != nil {
				t.Error(err)
			}
			results[i] = res
		}()
	}
	wg.Wait()
	imports := 0
	for _, r := range results {
		if !r.Unchanged {
			imports++
		}
	}
	cmds := cmdgateway.NewCatalog(store, clock, view.Sync)
	s, err := cmds.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if imports != 1 || s.Imports != 1 || s.Managed {
		t.Fatalf("%d imports recorded (%d folded, managed %v), want one built-in import", imports, s.Imports, s.Managed)
	}
	if view.Catalog().Version != s.Version {
		t.Fatalf("the view is at %d after Sync, the stream at %d", view.Catalog().Version, s.Version)
	}

	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := catalog.Model{ID: fmt.Sprintf("strata-dev-extra-%d", i), Provider: "strata-dev", Label: "Extra", Tier: catalog.TierBasic,
				ContextWindow: 4096, Upstream: catalog.Upstream{ID: "dev"}}
			if _, changed, err := cmdgateway.NewCatalog(store, clock, view.Sync).Upsert(ctx, m); err != nil || !changed {
				t.Errorf("upsert %s: %v %v", m.ID, changed, err)
			}
		}()
	}
	wg.Wait()
	other := projgateway.NewCatalogView(store, logger) // another process's view
	if err := other.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, ok := other.Catalog().Model(fmt.Sprintf("strata-dev-extra-%d", i)); !ok {
			t.Errorf("extra %d missing from another view", i)
		}
	}
	if other.Catalog().Hash != view.Catalog().Hash {
		t.Fatal("two views of one stream disagree")
	}
	// An operator changed the catalog: the built-in one is not applied again.
	if res, err := cmds.ImportBuiltin(ctx); err != nil || !res.Skipped {
		t.Fatalf("built-in after an operator's change: %+v %v", res, err)
	}
	// Retire with an unknown replacement: refused, nothing appended.
	before := view.Catalog().Version
	if _, _, err := cmds.Retire(ctx, "strata-dev-extra-0", "strata-dev-nope"); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("retire to an unknown model: %v", err)
	}
	if v, changed, err := cmds.Retire(ctx, "strata-dev-extra-0", "strata-dev-7b-text"); err != nil || !changed || v != before+1 {
		t.Fatalf("retire: %d %v %v", v, changed, err)
	}
}

// The view's tail wakes on commits and catches up.
func TestViewTailsTheStream(t *testing.T) {
	t.Parallel()
	store, clock := newStore(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	view := projgateway.NewCatalogView(store, logger)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wake := make(chan struct{})
	var mu sync.Mutex
	go view.Run(ctx, func() <-chan struct{} { mu.Lock(); defer mu.Unlock(); return wake }, time.Hour)
	if _, err := cmdgateway.NewCatalog(store, clock, nil).ImportBuiltin(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	close(wake)
	wake = make(chan struct{})
	mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for view.Catalog().Empty() {
		if time.Now().After(deadline) {
			t.Fatal("the view did not catch up after a wake-up")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, ok := view.Catalog().Default(catalog.TierFree); !ok {
		t.Fatal("no default after the built-in import")
	}
}

// Package gateway holds the inference gateway's read models. The model
// catalog's is in memory (CatalogView): the catalog is small and read on
// every chat request, so each process folds the one catalog stream into an
// immutable snapshot that readers take without a lock or a query. It has
// no tables and no checkpoint: it is folded from the stream at start and
// then tails it (woken by the commit notifications, polling as a
// fallback); commands call Sync with the version they appended before
// they answer (read-your-writes).
package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// CatalogView is the in-memory catalog. It is safe for concurrent use.
type CatalogView struct {
	store *eventstore.Store
	log   *slog.Logger

	readMu sync.Mutex    // one catch-up at a time; guards state
	state  catalog.State // the fold, owned by the catch-up

	snap    atomic.Pointer[catalog.Catalog]
	mu      sync.Mutex // guards changed
	changed chan struct{}
}

// NewCatalogView returns an empty view of the store's catalog stream.
func NewCatalogView(store *eventstore.Store, log *slog.Logger) *CatalogView {
	v := &CatalogView{store: store, log: log, changed: make(chan struct{})}
	var empty catalog.State
	v.snap.Store(empty.Snapshot())
	return v
}

// Catalog returns the current snapshot (never nil; empty before the first
// import). A snapshot never changes: a reader keeps a consistent catalog
// for the whole request.
func (v *CatalogView) Catalog() *catalog.Catalog { return v.snap.Load() }

// CatchUp folds the catalog events appended after the view's version.
func (v *CatalogView) CatchUp(ctx context.Context) error {
	v.readMu.Lock()
	defer v.readMu.Unlock()
	envs, err := v.store.Load(ctx, catalog.StreamID, eventstore.LoadOptions{AfterVersion: v.state.Version})
	if err != nil {
		return fmt.Errorf("catalog view: %w", err)
	}
	if len(envs) == 0 {
		return nil
	}
	for _, e := range envs {
		v.state.Fold(e.Event, e.StreamVersion)
	}
	v.snap.Store(v.state.Snapshot())
	v.mu.Lock()
	close(v.changed)
	v.changed = make(chan struct{})
	v.mu.Unlock()
	return nil
}

// Sync returns once the view has folded the catalog up to version (the
// ToVersion of an append), catching up itself; a ctx that ends first
// gives an unavailable error (the change is stored; the view is late).
// Stream versions are dense and committed in order, so a version read
// from the stream is never skipped.
func (v *CatalogView) Sync(ctx context.Context, version int64) error {
	for v.Catalog().Version < version {
		if err := v.CatchUp(ctx); err != nil {
			if ctx.Err() != nil {
				return kernel.Unavailable("the catalog change is stored but not visible yet; retry shortly", err)
			}
			return err
		}
		if v.Catalog().Version >= version {
			return nil
		}
		v.mu.Lock()
		changed := v.changed
		v.mu.Unlock()
		select {
		case <-ctx.Done():
			return kernel.Unavailable("the catalog change is stored but not visible yet; retry shortly", ctx.Err())
		case <-changed:
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// MinCatchUpInterval spaces the tail's catch-ups: every commit in the
// store wakes the view, and one query per commit would be wasted on a
// stream that changes a few times a year. Other processes' catalog changes
// therefore show within this interval of their notification (this
// process's own commands Sync).
const MinCatchUpInterval = 50 * time.Millisecond

// Run tails the catalog stream until ctx ends: it catches up whenever wake
// delivers (a commit in any process), at most once per MinCatchUpInterval,
// and at least every poll interval.
func (v *CatalogView) Run(ctx context.Context, wake func() <-chan struct{}, poll time.Duration) {
	projections.Follow(ctx, wake, poll, MinCatchUpInterval, v.CatchUp, func(err error) {
		v.log.Error("catalog view: catch up failed", "err", err)
	})
}

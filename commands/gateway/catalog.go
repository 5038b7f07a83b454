// Package gateway runs the inference gateway's commands. The model
// catalog's (this file and catalog_*.go): import a catalog file, upsert or
// retire one model, and import the built-in development catalog at start.
// Each folds the one catalog stream, lets domain/gateway/catalog decide,
// and appends the decided events at the version it folded (optimistic
// concurrency: a clash folds again and decides again).
package gateway

import (
	"context"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// maxCatalogRetries bounds how often a catalog change is decided again
// after another append moved the catalog first.
const maxCatalogRetries = 10

// Catalog runs the catalog's commands. It is safe for concurrent use.
type Catalog struct {
	store *eventstore.Store
	clock kernel.Clock
	// wait, when set, returns once the readers (the in-memory catalog view)
	// have folded the catalog up to version, so the next request sees the
	// change.
	wait func(ctx context.Context, version int64) error
}

// NewCatalog returns the catalog's command service; wait may be nil.
func NewCatalog(store *eventstore.Store, clock kernel.Clock, wait func(ctx context.Context, version int64) error) *Catalog {
	return &Catalog{store: store, clock: clock, wait: wait}
}

// Load folds the catalog stream.
func (c *Catalog) Load(ctx context.Context) (catalog.State, error) {
	envs, err := c.store.Load(ctx, catalog.StreamID, eventstore.LoadOptions{})
	if err != nil {
		return catalog.State{}, fmt.Errorf("load the model catalog: %w", err)
	}
	var s catalog.State
	for _, e := range envs {
		s.Fold(e.Event, e.StreamVersion)
	}
	return s, nil
}

// decide folds the catalog, decides and appends at the folded version,
// deciding again after a clash; it returns the version reached (the
// folded one when nothing was decided) and waits for the readers.
func (c *Catalog) decide(ctx context.Context, fn func(s *catalog.State) ([]kernel.Event, error)) (int64, error) {
	for attempt := 0; ; attempt++ {
		s, err := c.Load(ctx)
		if err != nil {
			return 0, err
		}
		evs, err := fn(&s)
		if err != nil {
			return 0, err
		}
		if len(evs) == 0 {
			return s.Version, nil
		}
		app, err := c.store.Append(ctx, eventstore.Stream{Type: catalog.StreamType, ID: catalog.StreamID}, s.Version, evs...)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxCatalogRetries {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("append to the model catalog: %w", err)
		}
		if c.wait != nil {
			if err := c.wait(ctx, app.ToVersion); err != nil {
				return app.ToVersion, err
			}
		}
		return app.ToVersion, nil
	}
}

// Import makes the catalog equal to a parsed catalog file (catalog.Parse)
// named name. Importing the file the catalog already is records nothing
// (Unchanged); a file that drops a model is refused (catalog.State.Import).
func (c *Catalog) Import(ctx context.Context, f catalog.File, name string) (catalog.ImportResult, error) {
	return c.importFrom(ctx, f, catalog.SourceImport, name)
}

// ImportBuiltin imports the built-in development catalog unless an
// operator manages the catalog (Skipped): a fresh server has a catalog,
// and one whose catalog only ever came from the built-in file follows the
// built-in file of the running version.
func (c *Catalog) ImportBuiltin(ctx context.Context) (catalog.ImportResult, error) {
	return c.importFrom(ctx, catalog.Builtin(), catalog.SourceBuiltin, catalog.BuiltinName)
}

func (c *Catalog) importFrom(ctx context.Context, f catalog.File, source, name string) (catalog.ImportResult, error) {
	var res catalog.ImportResult
	_, err := c.decide(ctx, func(s *catalog.State) ([]kernel.Event, error) {
		evs, r, err := s.Import(f, source, name, c.clock.Now())
		res = r
		return evs, err
	})
	return res, err
}

// Upsert records an operator's new or changed live model; it returns the
// catalog's version after it and whether anything changed.
func (c *Catalog) Upsert(ctx context.Context, m catalog.Model) (int64, bool, error) {
	changed := false
	v, err := c.decide(ctx, func(s *catalog.State) ([]kernel.Event, error) {
		evs, err := s.Upsert(m, c.clock.Now())
		changed = len(evs) > 0
		return evs, err
	})
	return v, changed, err
}

// Retire retires model id in favour of replacedBy (catalog.State.Retire);
// it returns the catalog's version after it and whether anything changed.
func (c *Catalog) Retire(ctx context.Context, id, replacedBy string) (int64, bool, error) {
	changed := false
	v, err := c.decide(ctx, func(s *catalog.State) ([]kernel.Event, error) {
		evs, err := s.Retire(id, replacedBy, c.clock.Now())
		changed = len(evs) > 0
		return evs, err
	})
	return v, changed, err
}

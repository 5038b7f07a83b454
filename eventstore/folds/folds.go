// Package folds keeps aggregates folded from their streams in memory for the
// command services: a bounded cache of folds, one lock per stream (commands
// on one stream queue in a process instead of clashing), catching a fold up
// from the store, and deciding a command optimistically on the cached fold,
// deciding again on the caught-up fold when another process appended first.
package folds

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// MaxConflictRetries bounds how often a command is decided again after
// another process appended to its stream first.
const MaxConflictRetries = 20

// Entry is one cached fold: the state and the stream version folded so far.
// Hold its lock (Cache.Locked) while reading or deciding on it.
type Entry[S any] struct {
	mu      sync.Mutex
	State   S
	Version int64
}

// Cache keeps up to a fixed number of folds of states S (folded by *S's
// Apply). An evicted fold is folded again from the store when needed. It is
// safe for concurrent use.
type Cache[S any, P interface {
	*S
	Apply(kernel.Event)
}] struct {
	store   *eventstore.Store
	mu      sync.Mutex // guards get-or-create
	entries *lru.Cache[string, *Entry[S]]
}

// New returns a cache of at most size folds (size > 0) over store.
func New[S any, P interface {
	*S
	Apply(kernel.Event)
}](store *eventstore.Store, size int) *Cache[S, P] {
	entries, err := lru.New[string, *Entry[S]](size)
	if err != nil {
		panic(err) // only for size <= 0
	}
	return &Cache[S, P]{store: store, entries: entries}
}

// Locked runs fn on the entry of stream id under its lock (the entry as
// cached: call CatchUp for every event recorded before).
func (c *Cache[S, P]) Locked(id string, fn func(e *Entry[S]) error) error {
	c.mu.Lock()
	e, ok := c.entries.Get(id)
	if !ok {
		e = &Entry[S]{}
		c.entries.Add(id, e)
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e)
}

// CatchUp folds into e the events of stream id recorded after e.Version.
func (c *Cache[S, P]) CatchUp(ctx context.Context, id string, e *Entry[S]) error {
	envs, err := c.store.Load(ctx, id, eventstore.LoadOptions{AfterVersion: e.Version})
	if err != nil {
		return fmt.Errorf("load %s: %w", id, err)
	}
	for _, env := range envs {
		P(&e.State).Apply(env.Event)
		e.Version = env.StreamVersion
	}
	return nil
}

// Decide runs a command on e (locked, of stream) and appends its events at
// e.Version. It decides on the fold as cached: a refusal, a decision
// without events, and a clash with another process's append are final only
// on a fold just caught up (fresh says whether e was caught up already), so
// nothing is refused on stale state and nothing is appended over a newer
// version. The appended events are folded into e. A decision without
// events appends nothing (zero Appended).
func (c *Cache[S, P]) Decide(ctx context.Context, stream eventstore.Stream, e *Entry[S], fresh bool,
	decide func(st P) ([]kernel.Event, error)) (eventstore.Appended, error) {
	return c.decide(ctx, stream, e, fresh, decide, func(evs []kernel.Event) (eventstore.Appended, error) {
		return c.store.Append(ctx, stream, e.Version, evs...)
	})
}

// DecideThen is Decide whose append runs in a transaction of its own
// (Store.InTx) followed, in the same transaction, by then: what the events
// cause and must commit with them (a job to enqueue, subject keys to
// store). then failing rolls the append back and fails the command; a
// clash with another process's append is decided again as in Decide.
func (c *Cache[S, P]) DecideThen(ctx context.Context, stream eventstore.Stream, e *Entry[S], fresh bool,
	decide func(st P) ([]kernel.Event, error),
	then func(tx *stdsql.Tx, evs []kernel.Event, app eventstore.Appended) error) (eventstore.Appended, error) {
	return c.decide(ctx, stream, e, fresh, decide, func(evs []kernel.Event) (eventstore.Appended, error) {
		var app eventstore.Appended
		err := c.store.InTx(ctx, func(tx *stdsql.Tx) (err error) {
			if app, err = c.store.AppendTx(ctx, tx, stream, e.Version, evs...); err != nil {
				return err
			}
			return then(tx, evs, app)
		})
		return app, err
	})
}

func (c *Cache[S, P]) decide(ctx context.Context, stream eventstore.Stream, e *Entry[S], fresh bool,
	decide func(st P) ([]kernel.Event, error),
	appendFn func(evs []kernel.Event) (eventstore.Appended, error)) (eventstore.Appended, error) {
	catchUp := func() error {
		fresh = true
		return c.CatchUp(ctx, stream.ID, e)
	}
	if e.Version == 0 && !fresh {
		if err := catchUp(); err != nil {
			return eventstore.Appended{}, err
		}
	}
	for attempt := 0; ; attempt++ {
		evs, err := decide(P(&e.State))
		if err != nil || len(evs) == 0 {
			if !fresh {
				if err := catchUp(); err != nil {
					return eventstore.Appended{}, err
				}
				continue
			}
			return eventstore.Appended{}, err
		}
		app, err := appendFn(evs)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < MaxConflictRetries {
			if err := catchUp(); err != nil {
				return eventstore.Appended{}, err
			}
			continue
		}
		if err != nil {
			return eventstore.Appended{}, fmt.Errorf("append to %s: %w", stream.ID, err)
		}
		for i, ev := range evs {
			P(&e.State).Apply(ev)
			e.Version = app.FromVersion + int64(i)
		}
		return app, nil
	}
}

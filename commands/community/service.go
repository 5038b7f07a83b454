// Package community runs the community context's commands: it folds the
// stream a command is about (an event with its RSVPs, a comment, a tenant's
// moderation policy, a user's calendar feed), lets the domain decide, and
// appends the decided events with an optimistic version check. Events are
// kept folded in a bounded in-memory cache (eventstore/folds): a command is
// decided on the cached fold, and a refusal, or an append that another
// process's append beat, is decided again on the fold caught up from the
// store, so nothing is refused or written on stale state; the cache's
// per-event lock makes concurrent RSVPs to one event queue instead of
// clashing.
package community

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// DefaultCacheSize is how many folded events the service keeps by default.
const DefaultCacheSize = 20000

// maxConflictRetries bounds how often a decision is made again after another
// process appended to the same stream first.
const maxConflictRetries = folds.MaxConflictRetries

// Config tunes the service.
type Config struct {
	// Wait blocks until the read model has applied the event at key (read
	// your writes); nil means do not wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// CacheSize bounds the folded events kept in memory (DefaultCacheSize
	// when 0). An evicted event is folded again from the store when needed.
	CacheSize int
}

// Service runs the community's commands.
type Service struct {
	store  *eventstore.Store
	clock  kernel.Clock
	log    *slog.Logger
	cfg    Config
	events *folds.Cache[community.Event, *community.Event]
}

// New returns a service over store.
func New(store *eventstore.Store, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	return &Service{store: store, clock: clock, log: log, cfg: cfg,
		events: folds.New[community.Event, *community.Event](store, cfg.CacheSize)}
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock.Now() }

// newID mints a resource id: a UUID (version 7, so ids of new rows arrive
// in index order).
func newID() string { return uuid.Must(uuid.NewV7()).String() }

// settle waits for the read model to reach the append, when a wait is set.
func (s *Service) settle(ctx context.Context, app eventstore.Appended) error {
	if s.cfg.Wait == nil || app.ToVersion == 0 {
		return nil
	}
	return s.cfg.Wait(ctx, app.Last)
}

// Settle waits until the read model has applied the event at key.
func (s *Service) Settle(ctx context.Context, key eventstore.Key) error {
	if s.cfg.Wait == nil {
		return nil
	}
	return s.cfg.Wait(ctx, key)
}

// eventDecision turns the current event into events (or a refusal).
type eventDecision func(ev *community.Event) ([]kernel.Event, error)

// onEvent runs a command on the event with id in tenant. It decides on
// the cached fold and appends at the fold's version: if another process
// appended meanwhile, the append clashes, the fold catches up from the
// store and the command is decided again. A refusal, a decision without
// events and a missing event are only final on a fold just caught up, so
// nothing is refused on stale state. An event of another tenant is not
// found, like one that does not exist.
func (s *Service) onEvent(ctx context.Context, tenant, id string, decide eventDecision) (eventstore.Appended, error) {
	if tenant == "" {
		return eventstore.Appended{}, community.NoTenant()
	}
	if _, err := uuid.Parse(id); err != nil {
		return eventstore.Appended{}, notFound(id)
	}
	var app eventstore.Appended
	err := s.events.Locked(id, func(e *folds.Entry[community.Event]) (err error) {
		app, err = s.events.Decide(ctx, eventstore.Stream{Type: community.StreamEvent, ID: id}, e, false,
			func(ev *community.Event) ([]kernel.Event, error) {
				if !ev.Exists() || ev.TenantID != tenant {
					return nil, notFound(id)
				}
				return decide(ev)
			})
		return err
	})
	return app, err
}

func notFound(id string) error { return kernel.NotFound("event " + id + " not found") }

// folder is a small aggregate folded from its whole stream per command.
type folder interface{ Apply(kernel.Event) }

// onStream runs a command on a small stream (a comment, a policy, a feed):
// load it whole, decide, append at its version; a clash decides again.
func onStream[S any, P interface {
	*S
	folder
}](ctx context.Context, s *Service, stream eventstore.Stream, decide func(st P, version int64) ([]kernel.Event, error)) (eventstore.Appended, error) {
	for attempt := 0; ; attempt++ {
		st, version, err := load[S, P](ctx, s, stream.ID)
		if err != nil {
			return eventstore.Appended{}, err
		}
		evs, err := decide(st, version)
		if err != nil || len(evs) == 0 {
			return eventstore.Appended{}, err
		}
		app, err := s.store.Append(ctx, stream, version, evs...)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxConflictRetries {
			continue
		}
		if err != nil {
			return eventstore.Appended{}, fmt.Errorf("append to %s %s: %w", stream.Type, stream.ID, err)
		}
		return app, nil
	}
}

// load folds a small stream whole; it returns the fold and its version.
func load[S any, P interface {
	*S
	folder
}](ctx context.Context, s *Service, id string) (P, int64, error) {
	envs, err := s.store.Load(ctx, id, eventstore.LoadOptions{})
	if err != nil {
		return nil, 0, err
	}
	st := P(new(S))
	var version int64
	for _, env := range envs {
		st.Apply(env.Event)
		version = env.StreamVersion
	}
	return st, version, nil
}

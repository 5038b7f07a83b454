// Package hackathon runs the hackathon context's commands: it folds the
// hackathon a command is about, lets the domain decide, and appends the
// decided events with an optimistic version check. Folds are kept in a
// bounded in-memory cache and caught up from the store before every
// decision and every read, so both see every event recorded before them,
// whichever process wrote it; the per-hackathon lock makes concurrent
// commands on one hackathon queue instead of clashing, and a clash with
// another process decides again on the caught-up fold.
package hackathon

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/mail"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// DefaultCacheSize is how many folded hackathons the service keeps.
const DefaultCacheSize = 2000

// Config tunes the service.
type Config struct {
	// Wait blocks until the read model has applied the event at key (read
	// your writes); nil means do not wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// CacheSize bounds the folds kept in memory (DefaultCacheSize when 0).
	CacheSize int
	// Mailer sends judge invitations; BaseURL is the hackathon surface's
	// public URL their links point to.
	Mailer  mail.Sender
	BaseURL string
	// Blobs stores submission files; MaxFileBytes bounds one file
	// (DefaultMaxFile when 0).
	Blobs        blobs.Store
	MaxFileBytes int64
}

// Service runs the hackathon commands.
type Service struct {
	store *eventstore.Store
	clock kernel.Clock
	log   *slog.Logger
	cfg   Config
	folds *folds.Cache[hackathon.Hackathon, *hackathon.Hackathon]
}

// New returns a service over store.
func New(store *eventstore.Store, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	return &Service{store: store, clock: clock, log: log, cfg: cfg,
		folds: folds.New[hackathon.Hackathon, *hackathon.Hackathon](store, cfg.CacheSize)}
}

// Now is the service's clock, at microseconds (what PostgreSQL keeps), so
// a time reads the same from the fold and from the read model.
func (s *Service) Now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// NewID mints a resource id: a UUID version 7, so ids sort in creation
// order.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// Settle waits until the read model has applied the event at key.
func (s *Service) Settle(ctx context.Context, key eventstore.Key) error {
	if s.cfg.Wait == nil || key == (eventstore.Key{}) {
		return nil
	}
	return s.cfg.Wait(ctx, key)
}

// locked runs fn on the caught-up fold of hackathon id under its lock; an
// id that is not a UUID is not found.
func (s *Service) locked(ctx context.Context, id string, fn func(e *folds.Entry[hackathon.Hackathon]) error) error {
	if _, err := uuid.Parse(id); err != nil {
		return hackathon.NotFound(id)
	}
	return s.folds.Locked(id, func(e *folds.Entry[hackathon.Hackathon]) error {
		if err := s.folds.CatchUp(ctx, id, e); err != nil {
			return err
		}
		e.State.Version = e.Version
		return fn(e)
	})
}

// View runs read on the current fold of hackathon id as user sees it: a
// hackathon user may not see is not found. read must not keep references
// into the fold after it returns.
func (s *Service) View(ctx context.Context, id, user string, read func(h *hackathon.Hackathon) error) error {
	return s.locked(ctx, id, func(e *folds.Entry[hackathon.Hackathon]) error {
		if !e.State.VisibleTo(user) {
			return hackathon.NotFound(id)
		}
		return read(&e.State)
	})
}

// Decision turns the current hackathon into events (or a refusal).
type Decision func(h *hackathon.Hackathon) ([]kernel.Event, error)

// Do runs a command on hackathon id for user: a hackathon user may not see
// is not found (unless open is set: the decision judges visibility
// itself). It decides on the caught-up fold and appends at its version; if
// another process appended first, the fold catches up and the command is
// decided again (eventstore/folds). A decision without events appends nothing (zero
// Appended).
func (s *Service) Do(ctx context.Context, id, user string, open bool, decide Decision) (eventstore.Appended, error) {
	var app eventstore.Appended
	err := s.locked(ctx, id, func(e *folds.Entry[hackathon.Hackathon]) (err error) {
		app, err = s.folds.Decide(ctx, eventstore.Stream{Type: hackathon.StreamHackathon, ID: id}, e, true,
			func(h *hackathon.Hackathon) ([]kernel.Event, error) {
				if !h.Exists() || (!open && !h.VisibleTo(user)) {
					return nil, hackathon.NotFound(id)
				}
				h.Version = e.Version // the fold's stream version, for deciders that check it
				return decide(h)
			})
		return err
	})
	if err != nil {
		return eventstore.Appended{}, err
	}
	return app, s.settle(ctx, app)
}

func (s *Service) settle(ctx context.Context, app eventstore.Appended) error {
	if app.ToVersion == 0 {
		return nil
	}
	return s.Settle(ctx, app.Last)
}

// Create records a new hackathon in DRAFT with by as its organiser.
func (s *Service) Create(ctx context.Context, by string, d hackathon.Details) (string, error) {
	id := NewID()
	evs, err := hackathon.Create(id, by, d, s.Now())
	if err != nil {
		return "", err
	}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: hackathon.StreamHackathon, ID: id}, 0, evs...)
	if err != nil {
		return "", fmt.Errorf("create hackathon: %w", err)
	}
	return id, s.settle(ctx, app)
}

package captable

import (
	"context"
	"fmt"
	"sync"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// cache keeps one folded entry per stream id, each behind its own lock.
type cache[E any] struct {
	mu      sync.Mutex
	entries map[string]E
	fresh   func() E
}

func newCache[E any](fresh func() E) *cache[E] {
	return &cache[E]{entries: map[string]E{}, fresh: fresh}
}

func (c *cache[E]) get(id string) E {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok {
		e = c.fresh()
		c.entries[id] = e
	}
	return e
}

// forget drops id's entry, so that ids that name nothing (from a forged
// token or header) do not accumulate.
func (c *cache[E]) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, id)
}

// companyEntry is a folded company and the lock its commands take.
type companyEntry struct {
	mu      sync.Mutex
	company captable.Company
}

// catchUp folds the events recorded after the entry's version.
func (s *Service) catchUp(ctx context.Context, id string, e *companyEntry) error {
	evs, err := s.store.Load(ctx, id, eventstore.LoadOptions{AfterVersion: e.company.Version})
	if err != nil {
		return err
	}
	for _, env := range evs {
		e.company.Apply(env.Event)
		e.company.Version = env.StreamVersion
	}
	return nil
}

// maxConflictRetries bounds how often a command is decided again after
// another process appended to the company first.
const maxConflictRetries = 5

// Decision turns the current company into events (or a refusal).
type Decision func(c *captable.Company) ([]kernel.Event, error)

// Do runs a command on a company: catch up, decide, append at the version
// decided on. A version clash (another process appended first) catches up
// and decides again. It returns the appended position (zero when the
// decision produced no events).
func (s *Service) Do(ctx context.Context, companyID string, decide Decision) (eventstore.Appended, error) {
	e := s.companies.get(companyID)
	e.mu.Lock()
	defer e.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if err := s.catchUp(ctx, companyID, e); err != nil {
			return eventstore.Appended{}, err
		}
		if !e.company.Exists() {
			s.companies.forget(companyID)
			return eventstore.Appended{}, kernel.NotFound("company " + companyID + " not found")
		}
		evs, err := decide(&e.company)
		if err != nil || len(evs) == 0 {
			return eventstore.Appended{}, err
		}
		app, err := s.store.Append(ctx, eventstore.Stream{Type: captable.StreamCompany, ID: companyID}, e.company.Version, evs...)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxConflictRetries {
			continue
		}
		if err != nil {
			return eventstore.Appended{}, fmt.Errorf("append to company %s: %w", companyID, err)
		}
		return app, s.catchUp(ctx, companyID, e)
	}
}

// View runs fn on the company, caught up, under its lock; fn must not keep
// the pointer. An unknown company is not found.
func (s *Service) View(ctx context.Context, companyID string, fn func(c *captable.Company) error) error {
	e := s.companies.get(companyID)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.catchUp(ctx, companyID, e); err != nil {
		return err
	}
	if !e.company.Exists() {
		s.companies.forget(companyID)
		return kernel.NotFound("company " + companyID + " not found")
	}
	return fn(&e.company)
}

// Role returns an account's role in a company; a company the account does
// not belong to is not found (it is not revealed to exist).
func (s *Service) Role(ctx context.Context, companyID, accountID string) (captable.Role, error) {
	var role captable.Role
	err := s.View(ctx, companyID, func(c *captable.Company) error {
		r, ok := c.Members[accountID]
		if !ok {
			return kernel.NotFound("company " + companyID + " not found")
		}
		role = r
		return nil
	})
	return role, err
}

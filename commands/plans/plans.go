// Package plans records plan changes: the one way any plan of any account
// in any product line changes (domain/plans). Operators' commands, paid
// checkouts and the provider's subscription reports all come here; every
// context reads the result from the account directory
// (projections/accounts), which folds the same events.
package plans

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
)

// maxRetries bounds how often a change is decided again after another
// append moved the account's plans stream first.
const maxRetries = 10

// Service records plan changes. It is safe for concurrent use.
type Service struct {
	store *eventstore.Store
	clock kernel.Clock
	// wait, when set, returns once the readers have applied key (the
	// account directory's Sync), so the next request sees the change.
	wait func(ctx context.Context, key eventstore.Key) error
}

// New returns the service; wait may be nil.
func New(store *eventstore.Store, clock kernel.Clock, wait func(context.Context, eventstore.Key) error) *Service {
	return &Service{store: store, clock: clock, wait: wait}
}

// Load folds an account's plans stream and returns it with its version.
func (s *Service) Load(ctx context.Context, accountID string) (plans.Account, int64, error) {
	envs, err := s.store.Load(ctx, plans.Stream(accountID), eventstore.LoadOptions{})
	if err != nil {
		return plans.Account{}, 0, fmt.Errorf("load plans of %s: %w", accountID, err)
	}
	var a plans.Account
	var version int64
	for _, e := range envs {
		a.Apply(e.Event)
		version = e.StreamVersion
	}
	return a, version, nil
}

// Change records c in a transaction of its own and waits until readers
// see it; nil when it changed nothing (the same plan again, or a
// provider's report older than the last applied).
func (s *Service) Change(ctx context.Context, c plans.Change) (*plans.PlanChanged, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		a, version, err := s.Load(ctx, c.AccountID)
		if err != nil {
			return nil, err
		}
		ev := a.Decide(c, s.clock.Now().UTC())
		if ev == nil {
			return nil, nil
		}
		app, err := s.store.Append(ctx, stream(c.AccountID), version, ev)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxRetries {
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.wait != nil {
			if err := s.wait(ctx, app.Last); err != nil {
				return ev, err
			}
		}
		return ev, nil
	}
}

// ChangeTx records c inside the caller's transaction tx (with the events
// that cause it). A concurrent change of the same account makes the append
// clash (a conflict error): the caller's transaction then rolls back and
// decides again.
func (s *Service) ChangeTx(ctx context.Context, tx *sql.Tx, c plans.Change) (*plans.PlanChanged, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	a, version, err := s.Load(ctx, c.AccountID)
	if err != nil {
		return nil, err
	}
	ev := a.Decide(c, s.clock.Now().UTC())
	if ev == nil {
		return nil, nil
	}
	if _, err := s.store.AppendTx(ctx, tx, stream(c.AccountID), version, ev); err != nil {
		return nil, err
	}
	return ev, nil
}

func stream(accountID string) eventstore.Stream {
	return eventstore.Stream{Type: plans.StreamType, ID: plans.Stream(accountID)}
}

// Package briefing runs the agent-briefing context's commands: ingesting
// observations (a batch is one event, a resubmitted observation is left
// out), running the six algorithms for a day (their findings are events
// on the day's stream, so a rerun adds nothing it found before), and an
// agent's consumption of a signal (one event per agent and signal, the
// first append wins, as a consumer group commits an offset once).
package briefing

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Config wires the service.
type Config struct {
	// Agents is the agent mapping (briefing.NewAgents).
	Agents briefing.Agents
	// Wait blocks until the read model has applied the event at key (read
	// your writes); nil: do not wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// CatchUpWait bounds how long a run waits for the read model to show
	// every observation committed before it (default 2 minutes).
	CatchUpWait time.Duration
}

// Service runs the briefing commands.
type Service struct {
	store *eventstore.Store
	clock kernel.Clock
	log   *slog.Logger
	cfg   Config
	types *lru.Cache[string, string] // signal id -> type, for consumes
}

// signalTypesCached bounds the signal types a process remembers.
const signalTypesCached = 100_000

// New returns the service.
func New(store *eventstore.Store, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.CatchUpWait <= 0 {
		cfg.CatchUpWait = 2 * time.Minute
	}
	types, _ := lru.New[string, string](signalTypesCached)
	return &Service{store: store, clock: clock, log: log, cfg: cfg, types: types}
}

// Agents is the agent mapping.
func (s *Service) Agents() briefing.Agents { return s.cfg.Agents }

// Now is the service's clock at microseconds (what PostgreSQL keeps).
func (s *Service) Now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Agent finds an agent by name: an unknown one is invalid, naming the
// known ones.
func (s *Service) Agent(name string) (briefing.Agent, error) {
	a, ok := s.cfg.Agents.Lookup(name)
	if !ok {
		return a, &kernel.Error{Kind: kernel.KindInvalid, Field: "agent", Rule: "known_agent",
			Message: fmt.Sprintf("unknown agent %q; known agents: %s", name, strings.Join(s.cfg.Agents.Names(), ", "))}
	}
	return a, nil
}

// settle waits for the read model to apply key.
func (s *Service) settle(ctx context.Context, key eventstore.Key) error {
	if s.cfg.Wait == nil || key == (eventstore.Key{}) {
		return nil
	}
	return s.cfg.Wait(ctx, key)
}

// catchUp waits until the read model shows every event committed before
// it was called: a run reads the observations from the read model.
func (s *Service) catchUp(ctx context.Context) error {
	if s.cfg.Wait == nil {
		return nil
	}
	var k eventstore.Key
	err := s.store.DB().QueryRowContext(ctx, `SELECT transaction_id::text::bigint, position FROM es.events
		ORDER BY transaction_id DESC, position DESC LIMIT 1`).Scan(&k.TransactionID, &k.Position)
	if err != nil {
		return nil // an empty store: nothing to wait for
	}
	wctx, cancel := context.WithTimeout(ctx, s.cfg.CatchUpWait)
	defer cancel()
	return s.cfg.Wait(wctx, k)
}

// newID mints an id (UUID version 7: sorts in creation order).
func newID() string { return uuid.Must(uuid.NewV7()).String() }

package main

import (
	"fmt"
	"log/slog"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/projections/catalog"
)

// App is what bounded contexts get to build their projectors and routes.
type App struct {
	Store  *eventstore.Store
	Runner *projections.Runner
	Clock  kernel.Clock
	IDs    kernel.IDs
	Logger *slog.Logger
}

// Wiring is the explicit list of everything Strata runs: the event types of
// every context (no init(), no reflection), the projectors, and the routes
// each context adds to a surface. Tests pass their own.
type Wiring struct {
	// Events registers every event type with its current version and upcasters.
	Events func(reg *eventstore.Registry) error
	// Projectors returns the projectors to run live and to rebuild.
	Projectors func(reg *eventstore.Registry) []projections.Projector
	// Routes adds a context's routes to the named surface's router.
	Routes func(surface string, r *mux.Router, app *App)
}

// productionWiring is the wiring of `strata` itself.
var productionWiring = Wiring{
	Events: func(reg *eventstore.Registry) error {
		return nil // bounded contexts register their events here as they land
	},
	Projectors: func(reg *eventstore.Registry) []projections.Projector {
		return []projections.Projector{catalog.New(reg.Names())}
	},
	Routes: func(string, *mux.Router, *App) {},
}

// registry builds and seals the registry; start-up stops on any error.
func (w Wiring) registry() (*eventstore.Registry, error) {
	reg := eventstore.NewRegistry()
	if w.Events != nil {
		if err := w.Events(reg); err != nil {
			return nil, fmt.Errorf("event registry: %w", err)
		}
	}
	if err := reg.Seal(); err != nil {
		return nil, fmt.Errorf("event registry: %w", err)
	}
	return reg, nil
}

func (w Wiring) projectors(reg *eventstore.Registry) []projections.Projector {
	if w.Projectors == nil {
		return nil
	}
	return w.Projectors(reg)
}

package main

import (
	"context"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// projectedApp opens the store for a command with one context's projector
// running in this process, so the command reads what it wrote: an App
// with the store, and wait (read your writes on that projector). stop
// ends the projector and closes the database.
func (c *command) projectedApp(ctx context.Context, p projections.Projector) (app *App, wait func(context.Context, eventstore.Key) error, stop func(), err error) {
	reg, db, err := c.open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), c.logger, projections.Config{PollInterval: 50 * time.Millisecond}, p)
	if err != nil {
		db.close()
		return nil, nil, nil, err
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(rctx) }()
	app = &App{Config: c.cfg, Store: store, Clock: clock, Logger: c.logger}
	wait = func(ctx context.Context, key eventstore.Key) error { return runner.WaitFor(ctx, key, p.Name()) }
	return app, wait, func() { cancel(); <-done; db.close() }, nil
}

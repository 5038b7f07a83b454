package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections/accounts"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
)

// creditsContext is the running credit ledger of the gateway: the
// in-memory view of every account's ledger, the ledger's commands, the
// debit recorder and its flusher, the requests-per-hour limiter, the
// billing the chat routes call and the credits' HTTP layer.
type creditsContext struct {
	View    *projgateway.CreditsView
	Ledger  *cmdgateway.Ledger
	Billing *cmdgateway.Billing
	API     *readgateway.CreditsAPI
}

// newLedger returns the ledger's commands over the store, reading plans
// (and identity's legacy credit balance, carried over once) from the
// account directory; view may be nil (the CLI: every decision folds the
// account's stream).
func newLedger(store *eventstore.Store, clock kernel.Clock, dir *accounts.Directory, view *projgateway.CreditsView, wait time.Duration) *cmdgateway.Ledger {
	legacy := func(id string) int64 {
		u, _ := dir.User(id)
		return u.Credits
	}
	return cmdgateway.NewLedger(store, clock, cmdgateway.Entitlements(dir, legacy), view, wait)
}

// startGatewayCredits starts the credit ledger: the view loads the
// ledger's read model and catches up, then tails the store (woken by
// commit notifications); the debits are journaled under the data
// directory (gateway-debits/<process>) and spooled into PostgreSQL off the
// request path; the billing's flusher turns recorded debits into ledger
// events and its plans reaction grants a new gateway plan's
// credits; the metrics join /metrics. It needs the identity context (the
// plans) and runs after startGateway.
func startGatewayCredits(ctx context.Context, app *App) error {
	if app.Gateway == nil || app.Identity == nil {
		return fmt.Errorf("gateway credits: the identity and gateway contexts must start first")
	}
	dir := app.Identity.Service.Directory()
	view := projgateway.NewCreditsView(app.Store.DB(), app.Store.Registry(), app.Logger)
	wait := time.Duration(app.Config.ReadWaitLimit) * time.Millisecond
	ledger := newLedger(app.Store, app.Clock, dir, view, wait)
	rec := cmdgateway.NewRecorder(app.Store, app.Clock, view, cmdgateway.RecorderConfig{Logger: app.Logger,
		JournalDir: filepath.Join(app.Config.DataDir, "gateway-debits")})
	limiter := cmdgateway.NewRateLimiterWith(app.Store.DB(), app.Clock, cmdgateway.LimiterConfig{Logger: app.Logger})
	billing := cmdgateway.NewBilling(cmdgateway.BillingConfig{Ledger: ledger, Recorder: rec,
		Limiter: limiter, View: view, PlansSync: dir.Sync, Logger: app.Logger})
	if err := view.Start(ctx); err != nil { // after NewBilling, which hooks the view
		return fmt.Errorf("gateway credits: %w", err)
	}
	app.Gateway.Credits = &creditsContext{View: view, Ledger: ledger, Billing: billing,
		API: readgateway.NewCredits(readgateway.CreditsConfig{Billing: billing, Auth: app.Auth, DB: app.Store.DB(), Logger: app.Logger})}
	app.Go(func(ctx context.Context) { view.Run(ctx, app.Wake.Wait, time.Second) })
	app.Go(billing.Run)
	if app.Metrics != nil {
		if err := app.Metrics.Register(newGatewayCollector(billing)); err != nil {
			return fmt.Errorf("gateway credits: metrics: %w", err)
		}
	}
	return nil
}

// ledgerCredits is what identity's key verification and /auth/me read
// from the ledger (readidentity.Options.Credits), nil before the gateway
// runs.
func (app *App) ledgerCredits() func(ctx context.Context, accountID string) (int64, int64, error) {
	if app.Gateway == nil || app.Gateway.Credits == nil {
		return nil
	}
	return app.Gateway.Credits.API.IdentityCredits
}

// creditsAPI is the credits' HTTP layer (the routes and the chat routes'
// hook), nil before the gateway runs.
func (g *gatewayContext) creditsAPI() *readgateway.CreditsAPI {
	if g.Credits == nil {
		return nil
	}
	return g.Credits.API
}

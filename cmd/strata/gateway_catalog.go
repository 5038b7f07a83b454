package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gorilla/mux"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
)

// gatewayContext is the running inference gateway: its model catalog (the
// commands, the in-memory view every request reads, and the resolver the
// chat routes call).
type gatewayContext struct {
	Catalog     *cmdgateway.Catalog
	CatalogView *projgateway.CatalogView
	CatalogAPI  *readgateway.CatalogAPI
	// Upstreams calls the configured upstreams (STRATA_GATEWAY_UPSTREAMS).
	Upstreams *cmdgateway.Upstreams
	// Credits is the credit ledger (startGatewayCredits).
	Credits *creditsContext
}

// startGateway builds the gateway's catalog: it imports the built-in
// development catalog unless an operator manages the catalog (`strata
// models import`), folds the catalog into the view, and tails it (woken by
// commit notifications, polling every second). Catalog commands wait for
// the view, bounded by STRATA_READ_WAIT_MS. It needs the identity context
// (credentials, and the plans that give a caller's tier).
func startGateway(ctx context.Context, app *App) error {
	view := projgateway.NewCatalogView(app.Store, app.Logger)
	wait := func(ctx context.Context, version int64) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return view.Sync(wctx, version)
	}
	cmds := cmdgateway.NewCatalog(app.Store, app.Clock, wait)
	if app.Config.Production {
		app.Logger.Info("gateway catalog: STRATA_ENV=production: the built-in development catalog is not applied; import yours with strata models import")
	} else {
		res, err := cmds.ImportBuiltin(ctx)
		if err != nil {
			return fmt.Errorf("gateway catalog: import the built-in catalog: %w", err)
		}
		switch {
		case res.Skipped:
			app.Logger.Info("gateway catalog: managed by an operator; the built-in catalog is not applied", "version", res.Version)
		case !res.Unchanged:
			app.Logger.Info("gateway catalog: imported the built-in development catalog", "version", res.Version, "hash", res.Hash)
		}
	}
	if err := view.CatchUp(ctx); err != nil {
		return err
	}
	app.Gateway = &gatewayContext{Catalog: cmds, CatalogView: view, CatalogAPI: readgateway.NewCatalog(readgateway.CatalogConfig{
		View: view, Auth: app.Auth, Plans: app.Identity.Service.Directory()}),
		Upstreams: cmdgateway.NewUpstreams(app.Config.GatewayUpstreams, nil)}
	app.Gateway.Upstreams.RefuseDevelopment = app.Config.Production
	if len(app.Config.GatewayUpstreams) == 0 {
		app.Logger.Warn("gateway: no upstream configured; chat requests answer 503 until " + cmdgateway.UpstreamsEnv +
			" names an upstream configuration file")
	}
	app.Go(func(ctx context.Context) { view.Run(ctx, app.Wake.Wait, time.Second) })
	return nil
}

// gatewayRoutes serves the gateway's routes on the platform API.
func gatewayRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Gateway == nil {
		return
	}
	chat := readgateway.ChatConfig{Catalog: app.Gateway.CatalogAPI, Auth: app.Auth, Upstreams: app.Gateway.Upstreams, Logger: app.Logger}
	if c := app.Gateway.creditsAPI(); c != nil {
		chat.Credits = c
	}
	readgateway.Routes(r, readgateway.Config{Catalog: app.Gateway.CatalogAPI, Chat: readgateway.NewChat(chat),
		Credits: app.Gateway.creditsAPI()})
}

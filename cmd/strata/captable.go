package main

import (
	"context"
	"time"

	"github.com/gorilla/mux"

	cmdcaptable "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/eventstore"
	projcaptable "github.com/strata-platform/strata/projections/captable"
	readcaptable "github.com/strata-platform/strata/readapi/captable"
)

// startCaptable builds the cap table's service: tokens signed with a key
// derived from the master key, platform sign-in verified against the
// platform's JWKS, read-your-writes through its projector.
func startCaptable(ctx context.Context, app *App) error {
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projcaptable.Name)
	}
	issuer := app.Config.Issuer
	svc := cmdcaptable.New(app.Store, app.Clock, app.IDs, app.Logger, cmdcaptable.Config{
		TokenKey:     app.Identity.Master.Derive("captable access tokens"),
		Issuer:       issuer + "#captable",
		Wait:         wait,
		PlatformKeys: cmdcaptable.NewJWKSVerifier(ctx, issuer, issuer+"/.well-known/jwks.json"),
	})
	app.Captable = svc
	app.Go(svc.Run)
	return nil
}

// captableRoutes serves the cap table on its own surface.
func captableRoutes(surface string, r *mux.Router, app *App) {
	if surface == "captable" && app.Captable != nil {
		readcaptable.Routes(r, app.Captable, app.Store.DB())
	}
}

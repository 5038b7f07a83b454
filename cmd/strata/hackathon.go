package main

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	cmdhackathon "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/eventstore"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
	"github.com/strata-platform/strata/readapi/httpx"
)

// startHackathon builds the hackathon service: read-your-writes through its
// projector (bounded by STRATA_READ_WAIT_MS), invitations through the
// platform's mailer, submission files in the blob store.
func startHackathon(ctx context.Context, app *App) error {
	blobStore, err := openBlobStore(ctx, app.Config)
	if err != nil {
		return err
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projhackathon.Name)
	}
	cfg := cmdhackathon.Config{Wait: wait, BaseURL: app.Config.HackathonURL, Blobs: blobStore}
	if app.Identity != nil {
		cfg.Mailer = app.Identity.Mailer
	}
	app.Hackathon = cmdhackathon.New(app.Store, app.Clock, app.Logger, cfg)
	return nil
}

// hackathonRoutes serves the hackathon service on its own surface.
func hackathonRoutes(surface string, r *mux.Router, app *App) {
	if surface != "hackathon" || app.Hackathon == nil || app.Auth == nil {
		return
	}
	readhackathon.Routes(r, readhackathon.Config{Service: app.Hackathon, DB: app.Store.DB(), Auth: app.Auth,
		Limiter: httpx.NewSharedWindowLimiter(readhackathon.DefaultRate, ratelimit.New(app.Store.DB(), app.Clock))})
}

// hackathonBodyLimits lets the submission file route take a file's size.
func hackathonBodyLimits(surface string, app *App) func(*http.Request) int64 {
	if surface != "hackathon" || app.Hackathon == nil {
		return nil
	}
	return readhackathon.BodyLimit(app.Hackathon.MaxFileBytes())
}

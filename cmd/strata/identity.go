package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gorilla/mux"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/commands/signin"
	"github.com/strata-platform/strata/projections/accounts"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/oauth"
)

// identityContext is the running identity context.
type identityContext struct {
	Service *cmdidentity.Service
	Auth    *readidentity.Authenticator
	Master  *cmdidentity.MasterKey
	// SignIn is the one sign-in throttle of every surface (platform login,
	// the OAuth sign-in page, the cap table's login), in PostgreSQL.
	SignIn *signin.Limiter
	// Mailer sends the platform's mail (identity's, and other contexts'
	// invitations).
	Mailer mail.Sender
}

// newIdentity builds the identity service from the configuration (master
// key, mail) without starting it.
func newIdentity(app *App) (*identityContext, error) {
	cfg := app.Config
	master, err := cmdidentity.LoadMasterKey(cfg.MasterKey, filepath.Join(cfg.DataDir, "master.key"))
	if err != nil {
		return nil, err
	}
	mailer, err := mail.New(cfg.SMTPURL, filepath.Join(cfg.DataDir, "mail"), app.Logger)
	if err != nil {
		return nil, fmt.Errorf("STRATA_SMTP_URL: %w", err)
	}
	dir := accounts.New(app.Store.DB(), app.Store.Registry(), app.Logger)
	throttle := signin.New(app.Store.DB(), app.Clock, master.Derive(cmdidentity.SignInKeyPurpose))
	svc := cmdidentity.NewService(app.Store, dir, master, mailer, app.Clock, app.Logger, cmdidentity.Config{
		Issuer: cfg.Issuer, ResetURL: cfg.ResetURL, ReadWait: time.Duration(cfg.ReadWaitLimit) * time.Millisecond,
		SignIn: throttle, Limits: ratelimit.NewUses(app.Store.DB(), app.Clock)})
	return &identityContext{Service: svc, Auth: readidentity.NewAuthenticator(svc), Master: master, SignIn: throttle, Mailer: mailer}, nil
}

// startIdentity catches the identity directory up, makes sure a signing key
// exists, and runs the directory's tail and the service's background work.
func startIdentity(ctx context.Context, app *App) error {
	id, err := newIdentity(app)
	if err != nil {
		return err
	}
	if err := id.Service.Start(ctx); err != nil {
		return fmt.Errorf("identity: %w", err)
	}
	app.Identity, app.Auth = id, id.Auth
	app.Plans = cmdplans.New(app.Store, app.Clock, id.Service.Directory().Sync)
	app.Go(func(ctx context.Context) { id.Service.Directory().Run(ctx, app.Wake.Wait, time.Second) })
	app.Go(id.Service.Run)
	return nil
}

// identityRoutes serves the identity context on the platform API.
func identityRoutes(surface string, r *mux.Router, app *App) {
	if surface == "api" && app.Identity != nil {
		readidentity.Routes(r, app.Identity.Service, app.Identity.Auth, readidentity.Options{TestAuth: app.Config.TestAuth,
			Social: app.Config.Social, Credits: app.ledgerCredits()})
		oauth.Routes(r, app.Identity.Service, app.Identity.Auth)
	}
}

package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmdcaptable "github.com/strata-platform/strata/commands/captable"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections/accounts"
	projcaptable "github.com/strata-platform/strata/projections/captable"
	readcaptable "github.com/strata-platform/strata/readapi/captable"
	readidentity "github.com/strata-platform/strata/readapi/identity"
)

// startCaptable builds the cap table's service: tokens signed with a key
// derived from the master key, platform sign-in verified by the platform's
// own authenticator (revocations included), read-your-writes through its
// projector.
func startCaptable(ctx context.Context, app *App) error {
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projcaptable.Name)
	}
	issuer := app.Config.Issuer
	blobStore, err := openBlobStore(ctx, app.Config)
	if err != nil {
		return fmt.Errorf("blob store: %w", err)
	}
	svc := cmdcaptable.New(app.Store, app.Clock, app.IDs, app.Logger, cmdcaptable.Config{
		TokenKey:       app.Identity.Master.Derive("captable access tokens"),
		SignIn:         app.Identity.SignIn, // one sign-in throttle for both surfaces
		Issuer:         issuer + "#captable",
		Wait:           wait,
		PlatformTokens: platformTokens{app.Identity.Auth},
		Blobs:          blobStore,
		MaxUploadBytes: app.Config.MaxUploadBytes,
		PlanOf:         captablePlanOf(app.Identity.Service.Directory()),
		ChangePlan:     captableChangePlan(app.Plans),
	})
	app.Captable = svc
	app.Go(svc.Run)
	return nil
}

// platformTokens verifies platform access tokens for the cap table's
// platform sign-in with the platform's authenticator, so a token the
// platform refuses (logged out, issued before a password change, a revoked
// grant, an inactive account) signs in nowhere.
type platformTokens struct{ auth *readidentity.Authenticator }

// VerifyPlatformToken implements cmdcaptable.PlatformTokenVerifier.
func (p platformTokens) VerifyPlatformToken(ctx context.Context, token string) (cmdcaptable.PlatformUser, error) {
	h, err := p.auth.VerifyToken(ctx, token)
	if err != nil {
		return cmdcaptable.PlatformUser{}, err
	}
	return cmdcaptable.PlatformUser{ID: h.UserID, Email: h.Email, EmailVerified: h.EmailVerified, Name: h.FullName}, nil
}

// captableBodyLimits lets document uploads on the cap table surface exceed
// the surface's body limit, up to the document size limit.
func captableBodyLimits(surface string, app *App) func(*http.Request) int64 {
	if surface != "captable" || app.Captable == nil {
		return nil
	}
	return readcaptable.BodyLimit(app.Captable.MaxUpload())
}

// captableRoutes serves the cap table on its own surface.
func captableRoutes(surface string, r *mux.Router, app *App) {
	if surface == "captable" && app.Captable != nil {
		readcaptable.Routes(r, app.Captable, app.Store.DB())
	}
}

// captableCmd runs `strata captable set-plan EMAIL PLAN`: it puts a cap-table
// account on FREE, STARTER, PROFESSIONAL or ENTERPRISE (its monthly quota and
// per-minute burst). A running server sees it on the account's next call.
func (c *command) captableCmd(ctx context.Context, args []string) error {
	const use = "captable set-plan EMAIL FREE|STARTER|PROFESSIONAL|ENTERPRISE"
	if len(args) != 3 || args[0] != "set-plan" {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	svc := cmdcaptable.New(store, clock, eventstore.NewULIDs(clock), c.logger, cmdcaptable.Config{
		ChangePlan: captableChangePlan(cmdplans.New(store, clock, nil))})
	plan := strings.ToUpper(args[2])
	if err := svc.SetPlan(ctx, args[1], plan); err != nil {
		return err
	}
	if _, err := db.SQL.ExecContext(ctx, `SELECT pg_notify('`+eventstore.NotifyChannel+`', '')`); err != nil {
		return err // stored; running servers see it at their next poll
	}
	fmt.Fprintf(c.stdout, "%s is on the %s plan of the cap table\n", args[1], plan)
	return nil
}

// captablePlanOf reads cap-table accounts' plans from the platform's plans
// (the account directory folds them), in the cap table's spelling.
func captablePlanOf(dir *accounts.Directory) func(string) (string, bool) {
	return func(account string) (string, bool) {
		_, p, ok := dir.Plan(account, plans.LineCaptable)
		if !ok {
			return "", false
		}
		return strings.ToUpper(p.ID), true
	}
}

// captableChangePlan records cap-table plan changes through the plans
// service.
func captableChangePlan(svc *cmdplans.Service) func(context.Context, string, string) error {
	if svc == nil {
		return nil
	}
	return func(ctx context.Context, account, plan string) error {
		_, err := svc.Change(ctx, plans.Change{AccountID: account, Line: plans.LineCaptable, Plan: strings.ToLower(plan),
			Source: plans.SourceOperator})
		return err
	}
}

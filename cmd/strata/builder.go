package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gorilla/mux"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/domain/builder/deck"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections/foundersessions"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
)

// builderClientID names the builder's OAuth client registration. It
// depends on the redirect URI, so moving the builder to another address
// registers a new client instead of failing the redirect check.
func builderClientID(redirect string) string {
	sum := sha256.Sum256([]byte(redirect))
	return "strata-builder-" + hex.EncodeToString(sum[:6])
}

// startBuilder registers the builder surface as a first-party confidential
// client of the platform's OAuth provider and builds its founder sessions.
func startBuilder(ctx context.Context, app *App) error {
	base := app.Config.BuilderURL
	redirect := base + "/auth/callback"
	id := builderClientID(redirect)
	secret, err := app.Identity.Service.EnsureFirstPartyClient(ctx, id, "Strata builder", []string{redirect})
	if err != nil {
		return fmt.Errorf("builder: register OAuth client for %s: %w", redirect, err)
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, foundersessions.Name)
	}
	sessions, err := cmdbuilder.NewSessions(app.Store, wait, app.Clock, app.Logger, cmdbuilder.Config{
		Issuer: app.Config.Issuer, ClientID: id, ClientSecret: secret, RedirectURL: redirect,
		Key: app.Identity.Master.Derive("builder founder sessions")})
	if err != nil {
		return err
	}
	app.Founders = sessions
	blobStore, err := openBlobStore(ctx, app.Config)
	if err != nil {
		return fmt.Errorf("builder: blob store: %w", err)
	}
	cfg := cmdbuilder.ChatsConfig{Store: app.Store, Blobs: blobStore, Jobs: app.Jobs, Clock: app.Clock, IDs: app.IDs, Logger: app.Logger}
	artsCfg := cmdbuilder.ArtifactsConfig{Store: app.Store, Clock: app.Clock, IDs: app.IDs, Logger: app.Logger}
	if app.Config.BuilderModel.BaseURL != "" {
		model := cmdbuilder.NewModelGenerator(app.Config.BuilderModel)
		cfg.Model = model
		if artsCfg.Writer, err = cmdbuilder.NewModelWriter(model); err != nil {
			return fmt.Errorf("builder: %w", err)
		}
		artsCfg.Answerer = cmdbuilder.NewModelAnswerer(model)
	}
	chats, err := cmdbuilder.NewChats(cfg)
	if err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	app.Chats = chats
	artsCfg.Chats = chats
	arts, err := cmdbuilder.NewArtifacts(artsCfg)
	if err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	app.Artifacts = arts
	secrets, err := cmdbuilder.NewSecrets(cmdbuilder.SecretsConfig{Store: app.Store, Chats: chats, Clock: app.Clock,
		WrappingKey: app.Identity.Master.Derive("builder app secrets"),
		DeployedAt: func(ctx context.Context, companyID string) (time.Time, bool, error) {
			if app.Deploys == nil {
				return time.Time{}, false, nil
			}
			return app.Deploys.DeployedAt(ctx, companyID)
		}})
	if err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	app.Secrets = secrets
	if app.Systems, app.Nightly, err = newBuilderSystems(builderSystemsDeps{Store: app.Store, Chats: chats, Keys: app.Keys,
		Master: app.Identity.Master, BaseURL: app.Config.BuilderURL, Jobs: app.Jobs, Clock: app.Clock, IDs: app.IDs, Logger: app.Logger}); err != nil {
		return err
	}
	return startBuilderRuntime(app, chats)
}

// startBuilderRuntime runs founders' apps (previews and redeploys) as
// node processes on loopback ports (commands/builder/runtime); without
// node on PATH the builder serves the apps' files, and their servers
// answer 503.
func startBuilderRuntime(app *App, chats *cmdbuilder.Chats) error {
	dir := filepath.Join(app.Config.DataDir, "builder")
	rt, err := runtime.NewProcess(runtime.ProcessConfig{DataDir: filepath.Join(dir, "data"), Logger: app.Logger})
	if err != nil {
		app.Logger.Warn("builder: apps cannot run here, previews serve their files only", "error", err)
		return nil
	}
	deployer := runtime.NewDeployer(rt, runtime.Probe{}, app.Logger)
	app.Deploys = cmdbuilder.NewDeploys(cmdbuilder.DeploysConfig{Chats: chats, Store: app.Store, Clock: app.Clock, Deployer: deployer,
		AppsDir: filepath.Join(dir, "apps"), Secrets: app.Secrets.Env, AppEnv: app.Systems.AddAppEnv, Logger: app.Logger})
	app.Go(func(ctx context.Context) {
		<-ctx.Done()
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := deployer.Close(cctx); err != nil {
			app.Logger.Error("builder: stopping the apps", "error", err)
		}
	})
	return nil
}

// builderRoutes serves founder sessions and the generation routes on the
// builder surface.
func builderRoutes(surface string, r *mux.Router, app *App) {
	if surface != "builder" || app.Founders == nil {
		return
	}
	readbuilder.OpenAPIRoutes(r)
	founders := readbuilder.Routes(r, app.Founders, app.Store.DB(), app.Clock, readbuilder.SecureURL(app.Config.BuilderURL))
	if app.Chats != nil {
		cfg := readbuilder.ChatConfig{Chats: app.Chats, Store: app.Store, Founders: founders, Wake: app.Wake.Wait, BaseURL: app.Config.BuilderURL}
		if app.Deploys != nil {
			cfg.Preview = app.Deploys
			readbuilder.DeployRoutes(r, founders, app.Deploys)
		}
		readbuilder.ChatRoutes(r, readbuilder.NewChat(cfg))
		readbuilder.ArtifactRoutes(r, readbuilder.NewArtifactAPI(app.Artifacts))
		if app.Secrets != nil {
			readbuilder.SecretRoutes(r, founders, app.Secrets)
		}
		if app.Systems != nil {
			readbuilder.SystemsRoutes(r, founders, app.Systems, app.Nightly)
		}
		readbuilder.DeckRoutes(r, founders, app.Chats, cmdbuilder.DeckSources{Paid: paidPlatformPlan(app), Artifacts: recordedArtifacts(app.Artifacts),
			Systems: app.Systems.DeckLines})
	}
}

// paidPlatformPlan reports whether an account's platform plan is a paid
// one (the builder's deck is a paid feature): the account directory's
// plans, the one source of plans.
func paidPlatformPlan(app *App) func(accountID string) bool {
	dir := app.Identity.Service.Directory()
	return func(accountID string) bool {
		_, p, ok := dir.Plan(accountID, plans.LinePlatform)
		return ok && p.Paid
	}
}

// recordedArtifacts gives the deck a company's recorded artifacts.
func recordedArtifacts(a *cmdbuilder.Artifacts) func(ctx context.Context, companyID string) ([]deck.Slide, error) {
	return func(ctx context.Context, companyID string) ([]deck.Slide, error) {
		recs, _, err := a.Recorded(ctx, companyID)
		if err != nil {
			return nil, err
		}
		return cmdbuilder.ArtifactSlides(recs), nil
	}
}

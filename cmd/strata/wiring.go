package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	cmdcaptable "github.com/strata-platform/strata/commands/captable"
	cmdcommunity "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	cmddata "github.com/strata-platform/strata/commands/datamarket"
	cmdhackathon "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/commands/jobs"
	cmdmemory "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/commands/memory/actions"
	cmdpayments "github.com/strata-platform/strata/commands/payments"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	cmdvoice "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/community"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/datamarket"
	gwcatalog "github.com/strata-platform/strata/domain/gateway/catalog"
	gwcredits "github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projaudit "github.com/strata-platform/strata/projections/audit"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
	projcaptable "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/projections/catalog"
	projcommunity "github.com/strata-platform/strata/projections/community"
	projcontent "github.com/strata-platform/strata/projections/content"
	projdata "github.com/strata-platform/strata/projections/datamarket"
	"github.com/strata-platform/strata/projections/foundersessions"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
	projmemory "github.com/strata-platform/strata/projections/memory"
	projpayments "github.com/strata-platform/strata/projections/payments"
	projvoice "github.com/strata-platform/strata/projections/voice"
	"github.com/strata-platform/strata/readapi/auth"
)

// App is what bounded contexts get to build their services and routes.
type App struct {
	Store  *eventstore.Store
	Runner *projections.Runner
	Clock  kernel.Clock
	IDs    kernel.IDs
	Logger *slog.Logger
	Wake   *projections.Signal // fired when events commit
	Config Config
	// Go runs fn in the background until the server stops; serve waits
	// for it before closing the database.
	Go func(fn func(ctx context.Context))
	// Identity is the platform identity context; Auth authenticates the
	// platform's credentials for every context.
	Identity *identityContext
	Auth     auth.Authenticator
	// Founders are the builder's founder sessions.
	Founders *cmdbuilder.Sessions
	// Chats run the builder's generations.
	Chats *cmdbuilder.Chats
	// Deploys run founders' apps (previews, redeploys); nil without node.
	Deploys *cmdbuilder.Deploys
	// Artifacts produce planning artifacts and answer the Ask thread.
	Artifacts *cmdbuilder.Artifacts
	// Secrets keep founders' app runtime secrets (sealed, never in events).
	Secrets *cmdbuilder.Secrets
	// Systems keep companies' business records; Nightly runs their loop.
	Systems *cmdbuilder.Systems
	Nightly *cmdbuilder.Nightly
	// Captable is the cap table's command service.
	Captable *cmdcaptable.Service
	// Community runs community events, RSVPs and comments.
	Community *cmdcommunity.Service
	// Hackathon runs hackathons, teams, submissions and judging.
	Hackathon *cmdhackathon.Service
	// Audit runs the agent-readiness audit.
	Audit *cmdaudit.Service
	// Data runs the data marketplace's imports and retractions.
	Data *cmddata.Service
	// Briefing runs the agent briefing: observations, the six daily
	// algorithms, signal consumption.
	Briefing *cmdbriefing.Service
	// Voice runs calls, SMS, contacts, numbers and compliance.
	Voice      *cmdvoice.Service
	voiceParts *voiceParts
	// Keys seal personal data in event payloads (crypto-shredding).
	Keys *shred.KeyRing
	// Memory runs the memory service's commands.
	Memory *cmdmemory.Service
	// Jobs is the platform's background jobs: contexts declare their kinds
	// and periodic jobs in Start (jobs.Handle, Jobs.Schedule) and enqueue in
	// their appends' transactions; serve starts the work after Start.
	Jobs *jobs.Service
	// Payments runs checkouts, the billing portal, usage reports and the
	// provider's webhooks.
	Payments *cmdpayments.Service
	// Plans records plan changes: every account's plan in every product
	// line, which every context reads through the account directory.
	Plans *cmdplans.Service
	// Gateway is the inference gateway: its model catalog (commands, the
	// in-memory view, the resolver the chat routes call).
	Gateway *gatewayContext
	// Metrics is the /metrics registry, for contexts' collectors.
	Metrics prometheus.Registerer
	// Connections keeps the accounts owners connect at outside providers
	// (social platforms, write-back providers).
	Connections *connections.Service
	platforms   map[string]platforms.Platform
	actions     *actions.Service
	content     *contentParts
}

// Wiring is the explicit list of everything Strata runs: the event types of
// every context (no init(), no reflection), the projectors, and the routes
// each context adds to a surface. Tests pass their own.
type Wiring struct {
	// Events registers every event type with its current version and upcasters.
	Events func(reg *eventstore.Registry) error
	// Projectors returns the projectors to run live and to rebuild; keys
	// open the personal data sealed in events.
	Projectors func(reg *eventstore.Registry, keys *shred.KeyRing) []projections.Projector
	// Start builds the contexts' services once the store runs (before any
	// route is added) and starts their background work with app.Go.
	Start func(ctx context.Context, app *App) error
	// Routes adds a context's routes to the named surface's router.
	Routes func(surface string, r *mux.Router, app *App)
	// BodyLimits returns the named surface's body limit overrides (upload
	// routes), or nil.
	BodyLimits func(surface string, app *App) func(*http.Request) int64
	// Checks returns the named surface's own readiness checks, or nil.
	Checks func(surface string, app *App) func(ctx context.Context) map[string]error
	// Clock, for tests, is the time of everything serve runs, the jobs'
	// due times included (jobs.Config.DueClock): a test moves it a day
	// ahead. nil, as in production: the system clock.
	Clock kernel.Clock
}

// productionWiring is the wiring of `strata` itself.
var productionWiring = Wiring{
	Events: func(reg *eventstore.Registry) error {
		for _, evs := range [][]func() kernel.Event{identity.Events(), builder.Events(), captable.CompanyEvents(), captable.AccountEvents(),
			community.Events(), hackathon.Events(), voice.Events(), memory.Events(), payments.Events(), plans.Events(), gwcatalog.Events(), gwcredits.Events(), briefing.Events(), audit.Events(), datamarket.Events(), content.Events(), domconn.Events(), projections.Events()} {
			if err := registerAll(reg, evs); err != nil {
				return err
			}
		}
		return nil
	},
	Projectors: func(reg *eventstore.Registry, keys *shred.KeyRing) []projections.Projector {
		return []projections.Projector{catalog.New(reg.Names()), foundersessions.Projector{}, projcaptable.Projector{},
			projcommunity.Projector{}, projhackathon.Projector{}, projvoice.Projector{Keys: keys}, projmemory.Projector{Keys: keys}, projpayments.Projector{}, projgateway.CreditsProjector{}, projbriefing.Projector{}, projaudit.Projector{}, projdata.Projector{}, projcontent.Projector{}}
	},
	Start: func(ctx context.Context, app *App) error {
		if err := startIdentity(ctx, app); err != nil {
			return err
		}
		if err := startBuilder(ctx, app); err != nil {
			return err
		}
		if err := startCaptable(ctx, app); err != nil {
			return err
		}
		if err := startCommunity(ctx, app); err != nil {
			return err
		}
		if err := startHackathon(ctx, app); err != nil {
			return err
		}
		if err := startVoice(ctx, app); err != nil {
			return err
		}
		if err := startConnections(ctx, app); err != nil {
			return err
		}
		if err := startMemory(ctx, app); err != nil {
			return err
		}
		if err := startGateway(ctx, app); err != nil {
			return err
		}
		if err := startGatewayCredits(ctx, app); err != nil {
			return err
		}
		if err := startPayments(ctx, app); err != nil {
			return err
		}
		if err := startBriefing(ctx, app); err != nil {
			return err
		}
		if err := startAudit(ctx, app); err != nil {
			return err
		}
		if err := startDatamarket(ctx, app); err != nil {
			return err
		}
		if err := startContent(ctx, app); err != nil {
			return err
		}
		return startProvisioning(ctx, app)
	},
	BodyLimits: func(surface string, app *App) func(*http.Request) int64 {
		return firstLimit(captableBodyLimits(surface, app), hackathonBodyLimits(surface, app), briefingBodyLimits(surface, app),
			contentBodyLimits(surface, app))
	},
	Checks: func(surface string, app *App) func(ctx context.Context) map[string]error {
		return voiceChecks(surface, app)
	},
	Routes: func(surface string, r *mux.Router, app *App) {
		identityRoutes(surface, r, app)
		builderRoutes(surface, r, app)
		captableRoutes(surface, r, app)
		communityRoutes(surface, r, app)
		hackathonRoutes(surface, r, app)
		voiceRoutes(surface, r, app)
		memoryRoutes(surface, r, app)
		paymentsRoutes(surface, r, app)
		gatewayRoutes(surface, r, app)
		briefingRoutes(surface, r, app)
		auditRoutes(surface, r, app)
		datamarketRoutes(surface, r, app)
		contentRoutes(surface, r, app)
		discoveryRoutes(surface, r, app)
	},
}

// firstLimit combines body-limit overrides: a request's limit is the first
// non-zero one (nil when there are none).
func firstLimit(fs ...func(*http.Request) int64) func(*http.Request) int64 {
	var set []func(*http.Request) int64
	for _, f := range fs {
		if f != nil {
			set = append(set, f)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return func(r *http.Request) int64 {
		for _, f := range set {
			if n := f(r); n != 0 {
				return n
			}
		}
		return 0
	}
}

// registerAll registers event constructors at schema version 1.
func registerAll(reg *eventstore.Registry, events []func() kernel.Event) error {
	for _, c := range events {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			return err
		}
	}
	return nil
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

func (w Wiring) projectors(reg *eventstore.Registry, keys *shred.KeyRing) []projections.Projector {
	if w.Projectors == nil {
		return nil
	}
	return w.Projectors(reg, keys)
}

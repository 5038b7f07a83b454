package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
	readbriefing "github.com/strata-platform/strata/readapi/briefing"
)

// BriefingConfig is the agent briefing's configuration.
type BriefingConfig struct {
	// InternalKeys are the accepted X-Internal-API-Key values
	// (STRATA_INTERNAL_API_KEYS, comma-separated, several for rotation).
	InternalKeys []string
	// IRAlias and AcquisitionAgent are the two agent names that carry the
	// product name (STRATA_BRIEFING_IR_ALIAS, STRATA_BRIEFING_ACQUISITION_AGENT).
	IRAlias, AcquisitionAgent string
	// Cron and Zone say when the daily run happens (STRATA_BRIEFING_CRON,
	// default "0 6 * * *"; STRATA_BRIEFING_ZONE, default UTC); it runs the
	// six algorithms for the day that ended before it.
	Cron, Zone string
}

// minInternalKey is the shortest internal key accepted.
const minInternalKey = 16

func loadBriefingConfig(env map[string]string) (BriefingConfig, error) {
	get := func(k, def string) string {
		if v := strings.TrimSpace(env[k]); v != "" {
			return v
		}
		return def
	}
	c := BriefingConfig{IRAlias: get("STRATA_BRIEFING_IR_ALIAS", briefing.DefaultIRAlias),
		AcquisitionAgent: get("STRATA_BRIEFING_ACQUISITION_AGENT", briefing.DefaultAcquisitionAgent),
		Cron:             get("STRATA_BRIEFING_CRON", "0 6 * * *"), Zone: get("STRATA_BRIEFING_ZONE", "UTC")}
	for _, k := range strings.Split(env["STRATA_INTERNAL_API_KEYS"], ",") {
		if k = strings.TrimSpace(k); k == "" {
			continue
		}
		if len(k) < minInternalKey {
			return c, fmt.Errorf("STRATA_INTERNAL_API_KEYS: every key needs at least %d characters", minInternalKey)
		}
		c.InternalKeys = append(c.InternalKeys, k)
	}
	if _, err := briefing.NewAgents(c.IRAlias, c.AcquisitionAgent); err != nil {
		return c, fmt.Errorf("STRATA_BRIEFING_IR_ALIAS / STRATA_BRIEFING_ACQUISITION_AGENT: %w", err)
	}
	if _, err := jobs.ParseSchedule(c.Cron, c.Zone); err != nil {
		return c, fmt.Errorf("STRATA_BRIEFING_CRON / STRATA_BRIEFING_ZONE: %w", err)
	}
	return c, nil
}

// dailyArgs is the daily run's job: the six algorithms for Day.
type dailyArgs struct {
	Day string `json:"day"` // YYYY-MM-DD
}

func (dailyArgs) Kind() string { return "briefing.daily" }

// newBriefing builds the briefing service; wait is its read-your-writes.
func newBriefing(app *App, wait func(ctx context.Context, key eventstore.Key) error) (*cmdbriefing.Service, error) {
	bc := app.Config.Briefing
	agents, err := briefing.NewAgents(bc.IRAlias, bc.AcquisitionAgent)
	if err != nil {
		return nil, err
	}
	return cmdbriefing.New(app.Store, app.Clock, app.Logger, cmdbriefing.Config{Agents: agents, Wait: wait}), nil
}

// startBriefing builds the briefing service and declares its daily run: a
// durable periodic job (one run per intended instant, whichever process
// sees it due), for the day that ended before the run in the configured
// zone.
func startBriefing(ctx context.Context, app *App) error {
	svc, err := newBriefing(app, func(ctx context.Context, key eventstore.Key) error {
		return app.Runner.WaitFor(ctx, key, projbriefing.Name)
	})
	if err != nil {
		return err
	}
	app.Briefing = svc
	if app.Jobs == nil {
		return nil
	}
	bc := app.Config.Briefing
	zone, err := time.LoadLocation(bc.Zone)
	if err != nil {
		return err
	}
	err = jobs.Handle(app.Jobs, func(ctx context.Context, job *jobs.Job[dailyArgs]) error {
		day, err := time.Parse(time.DateOnly, job.Args.Day)
		if err != nil {
			return jobs.Permanent(fmt.Errorf("briefing.daily: day %q: %w", job.Args.Day, err))
		}
		_, err = svc.RunAll(ctx, day, briefing.TriggerSchedule)
		return err
	}, jobs.KindOptions{MaxAttempts: 5, Timeout: 10 * time.Minute})
	if err != nil {
		return err
	}
	return app.Jobs.Schedule(jobs.Periodic{Name: "briefing.daily", Cron: bc.Cron, Zone: bc.Zone,
		Args: func(at time.Time) jobs.Args {
			if at.IsZero() {
				return dailyArgs{}
			}
			return dailyArgs{Day: dayBefore(at, zone)}
		}})
}

// dayBefore is the date of the day that ended before at, in zone: what a
// daily run at at is for.
func dayBefore(at time.Time, zone *time.Location) string {
	y, m, d := at.In(zone).Date()
	return time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

// briefingBodyLimits lets the observations route take a whole batch.
func briefingBodyLimits(surface string, app *App) func(*http.Request) int64 {
	if surface != "api" || app.Briefing == nil {
		return nil
	}
	return readbriefing.BodyLimit
}

// briefingRoutes serves the briefing on the platform API.
func briefingRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Briefing == nil {
		return
	}
	readbriefing.Routes(r, readbriefing.Config{Service: app.Briefing, DB: app.Store.DB(), Keys: app.Config.Briefing.InternalKeys})
}

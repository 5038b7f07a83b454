package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/eventstore"
	projdata "github.com/strata-platform/strata/projections/datamarket"
	readdata "github.com/strata-platform/strata/readapi/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// DataConfig is the data marketplace's configuration.
type DataConfig struct {
	// Sources are the files or URLs each dataset is refreshed from on its
	// schedule (STRATA_DATA_SOURCE_<DATASET>, e.g.
	// STRATA_DATA_SOURCE_SMB_DIRECTORY); a dataset without one is only
	// imported by hand (strata data import).
	Sources map[string]string
	// Licenses are the licences recorded for scheduled imports
	// (STRATA_DATA_LICENSE_<DATASET>).
	Licenses map[string]string
	// MaxInvalidRatio is the share of rows that may break the schema
	// before a version is rejected (STRATA_DATA_MAX_INVALID, default 0.01).
	MaxInvalidRatio float64
	// Keep is how many published versions keep their rows (STRATA_DATA_KEEP, default 3).
	Keep int
	// Publisher names the datasets' publisher in their metadata
	// (STRATA_DATA_PUBLISHER, default Strata).
	Publisher string
}

// envKey is a dataset's suffix in environment variable names.
func envKey(dataset string) string {
	return strings.ToUpper(strings.ReplaceAll(dataset, "-", "_"))
}

func loadDataConfig(env map[string]string) (DataConfig, error) {
	c := DataConfig{Sources: map[string]string{}, Licenses: map[string]string{}, MaxInvalidRatio: 0.01, Keep: 3,
		Publisher: strings.TrimSpace(env["STRATA_DATA_PUBLISHER"])}
	for _, d := range datamarket.Catalog() {
		if v := strings.TrimSpace(env["STRATA_DATA_SOURCE_"+envKey(d.Key)]); v != "" {
			c.Sources[d.Key] = v
		}
		if v := strings.TrimSpace(env["STRATA_DATA_LICENSE_"+envKey(d.Key)]); v != "" {
			c.Licenses[d.Key] = v
		}
	}
	if v := strings.TrimSpace(env["STRATA_DATA_MAX_INVALID"]); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f > 1 {
			return c, fmt.Errorf("STRATA_DATA_MAX_INVALID: want a ratio above 0 and at most 1, got %q", v)
		}
		c.MaxInvalidRatio = f
	}
	if v := strings.TrimSpace(env["STRATA_DATA_KEEP"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return c, fmt.Errorf("STRATA_DATA_KEEP: want a whole number from 1 to 100, got %q", v)
		}
		c.Keep = n
	}
	return c, nil
}

// refreshArgs is a dataset's scheduled refresh.
type refreshArgs struct {
	Dataset string `json:"dataset"`
}

func (refreshArgs) Kind() string { return "datamarket.refresh" }

// newDatamarket builds the data marketplace service.
func newDatamarket(app *App, wait func(ctx context.Context, key eventstore.Key) error) *cmddata.Service {
	dc := app.Config.Data
	client := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger, Timeout: 10 * time.Minute,
		MaxResponseBytes: 4 << 30})
	return cmddata.New(app.Store, app.Clock, app.Logger, cmddata.Config{Client: client, MaxInvalidRatio: dc.MaxInvalidRatio,
		Keep: dc.Keep, Wait: wait})
}

// startDatamarket builds the service and declares each configured
// dataset's refresh: a durable periodic job at the seed's time in Pacific
// time (DST included), run once whichever process sees it due.
func startDatamarket(ctx context.Context, app *App) error {
	app.Data = newDatamarket(app, func(ctx context.Context, key eventstore.Key) error {
		return app.Runner.WaitFor(ctx, key, projdata.Name)
	})
	if app.Jobs == nil || len(app.Config.Data.Sources) == 0 {
		return nil
	}
	dc := app.Config.Data
	err := jobs.Handle(app.Jobs, func(ctx context.Context, job *jobs.Job[refreshArgs]) error {
		src, ok := dc.Sources[job.Args.Dataset]
		if !ok {
			return jobs.Permanent(fmt.Errorf("datamarket.refresh: no source is configured for %q", job.Args.Dataset))
		}
		res, err := app.Data.Import(ctx, job.Args.Dataset, cmddata.Source{Location: src, License: dc.Licenses[job.Args.Dataset], By: "schedule"}, nil)
		if err != nil {
			return err
		}
		app.Logger.Info("datamarket: refresh", "dataset", res.Dataset, "version", res.Version, "status", res.Status,
			"unchanged", res.Unchanged, "rows", res.RowsLoaded, "invalid", res.RowsInvalid, "reason", res.Reason)
		return nil
	}, jobs.KindOptions{MaxAttempts: 5, Timeout: time.Hour})
	if err != nil {
		return err
	}
	for _, d := range datamarket.Catalog() {
		if _, ok := dc.Sources[d.Key]; !ok || d.Refresh == "" {
			continue
		}
		key := d.Key
		if err := app.Jobs.Schedule(jobs.Periodic{Name: "datamarket.refresh." + key, Cron: d.Refresh, Zone: datamarket.RefreshZone,
			Args: func(time.Time) jobs.Args { return refreshArgs{Dataset: key} }}); err != nil {
			return err
		}
	}
	return nil
}

// datamarketRoutes serves the data marketplace on the platform API, its
// 60 requests a minute per address counted in PostgreSQL for every
// process.
func datamarketRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" {
		return
	}
	readdata.Routes(r, readdata.Config{DB: app.Store.DB(), Publisher: app.Config.Data.Publisher, BaseURL: app.Config.Issuer,
		Limiter: httpx.NewSharedWindowLimiter(readdata.PerMinute, ratelimit.New(app.Store.DB(), app.Clock))})
}

package main

import (
	"context"
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/commands/datamarket/enrich"
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
	// (STRATA_DATA_PUBLISHER, default Strata); ContactEmail is their
	// contact address (STRATA_DATA_CONTACT_EMAIL).
	Publisher, ContactEmail string
	// Resolver is the DNS server ("host:port") domain enrichment asks
	// (STRATA_DATA_RESOLVER); RDAPBootstrap the IANA-format RDAP bootstrap
	// file it reads registrars and ages through (STRATA_DATA_RDAP_BOOTSTRAP,
	// e.g. https://data.iana.org/rdap/dns.json). Neither set: enrichment
	// is not scheduled, and run by hand it says unknown.
	Resolver, RDAPBootstrap string
	// PerMinute is every client address's request budget
	// (STRATA_DATA_RATE_LIMIT, default 60, the seed's).
	PerMinute int
}

// enrichConfigured reports whether the weekly domains refresh enriches.
func (c DataConfig) enrichConfigured() bool { return c.Resolver != "" || c.RDAPBootstrap != "" }

// envKey is a dataset's suffix in environment variable names.
func envKey(dataset string) string {
	return strings.ToUpper(strings.ReplaceAll(dataset, "-", "_"))
}

func loadDataConfig(env map[string]string) (DataConfig, error) {
	c := DataConfig{Sources: map[string]string{}, Licenses: map[string]string{}, MaxInvalidRatio: 0.01, Keep: 3,
		Publisher: strings.TrimSpace(env["STRATA_DATA_PUBLISHER"]), ContactEmail: strings.TrimSpace(env["STRATA_DATA_CONTACT_EMAIL"])}
	if c.ContactEmail != "" {
		if _, err := mail.ParseAddress(c.ContactEmail); err != nil || strings.ContainsAny(c.ContactEmail, "<> ") {
			return c, fmt.Errorf("STRATA_DATA_CONTACT_EMAIL: want an address such as data@example.com, got %q", c.ContactEmail)
		}
	}
	for _, d := range datamarket.Catalog() {
		if v := strings.TrimSpace(env["STRATA_DATA_SOURCE_"+envKey(d.Key)]); v != "" {
			c.Sources[d.Key] = v
		}
		if v := strings.TrimSpace(env["STRATA_DATA_LICENSE_"+envKey(d.Key)]); v != "" {
			c.Licenses[d.Key] = v
		}
	}
	c.Resolver, c.RDAPBootstrap = strings.TrimSpace(env["STRATA_DATA_RESOLVER"]), strings.TrimSpace(env["STRATA_DATA_RDAP_BOOTSTRAP"])
	if c.Resolver != "" {
		if _, _, err := net.SplitHostPort(c.Resolver); err != nil {
			return c, fmt.Errorf("STRATA_DATA_RESOLVER: want host:port, got %q", c.Resolver)
		}
	}
	if c.RDAPBootstrap != "" {
		if err := checkHTTPURL(c.RDAPBootstrap); err != nil {
			return c, fmt.Errorf("STRATA_DATA_RDAP_BOOTSTRAP: %w", err)
		}
	}
	if v := strings.TrimSpace(env["STRATA_DATA_MAX_INVALID"]); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f > 1 {
			return c, fmt.Errorf("STRATA_DATA_MAX_INVALID: want a ratio above 0 and at most 1, got %q", v)
		}
		c.MaxInvalidRatio = f
	}
	c.PerMinute = readdata.PerMinute
	if v := strings.TrimSpace(env["STRATA_DATA_RATE_LIMIT"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("STRATA_DATA_RATE_LIMIT: want a whole number of requests a minute from 1, got %q", v)
		}
		c.PerMinute = n
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
	dc := app.Config.Data
	if app.Jobs == nil || (len(dc.Sources) == 0 && !dc.enrichConfigured()) {
		return nil
	}
	err := jobs.Handle(app.Jobs, func(ctx context.Context, job *jobs.Job[refreshArgs]) error {
		return refresh(ctx, app, job.Args.Dataset)
	}, jobs.KindOptions{MaxAttempts: 5, Timeout: time.Hour})
	if err != nil {
		return err
	}
	for _, d := range datamarket.Catalog() {
		_, ok := dc.Sources[d.Key]
		if !ok && (d.Key != cmddata.Domains || !dc.enrichConfigured()) || d.Refresh == "" {
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

// refresh imports a dataset from its configured source; the domains
// dataset is then enriched when a resolver or RDAP bootstrap is set.
func refresh(ctx context.Context, app *App, dataset string) error {
	dc := app.Config.Data
	log := func(res *cmddata.Result) {
		app.Logger.Info("datamarket: refresh", "dataset", res.Dataset, "version", res.Version, "status", res.Status,
			"unchanged", res.Unchanged, "rows", res.RowsLoaded, "invalid", res.RowsInvalid, "reason", res.Reason)
	}
	if src, ok := dc.Sources[dataset]; ok {
		res, err := app.Data.Import(ctx, dataset, cmddata.Source{Location: src, License: dc.Licenses[dataset], By: "schedule"}, nil)
		if err != nil {
			return err
		}
		log(res)
	}
	if dataset != cmddata.Domains || !dc.enrichConfigured() {
		return nil
	}
	res, err := app.Data.Enrich(ctx, enrichConfig(app), "schedule")
	if err != nil {
		return err
	}
	log(res)
	return nil
}

// enrichConfig is enrichment's configuration: RDAP through the platform's
// SSRF-safe client.
func enrichConfig(app *App) enrich.Config {
	dc := app.Config.Data
	client := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger, Timeout: 15 * time.Second})
	return enrich.Config{Resolver: dc.Resolver, RDAPBootstrap: dc.RDAPBootstrap, HTTPClient: client.HTTPClient(), Timeout: 5 * time.Second}
}

// datamarketRoutes serves the data marketplace on the platform API, its
// 60 requests a minute per address counted in PostgreSQL for every
// process.
func datamarketRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" {
		return
	}
	readdata.Routes(r, readdata.Config{DB: app.Store.DB(), Publisher: app.Config.Data.Publisher, ContactEmail: app.Config.Data.ContactEmail, BaseURL: app.Config.Issuer,
		Limiter: httpx.NewSharedWindowLimiter(app.Config.Data.PerMinute, ratelimit.New(app.Store.DB(), app.Clock))})
}

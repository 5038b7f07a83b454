package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	projdata "github.com/strata-platform/strata/projections/datamarket"
)

const dataUse = "data import DATASET FILE|URL [--format csv|ndjson|aws|google|azure|cloudflare] [--license TEXT] [--sample] [--errors FILE] [--json] | " +
	"data samples | data enrich [--resolver HOST:PORT] [--rdap-bootstrap URL] | data retract DATASET VERSION --reason TEXT | data datasets"

// dataCmd is `strata data import|samples|retract|datasets`.
func (c *command) dataCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, dataUse)
	}
	switch args[0] {
	case "import":
		return c.dataImport(ctx, args[1:])
	case "samples":
		return c.dataSamples(ctx, args[1:])
	case "retract":
		return c.dataRetract(ctx, args[1:])
	case "datasets":
		return c.dataDatasets()
	case "enrich":
		return c.dataEnrich(ctx, args[1:])
	}
	return fmt.Errorf("%w: %s", errUsage, dataUse)
}

// dataService opens the store and the data marketplace service, with its
// projector running in this process (an import returns once readers see
// the new version).
func (c *command) dataService(ctx context.Context) (*cmddata.Service, func(), error) {
	app, wait, stop, err := c.projectedApp(ctx, projdata.Projector{})
	if err != nil {
		return nil, nil, err
	}
	return newDatamarket(app, wait), stop, nil
}

// dataImport imports one file as a new version of a dataset and prints
// the outcome; --errors writes every row error as NDJSON.
func (c *command) dataImport(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("data import", flag.ContinueOnError)
	format := fs.String("format", "", "csv, ndjson, or a provider's ranges format (default: from the file's extension)")
	license := fs.String("license", "", "the data's licence, recorded in its provenance")
	sample := fs.Bool("sample", false, "mark the version as sample data, not real data")
	errFile := fs.String("errors", "", "write every row error to this file (NDJSON)")
	asJSON := fs.Bool("json", false, "print the outcome as JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return fmt.Errorf("%w: %s", errUsage, dataUse)
	}
	if _, ok := datamarket.Lookup(rest[0]); !ok {
		return fmt.Errorf("%w: unknown dataset %q; one of %s", errUsage, rest[0], strings.Join(datamarket.Keys(), ", "))
	}
	var keep func(datamarket.RowError)
	if *errFile != "" {
		f, err := os.Create(*errFile)
		if err != nil {
			return err
		}
		defer f.Close()
		enc := json.NewEncoder(f)
		keep = func(e datamarket.RowError) { _ = enc.Encode(e) }
	}
	svc, stop, err := c.dataService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	res, err := svc.Import(ctx, rest[0], cmddata.Source{Location: rest[1], Format: *format, License: *license, Sample: *sample, By: "cli"}, keep)
	if err != nil {
		return err
	}
	c.printImport(res, *asJSON)
	return nil
}

func (c *command) printImport(res *cmddata.Result, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(c.stdout, string(b))
		return
	}
	switch {
	case res.Unchanged:
		fmt.Fprintf(c.stdout, "%s: the same file (sha256 %s) is version %d (%s); nothing new\n", res.Dataset, res.SHA256[:12], res.Version, res.Status)
	case res.Status == datamarket.StatusRejected:
		fmt.Fprintf(c.stdout, "%s: version %d rejected: %s (%d rows read, %d invalid); readers stay where they were\n",
			res.Dataset, res.Version, res.Reason, res.RowsRead, res.RowsInvalid)
	default:
		fmt.Fprintf(c.stdout, "%s: version %d published: %d rows loaded of %d read, %d invalid, in %s (%.0f rows/s; rows %s, indexes %s)\n",
			res.Dataset, res.Version, res.RowsLoaded, res.RowsRead, res.RowsInvalid, res.Elapsed.Round(time.Millisecond),
			float64(res.RowsRead)/max(res.Elapsed.Seconds(), 1e-9), res.Load.Round(time.Millisecond), res.Index.Round(time.Millisecond))
	}
	for i, e := range res.Errors {
		if i == 10 {
			fmt.Fprintf(c.stdout, "  … %d more row errors (--errors FILE lists them all)\n", res.RowsInvalid-10)
			break
		}
		fmt.Fprintf(c.stdout, "  row %d: %s: %s\n", e.Row, e.Field, e.Message)
	}
	if len(res.Ignored) > 0 {
		fmt.Fprintf(c.stdout, "  columns left out (not in the schema): %s\n", strings.Join(res.Ignored, ", "))
	}
}

// dataSamples imports the repository's sample file of every public
// dataset, marked sample (not real data) in their provenance.
func (c *command) dataSamples(ctx context.Context, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: %s", errUsage, dataUse)
	}
	dir, err := os.MkdirTemp("", "strata-samples-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	svc, stop, err := c.dataService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	for _, s := range datamarket.Samples() {
		path := filepath.Join(dir, s.File)
		if err := os.WriteFile(path, s.Data, 0o600); err != nil {
			return err
		}
		res, err := svc.Import(ctx, s.Dataset, cmddata.Source{Location: path, License: s.License, Sample: true, By: "cli"}, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Dataset, err)
		}
		c.printImport(res, false)
	}
	return nil
}

// dataEnrich enriches the current domains version now (flags override
// STRATA_DATA_RESOLVER and STRATA_DATA_RDAP_BOOTSTRAP).
func (c *command) dataEnrich(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("data enrich", flag.ContinueOnError)
	resolver := fs.String("resolver", c.cfg.Data.Resolver, "DNS server host:port (empty: infrastructure unknown)")
	boot := fs.String("rdap-bootstrap", c.cfg.Data.RDAPBootstrap, "RDAP bootstrap file URL (empty: registrar and age unknown)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: %s", errUsage, dataUse)
	}
	svc, stop, err := c.dataService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	app := &App{Config: c.cfg, Logger: c.logger}
	app.Config.Data.Resolver, app.Config.Data.RDAPBootstrap = *resolver, *boot
	res, err := svc.Enrich(ctx, enrichConfig(app), "cli")
	if err != nil {
		return err
	}
	c.printImport(res, false)
	return nil
}

// dataRetract withdraws a published version.
func (c *command) dataRetract(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("data retract", flag.ContinueOnError)
	reason := fs.String("reason", "", "why the version is withdrawn (required)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return fmt.Errorf("%w: %s", errUsage, dataUse)
	}
	v, err := strconv.Atoi(rest[1])
	if err != nil || v < 1 {
		return fmt.Errorf("%w: VERSION must be a whole number from 1", errUsage)
	}
	svc, stop, err := c.dataService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	current, err := svc.Retract(ctx, rest[0], v, *reason, "cli")
	if err != nil {
		return err
	}
	if current == 0 {
		fmt.Fprintf(c.stdout, "%s: version %d retracted; the dataset has no readable version now\n", rest[0], v)
		return nil
	}
	fmt.Fprintf(c.stdout, "%s: version %d retracted; readers now read version %d\n", rest[0], v, current)
	return nil
}

// dataDatasets lists the datasets with their refresh schedules.
func (c *command) dataDatasets() error {
	for _, d := range datamarket.Catalog() {
		where := "reference (enrichment)"
		if d.Public {
			where = "/api/v1/public/data" + d.Path
		}
		sched := "by hand"
		if d.Refresh != "" {
			sched = d.Refresh + " " + datamarket.RefreshZone
			if src, ok := c.cfg.Data.Sources[d.Key]; ok {
				sched += " from " + src
			} else {
				sched += " (no STRATA_DATA_SOURCE_" + envKey(d.Key) + ": not scheduled)"
			}
		}
		fmt.Fprintf(c.stdout, "%-22s %-45s %s\n", d.Key, where, sched)
	}
	return nil
}

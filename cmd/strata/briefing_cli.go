package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/briefing"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
	readbriefing "github.com/strata-platform/strata/readapi/briefing"
	"github.com/strata-platform/strata/readapi/httpx"
)

const briefingUse = "briefing import FILE [--format ndjson|json|fred] | briefing run ALGO|all [--as-of YYYY-MM-DD] [--json]"

// briefingCmd is `strata briefing import|run`.
func (c *command) briefingCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, briefingUse)
	}
	switch args[0] {
	case "import":
		return c.briefingImport(ctx, args[1:])
	case "run":
		return c.briefingRun(ctx, args[1:])
	}
	return fmt.Errorf("%w: %s", errUsage, briefingUse)
}

// briefingService opens the store and the briefing service, with the
// briefing projector running in this process (a run reads the read model
// caught up to every observation recorded before it).
func (c *command) briefingService(ctx context.Context) (*cmdbriefing.Service, func(), error) {
	app, wait, stop, err := c.projectedApp(ctx, projbriefing.Projector{})
	if err != nil {
		return nil, nil, err
	}
	svc, err := newBriefing(app, wait)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return svc, stop, nil
}

// briefingImport records the observations of a file: NDJSON (one
// observation a line), a JSON array, or FRED's CSV download (--format
// fred, or a .csv file), in batches of briefing.MaxBatch; observations
// recorded before are counted as duplicates and left out.
func (c *command) briefingImport(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("briefing import", flag.ContinueOnError)
	format := fs.String("format", "", "ndjson, json or fred (default: from the file's extension: .csv fred, .json json, else ndjson)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: %s", errUsage, briefingUse)
	}
	raw, err := os.ReadFile(rest[0])
	if err != nil {
		return err
	}
	if *format == "" {
		switch strings.ToLower(filepath.Ext(rest[0])) {
		case ".csv":
			*format = "fred"
		case ".json":
			*format = "json"
		default:
			*format = "ndjson"
		}
	}
	obs, err := parseObservationFile(raw, *format)
	if err != nil {
		return fmt.Errorf("%s: %w", rest[0], err)
	}
	svc, stop, err := c.briefingService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	total := cmdbriefing.Ingested{}
	for start := 0; start < len(obs); start += briefing.MaxBatch {
		end := min(start+briefing.MaxBatch, len(obs))
		got, err := svc.Ingest(ctx, obs[start:end], "import")
		if err != nil {
			return fmt.Errorf("%s: observations %d-%d: %w", rest[0], start+1, end, err)
		}
		total.Received += got.Received
		total.Recorded += got.Recorded
		total.Duplicates += got.Duplicates
	}
	fmt.Fprintf(c.stdout, "%d observations read, %d recorded, %d already recorded\n", total.Received, total.Recorded, total.Duplicates)
	return nil
}

// parseObservationFile reads a file's observations in format.
func parseObservationFile(raw []byte, format string) ([]briefing.Observation, error) {
	switch format {
	case "fred":
		return briefing.ParseFREDCSV(bytes.NewReader(raw))
	case "json":
		var obs []briefing.Observation
		if err := httpx.DecodeJSONBytes(raw, &obs); err != nil {
			return nil, fmt.Errorf("a JSON array of observations: %w", err)
		}
		return obs, nil
	case "ndjson":
		return readbriefing.DecodeNDJSON(bytes.NewReader(raw), 0)
	}
	return nil, fmt.Errorf("%w: --format must be ndjson, json or fred", errUsage)
}

// briefingRun runs one algorithm, or all six, for a day (default today,
// UTC) now, in this process, and prints the reports.
func (c *command) briefingRun(ctx context.Context, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("%w: %s", errUsage, briefingUse)
	}
	algo := args[0]
	fs := flag.NewFlagSet("briefing run", flag.ContinueOnError)
	asOf := fs.String("as-of", "", "the day to run for, YYYY-MM-DD (default: today, UTC)")
	asJSON := fs.Bool("json", false, "print the reports as JSON, one per line")
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: %s", errUsage, briefingUse)
	}
	if algo != "all" {
		if err := cmdbriefing.CheckAlgo(algo); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	day := briefing.Day(time.Now())
	if *asOf != "" {
		if day, err = time.Parse(time.DateOnly, *asOf); err != nil {
			return fmt.Errorf("%w: --as-of must be a date YYYY-MM-DD", errUsage)
		}
	}
	svc, stop, err := c.briefingService(ctx)
	if err != nil {
		return err
	}
	defer stop()
	var reports []cmdbriefing.RunReport
	if algo == "all" {
		reports, err = svc.RunAll(ctx, day, briefing.TriggerCLI)
	} else {
		var r cmdbriefing.RunReport
		r, err = svc.Run(ctx, algo, day, briefing.TriggerCLI)
		reports = append(reports, r)
	}
	if err != nil {
		return err
	}
	for _, r := range reports {
		if *asJSON {
			b, _ := json.Marshal(r)
			fmt.Fprintln(c.stdout, string(b))
			continue
		}
		if r.NoInput {
			fmt.Fprintf(c.stdout, "%-21s %s  no input: nothing found, nothing recorded but the run\n", r.Algo, r.Day)
			continue
		}
		line := fmt.Sprintf("%-21s %s  %d inputs, %d signals (%d new), %d correlations, %d trending", r.Algo, r.Day,
			r.Inputs, r.Signals, r.NewSignals, r.Correlations, r.Trending)
		if r.Regime != "" {
			line += ", regime " + r.Regime
		}
		fmt.Fprintln(c.stdout, line+"  ("+r.Took+")")
	}
	return nil
}

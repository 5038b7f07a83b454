package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// command carries what every subcommand needs.
type command struct {
	cfg    Config
	stdout io.Writer
	stderr io.Writer
	wiring Wiring
	logger *slog.Logger
	// executable is the strata binary a bench starts in a process of its
	// own (bench gateway); empty: this executable.
	executable string
	// childProfile, when set, is where a bench's gateway process writes
	// its CPU profile (serve --cpuprofile).
	childProfile string
}

func (c *command) migrate(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: migrate takes no arguments", errUsage)
	}
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return err
	}
	db.Close()
	fmt.Fprintln(c.stdout, "migrations applied")
	return nil
}

func (c *command) projections(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: projections status|rebuild|parked|retry|skip", errUsage)
	}
	switch args[0] {
	case "status":
		return c.projectionsStatus(ctx, args[1:])
	case "rebuild":
		return c.projectionsRebuild(ctx, args[1:])
	case "parked":
		return c.projectionsParked(ctx, args[1:])
	case "retry":
		return c.projectionsRetry(ctx, args[1:])
	case "skip":
		return c.projectionsSkip(ctx, args[1:])
	}
	return fmt.Errorf("%w: projections %q: want status, rebuild, parked, retry or skip", errUsage, args[0])
}

func (c *command) projectionsStatus(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("projections status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("%w: projections status takes no arguments", errUsage)
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	var names []string
	for _, p := range c.wiring.projectors(reg, nil) {
		names = append(names, p.Name())
	}
	st, err := projections.ReadStatus(ctx, db.SQL, names)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECTOR\tSTATE\tPOSITION\tTXID\tLAG EVENTS\tLAG SECONDS\tPARKED\tERROR")
	for _, s := range st {
		errText := s.LastError
		if s.State == projections.StateFailing {
			errText = fmt.Sprintf("at position %d since %s (%d retries): %s", s.FailingAt, s.FailingSince.Format(time.RFC3339), s.Retries, s.LastError)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f\t%d\t%s\n", s.Name, s.State, s.Checkpoint.Position, s.Checkpoint.TransactionID, s.LagEvents, s.LagSeconds, s.ParkedStreams, errText)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ps, err := projections.ListParked(ctx, db.SQL, "")
	if err != nil || len(ps) == 0 {
		return err
	}
	fmt.Fprintln(c.stdout, "\nParked streams (their events wait; other streams go on; see strata projections retry|skip):")
	printParked(c, ps)
	return nil
}

// runnableProjectors returns the sealed registry and the projectors as
// strata serve runs them (with the key ring that opens sealed payloads).
func (c *command) runnableProjectors() (*eventstore.Registry, []projections.Projector, error) {
	reg, err := c.wiring.registry()
	if err != nil {
		return nil, nil, err
	}
	keys, err := c.keyRing()
	if err != nil {
		return nil, nil, err
	}
	return reg, c.wiring.projectors(reg, keys), nil
}

func (c *command) projectionsRebuild(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("projections rebuild", flag.ContinueOnError)
	all := fs.Bool("all", false, "rebuild every projector")
	batch := fs.Int("batch", 10000, "events per replay transaction")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *all == (len(rest) == 1) || len(rest) > 1 {
		return fmt.Errorf("%w: projections rebuild NAME|--all", errUsage)
	}
	reg, every, err := c.runnableProjectors()
	if err != nil {
		return err
	}
	var chosen []projections.Projector
	for _, p := range every {
		if *all || p.Name() == rest[0] {
			chosen = append(chosen, p)
		}
	}
	if len(chosen) == 0 {
		return fmt.Errorf("%w: no projector named %q (see strata projections status)", errUsage, rest[0])
	}
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	rb := projections.Rebuilder{DB: db.SQL, Registry: reg, BatchSize: *batch, Logger: c.logger}
	for _, p := range chosen {
		res, err := rb.Rebuild(ctx, p)
		if err != nil {
			return err
		}
		rate := float64(res.Events) / res.Elapsed.Seconds()
		fmt.Fprintf(c.stdout, "%s: rebuilt from %d events (%d applied) in %s (%.0f events/s); live consumer continues after position %d\n",
			res.Projector, res.Events, res.Applied, res.Elapsed.Round(time.Millisecond), rate, res.Handover.Position)
	}
	return nil
}

func (c *command) events(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "export" {
		return fmt.Errorf("%w: events export [--stream ID] [--type NAME] [--from-position N] [--until RFC3339]", errUsage)
	}
	fs := flag.NewFlagSet("events export", flag.ContinueOnError)
	var f eventstore.Filter
	var typ, until string
	fs.StringVar(&f.StreamID, "stream", "", "only this stream id")
	fs.StringVar(&typ, "type", "", "only this event type name")
	fs.Int64Var(&f.FromPosition, "from-position", 0, "only events at or after this position")
	fs.StringVar(&until, "until", "", "only events recorded at or before this RFC 3339 time")
	if rest, err := parseFlags(fs, args[1:]); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("%w: events export takes no positional arguments", errUsage)
	}
	if typ != "" {
		f.Types = []string{typ}
	}
	if until != "" {
		t, err := time.Parse(time.RFC3339Nano, until)
		if err != nil {
			return fmt.Errorf("%w: --until: want an RFC 3339 time such as 2026-11-22T10:00:00Z, got %q", errUsage, until)
		}
		f.Until = t
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	out := bufio.NewWriterSize(c.stdout, 1<<16)
	enc := json.NewEncoder(out)
	store := eventstore.New(db.SQL, reg, nil, nil)
	if err := store.ReadAll(ctx, f, func(e eventstore.Envelope) error { return enc.Encode(e) }); err != nil {
		return err
	}
	return out.Flush()
}

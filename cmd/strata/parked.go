package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/user"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// projectionsParked lists parked streams: `strata projections parked [--json] [PROJECTOR]`.
func (c *command) projectionsParked(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("projections parked", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return fmt.Errorf("%w: projections parked [PROJECTOR]", errUsage)
	}
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	name := ""
	if len(rest) == 1 {
		name = rest[0]
	}
	ps, err := projections.ListParked(ctx, db.SQL, name)
	if err != nil {
		return err
	}
	if *asJSON {
		if ps == nil {
			ps = []projections.Parked{}
		}
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ps)
	}
	if len(ps) == 0 {
		fmt.Fprintln(c.stdout, "no parked streams")
		return nil
	}
	printParked(c, ps)
	return nil
}

func printParked(c *command, ps []projections.Parked) {
	tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECTOR\tSTREAM\tPOSITION\tEVENT\tTYPE\tPARKED AT\tRETRIES\tERROR")
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\n", p.Projector, p.StreamID, p.At.Position, p.EventID, p.EventType,
			p.ParkedAt.Format(time.RFC3339), p.Retries, strings.ReplaceAll(p.Error, "\n", " "))
	}
	_ = tw.Flush()
}

// projectionsRetry applies a parked stream's held events again:
// `strata projections retry PROJECTOR STREAM`.
func (c *command) projectionsRetry(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("projections retry", flag.ContinueOnError)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return fmt.Errorf("%w: projections retry PROJECTOR STREAM", errUsage)
	}
	return c.withParked(ctx, rest[0], func(store *eventstore.Store, p projections.Projector) error {
		res, err := projections.Retry(ctx, store, p, rest[1])
		if err != nil {
			return parkedErr(err, rest)
		}
		return c.reportRetry(store, rest[1], res)
	})
}

// projectionsSkip goes on without a parked stream's first held event,
// recording who and why: `strata projections skip PROJECTOR STREAM --reason R`.
func (c *command) projectionsSkip(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("projections skip", flag.ContinueOnError)
	reason := fs.String("reason", "", "why the event is skipped (required; recorded in the event store)")
	actor := fs.String("actor", defaultActor(), "who skips it (recorded)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 || strings.TrimSpace(*reason) == "" || strings.TrimSpace(*actor) == "" {
		return fmt.Errorf("%w: projections skip PROJECTOR STREAM --reason TEXT [--actor NAME]", errUsage)
	}
	return c.withParked(ctx, rest[0], func(store *eventstore.Store, p projections.Projector) error {
		rec, res, err := projections.Skip(ctx, store, p, rest[1], *actor, *reason)
		if err != nil {
			return parkedErr(err, rest)
		}
		fmt.Fprintf(c.stdout, "skipped event %s (%s at position %d) of %s for %s, recorded as %s by %s\n",
			rec.EventID, rec.Skipped, rec.Position, rec.StreamID, rec.Projector, projections.EventSkippedType, rec.Actor)
		return c.reportRetry(store, rest[1], res)
	})
}

func (c *command) reportRetry(store *eventstore.Store, stream string, res projections.RetryResult) error {
	// Wake the live consumers and guards of running processes.
	_, _ = store.DB().Exec(`SELECT pg_notify('` + eventstore.NotifyChannel + `', '')`)
	if res.Parked == nil {
		fmt.Fprintf(c.stdout, "%s: %d held events applied; the stream is released (running processes see it within a second)\n", stream, res.Applied)
		return nil
	}
	fmt.Fprintf(c.stdout, "%s: %d held events applied; still parked:\n", stream, res.Applied)
	printParked(c, []projections.Parked{*res.Parked})
	return errors.New("the stream is still parked")
}

// withParked opens the store with the projector named name.
func (c *command) withParked(ctx context.Context, name string, fn func(*eventstore.Store, projections.Projector) error) error {
	reg, ps, err := c.runnableProjectors()
	if err != nil {
		return err
	}
	var chosen projections.Projector
	for _, p := range ps {
		if p.Name() == name {
			chosen = p
		}
	}
	if chosen == nil {
		return fmt.Errorf("%w: no projector named %q (see strata projections status)", errUsage, name)
	}
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	return fn(eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock)), chosen)
}

func parkedErr(err error, args []string) error {
	if errors.Is(err, projections.ErrNotParked) {
		return fmt.Errorf("%s is not parked by %s (see strata projections parked)", args[1], args[0])
	}
	return err
}

// defaultActor names the operator: the OS user at the host.
func defaultActor() string {
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		name += "@" + h
	}
	return name
}

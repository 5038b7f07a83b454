package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
)

// loadJobsConfig reads the background jobs' settings (STRATA_JOBS_*); the
// serve command adds the listen URL, clock and logger.
func loadJobsConfig(env map[string]string) (jobs.Config, error) {
	c := jobs.Config{}
	if v := strings.TrimSpace(env["STRATA_JOBS_WORKERS"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return c, fmt.Errorf("STRATA_JOBS_WORKERS: want a whole number from 1 to 10000, got %q", v)
		}
		c.Workers = n
	}
	durations := []struct {
		name string
		dst  *time.Duration
		min  time.Duration
	}{
		{"STRATA_JOBS_POLL_INTERVAL", &c.PollInterval, time.Millisecond},
		{"STRATA_JOBS_TIMEOUT", &c.JobTimeout, time.Second},
		{"STRATA_JOBS_RESCUE_AFTER", &c.RescueAfter, time.Second},
		{"STRATA_JOBS_SHUTDOWN_GRACE", &c.ShutdownGrace, time.Millisecond},
		{"STRATA_JOBS_RETENTION", &c.Retention, time.Minute},
		{"STRATA_JOBS_DEAD_RETENTION", &c.DeadRetention, time.Minute},
	}
	for _, d := range durations {
		v := strings.TrimSpace(env[d.name])
		if v == "" {
			continue
		}
		dur, err := time.ParseDuration(v)
		if err != nil || dur < d.min {
			return c, fmt.Errorf("%s: want a duration of at least %s such as 30s or 2h, got %q", d.name, d.min, v)
		}
		*d.dst = dur
	}
	if err := c.Check(); err != nil { // the rescue delay must exceed the timeout
		return c, fmt.Errorf("STRATA_JOBS_RESCUE_AFTER: %w", err)
	}
	return c, nil
}

// stopJobs stops the service within its grace period and a margin, logging
// what it could not stop.
func (c *command) stopJobs(svc *jobs.Service) {
	grace := c.cfg.Jobs.ShutdownGrace
	if grace <= 0 {
		grace = jobs.DefaultShutdownGrace
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace+10*time.Second)
	defer cancel()
	if err := svc.Stop(ctx); err != nil {
		c.logger.Warn("background jobs did not stop in time; the ones still running are retried elsewhere after the rescue delay", "err", err)
	}
}

// jobsCmd is `strata jobs list|retry|cancel`.
func (c *command) jobsCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: jobs list|retry|cancel", errUsage)
	}
	switch args[0] {
	case "list":
		return c.jobsList(ctx, args[1:])
	case "retry", "cancel":
		fs := flag.NewFlagSet("jobs "+args[0], flag.ContinueOnError)
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return fmt.Errorf("%w: jobs %s ID", errUsage, args[0])
		}
		id, err := strconv.ParseInt(rest[0], 10, 64)
		if err != nil || id < 1 {
			return fmt.Errorf("%w: jobs %s: ID must be a job's number, got %q", errUsage, args[0], rest[0])
		}
		return c.withJobs(ctx, func(svc *jobs.Service) error {
			op, verb := svc.Retry, "retried: it runs again as soon as a process is free"
			if args[0] == "cancel" {
				op, verb = svc.Cancel, "cancelled"
			}
			in, err := op(ctx, id)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "job %d (%s) %s; now %s\n", in.ID, in.Kind, verb, in.State)
			return nil
		})
	}
	return fmt.Errorf("%w: jobs %q: want list, retry or cancel", errUsage, args[0])
}

func (c *command) jobsList(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("jobs list", flag.ContinueOnError)
	states := fs.String("state", "", "comma-separated states: "+strings.Join(jobs.States, ", ")+" (dead = discarded)")
	kinds := fs.String("kind", "", "comma-separated job kinds")
	limit := fs.Int("limit", 100, "at most this many jobs, newest first")
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *limit < 1 || *limit > 10000 {
		return fmt.Errorf("%w: jobs list [--state S,...] [--kind K,...] [--limit 1-10000] [--json]", errUsage)
	}
	f := jobs.Filter{Kinds: splitList(*kinds), Limit: *limit}
	for _, s := range splitList(*states) {
		if s == "dead" {
			s = "discarded"
		}
		f.States = append(f.States, s)
	}
	return c.withJobs(ctx, func(svc *jobs.Service) error {
		list, err := svc.List(ctx, f)
		if err != nil {
			return err
		}
		if *asJSON {
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(list)
		}
		if len(list) == 0 {
			fmt.Fprintln(c.stdout, "no jobs")
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tSTATE\tATTEMPT\tSCHEDULED\tERRORS\tLAST ERROR")
		for _, j := range list {
			last := strings.ReplaceAll(j.LastError, "\n", " ")
			if len(last) > 100 {
				last = last[:100] + "..."
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%d/%d\t%s\t%d\t%s\n", j.ID, j.Kind, j.State, j.Attempt, j.MaxAttempts,
				j.ScheduledAt.UTC().Format(time.RFC3339), j.Errors, last)
		}
		return tw.Flush()
	})
}

// withJobs opens the database and an administering jobs service.
func (c *command) withJobs(ctx context.Context, fn func(*jobs.Service) error) error {
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := jobs.New(db.SQL, jobs.Config{Logger: c.logger})
	if err != nil {
		return err
	}
	if err := fn(svc); err != nil {
		if errors.Is(err, jobs.ErrNotFound) {
			return fmt.Errorf("%w (see strata jobs list)", err)
		}
		return err
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

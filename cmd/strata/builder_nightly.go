package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// builderSystemsKeyPurpose derives the secret the company keys are
// derived from (cmdbuilder.SystemsConfig.KeySecret): serve and the CLI
// must derive the same one.
const builderSystemsKeyPurpose = "builder systems keys"

// builderSystemsDeps are what the systems and the nightly loop are built
// from, in serve and in the CLI.
type builderSystemsDeps struct {
	Store   *eventstore.Store
	Chats   *cmdbuilder.Chats
	Keys    *shred.KeyRing
	Master  *cmdidentity.MasterKey
	BaseURL string
	Jobs    *jobs.Service // nil: no schedule (the CLI runs on demand)
	Clock   kernel.Clock
	IDs     kernel.IDs
	// SecretNames: the secrets' listing; nil reads the secrets' events.
	SecretNames func(ctx context.Context, companyID string) ([]string, error)
	Logger      *slog.Logger
}

// newBuilderSystems builds the business systems and the nightly loop
// (with d.Jobs, declaring its jobs: call it before the jobs start).
func newBuilderSystems(d builderSystemsDeps) (*cmdbuilder.Systems, *cmdbuilder.Nightly, error) {
	systems, err := cmdbuilder.NewSystems(cmdbuilder.SystemsConfig{Store: d.Store, Chats: d.Chats, Keys: d.Keys,
		KeySecret: d.Master.Derive(builderSystemsKeyPurpose), BaseURL: d.BaseURL, Clock: d.Clock, IDs: d.IDs})
	if err != nil {
		return nil, nil, fmt.Errorf("builder: %w", err)
	}
	nightly, err := cmdbuilder.NewNightly(cmdbuilder.NightlyConfig{Store: d.Store, Chats: d.Chats, Systems: systems, Jobs: d.Jobs,
		Clock: d.Clock, IDs: d.IDs, SecretNames: d.SecretNames, Logger: d.Logger})
	if err != nil {
		return nil, nil, fmt.Errorf("builder: %w", err)
	}
	return systems, nightly, nil
}

// builderCmd is `strata builder nightly [--company ID] [--json]`.
func (c *command) builderCmd(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "nightly" {
		return fmt.Errorf("%w: builder nightly [--company ID] [--json]", errUsage)
	}
	return c.builderNightly(ctx, args[1:])
}

// builderNightly runs the nightly loop now, on demand, in this process: for
// one enrolled company (--company ID) or for every enrolled company. Each
// run is a manual one (the night's scheduled run still happens), reported
// like it (builder.nightly_reported) and printed; offline, as today, the
// checks only.
func (c *command) builderNightly(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("builder nightly", flag.ContinueOnError)
	company := fs.String("company", "", "run for this company id (chat_...) only")
	asJSON := fs.Bool("json", false, "print the reports as JSON, one per line")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: builder nightly [--company ID] [--json]", errUsage)
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	ids := eventstore.NewULIDs(clock)
	store := eventstore.New(db.SQL, reg, clock, ids)
	blobStore, err := openBlobStore(ctx, c.cfg)
	if err != nil {
		return fmt.Errorf("builder: blob store: %w", err)
	}
	js, err := jobs.New(db.SQL, jobs.Config{Logger: c.logger}) // declares the generation kind; never started here
	if err != nil {
		return err
	}
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: store, Blobs: blobStore, Jobs: js, Clock: clock, IDs: ids, Logger: c.logger})
	if err != nil {
		return err
	}
	master, err := cmdidentity.LoadMasterKey(c.cfg.MasterKey, filepath.Join(c.cfg.DataDir, "master.key"))
	if err != nil {
		return err
	}
	keys, err := shred.New(master.Derive("subject keys"), 0)
	if err != nil {
		return err
	}
	_, nightly, err := newBuilderSystems(builderSystemsDeps{Store: store, Chats: chats, Keys: keys, Master: master,
		BaseURL: c.cfg.BuilderURL, Clock: clock, IDs: ids, Logger: c.logger})
	if err != nil {
		return err
	}
	var reports []builder.NightlyReported
	var failed map[string]error
	if *company != "" {
		rep, err := nightly.RunNow(ctx, *company)
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	} else if reports, failed, err = nightly.RunAll(ctx); err != nil {
		return err
	}
	for _, rep := range reports {
		if *asJSON {
			b, err := json.Marshal(rep)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, string(b))
			continue
		}
		printNightly(c.stdout, rep)
	}
	if *company == "" && len(reports) == 0 && len(failed) == 0 && !*asJSON {
		fmt.Fprintln(c.stdout, "no company is enrolled in the nightly loop (POST /api/build/enroll)")
	}
	if len(failed) > 0 {
		ids := make([]string, 0, len(failed))
		for id := range failed {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(c.stderr, "strata: nightly run of %s failed: %v\n", id, failed[id])
		}
		return errors.New("some nightly runs failed")
	}
	return nil
}

// printNightly prints a report for an operator.
func printNightly(w io.Writer, r builder.NightlyReported) {
	f := r.Found
	fmt.Fprintf(w, "%s  night %s  %s run, %s  report %s\n", r.CompanyID, r.Night, r.Trigger, r.Mode, r.ReportID)
	var sys []string
	for _, s := range f.Systems {
		sys = append(sys, fmt.Sprintf("%s %d (%d open)", s.ID, s.Counts["total"], s.Counts[builder.RecordOpen]))
	}
	fmt.Fprintf(w, "  systems:   %s\n", strings.Join(sys, ", "))
	switch {
	case !f.Artifacts.Recorded:
		fmt.Fprintln(w, "  artifacts: none recorded")
	default:
		fmt.Fprintf(w, "  artifacts: %d views, %d stale\n", len(f.Artifacts.Views), f.Artifacts.Stale)
	}
	d := f.Deploy
	switch {
	case !d.HasVersion:
		fmt.Fprintln(w, "  deploy:    no version yet")
	case !d.Deployed:
		fmt.Fprintf(w, "  deploy:    version %s never deployed\n", d.CurrentVersionID)
	case d.Current:
		fmt.Fprintf(w, "  deploy:    version %s serves, the current one\n", d.VersionID)
	default:
		fmt.Fprintf(w, "  deploy:    version %s serves, behind the current %s\n", d.VersionID, d.CurrentVersionID)
	}
	if d.LastFailure != nil {
		fmt.Fprintf(w, "             last deploy failed (%s): %s\n", d.LastFailure.VersionID, d.LastFailure.Reason)
	}
	missing := "none"
	if len(f.Secrets.Missing) > 0 {
		missing = strings.Join(f.Secrets.Missing, ", ")
	}
	fmt.Fprintf(w, "  secrets:   %d referenced in %d files, %d set, missing: %s\n", len(f.Secrets.Referenced), f.Secrets.FilesScanned, f.Secrets.Set, missing)
	fmt.Fprintf(w, "  ask:       %d threads, %d questions, %d open\n", f.Ask.Threads, f.Ask.Questions, len(f.Ask.Open))
	fmt.Fprintf(w, "  proposed:  %d (budget %d, %d left out)\n", len(r.Proposed), r.Budget.MaxProposals, r.Dropped)
	for _, p := range r.Proposed {
		approval := ""
		if p.RequiresApproval {
			approval = " [needs the founder's approval]"
		}
		fmt.Fprintf(w, "    %s %s%s: %s (%s)\n", p.ID, p.Title, approval, p.Detail, p.Action)
	}
	for _, fl := range r.Failed {
		fmt.Fprintf(w, "  failed:    %s: %s\n", fl.Check, fl.Error)
	}
	fmt.Fprintf(w, "  spent:     %d tokens, %d drafts, %d proposals, %d ms\n", r.Spent.Tokens, r.Spent.Drafts, r.Spent.Proposals, r.Spent.DurationMS)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note:      %s\n", n)
	}
}

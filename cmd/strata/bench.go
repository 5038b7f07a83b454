package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
	"github.com/strata-platform/strata/readapi/oauth/oauthbench"
)

// bench runs `strata bench eventstore|identity|oauth|captable|community|memory|gateway|builder|hackathon|voice|briefing|audit|data [--quick]`
// (`strata bench memory --extraction`: the memory bench's extraction
// figures alone, without a database):
// the measurements of eventstore/storebench (or of the identity context, the
// OAuth provider, the cap table, community events, the memory service,
// the inference gateway, the builder, the agent briefing or the
// agent-readiness audit), in
// a scratch database created on the configured server (DATABASE_URL or the
// embedded cluster) and dropped at the end, also on error or interrupt. The
// user's database is only used to reach the server.
func (c *command) bench(ctx context.Context, args []string) error {
	if len(args) == 0 || !slices.Contains([]string{"eventstore", "identity", "oauth", "captable", "community", "memory", "gateway", "builder", "hackathon", "voice", "briefing", "audit", "data", "content", "media"}, args[0]) {
		what := "no subcommand"
		if len(args) > 0 {
			what = fmt.Sprintf("unknown subcommand %q", args[0])
		}
		return fmt.Errorf("%w: bench: %s; want: bench eventstore|identity|oauth|captable|community|memory|gateway|builder|hackathon|voice|briefing|audit|data|content|media [--quick]", errUsage, what)
	}
	fs := flag.NewFlagSet("bench "+args[0], flag.ContinueOnError)
	quick := fs.Bool("quick", false, "smaller sizes and shorter runs (a smoke test, well under a minute)")
	extraction := fs.Bool("extraction", false, "bench memory: only the extraction figures (no database, a second)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (server, clients and all) to this file (go tool pprof); "+
		"bench gateway: of the bench's process, the gateway's own to FILE.gateway")
	if rest, err := parseFlags(fs, args[1:]); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("%w: bench %s takes no positional arguments", errUsage, args[0])
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fmt.Errorf("bench: --cpuprofile: %w", err)
		}
		defer stop()
		c.childProfile = *cpuProfile + ".gateway"
	}
	if *extraction {
		if args[0] != "memory" {
			return fmt.Errorf("%w: bench %s: --extraction is a flag of bench memory", errUsage, args[0])
		}
		return c.benchExtraction(ctx)
	}
	if args[0] == "media" {
		return c.benchMedia(ctx, *quick) // no database
	}
	opts := storebench.Full()
	if *quick {
		opts = storebench.Quick()
	}
	db, err := c.openDatabase(ctx, false)
	if err != nil {
		return err
	}
	defer db.Close() // after the scratch database is dropped: it may stop the embedded cluster
	scratch, err := storebench.NewScratch(ctx, db.URL)
	if err != nil {
		return err
	}
	defer func() {
		if err := scratch.Close(); err != nil {
			c.logger.Error("drop the bench's scratch database", "database", scratch.Name, "err", err)
		}
	}()
	if args[0] == "identity" || args[0] == "oauth" {
		return c.benchIdentity(ctx, scratch, args[0], *quick)
	}
	if args[0] == "captable" {
		return c.benchCaptable(ctx, scratch, *quick)
	}
	if args[0] == "community" {
		return c.benchCommunity(ctx, scratch, *quick)
	}
	if args[0] == "memory" {
		return c.benchMemory(ctx, scratch, *quick)
	}
	if args[0] == "gateway" {
		return c.benchGateway(ctx, scratch, *quick)
	}
	if args[0] == "builder" {
		return c.benchBuilder(ctx, scratch, *quick)
	}
	if args[0] == "hackathon" {
		return c.benchHackathon(ctx, scratch, *quick)
	}
	if args[0] == "voice" {
		return c.benchVoice(ctx, scratch, *quick)
	}
	if args[0] == "briefing" {
		return c.benchBriefing(ctx, scratch, *quick)
	}
	if args[0] == "audit" {
		return c.benchAudit(ctx, scratch, *quick)
	}
	if args[0] == "data" {
		return c.benchData(ctx, scratch, *quick)
	}
	if args[0] == "content" {
		return c.benchContent(ctx, scratch, *quick)
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.DB, opts.URL, opts.Logger, opts.Progress = scratch.DB, scratch.URL, c.logger, c.stderr
	rep, err := storebench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchIdentity runs `strata bench identity` or `strata bench oauth` (what)
// in the scratch database.
func (c *command) benchIdentity(ctx context.Context, scratch *storebench.Scratch, what string, quick bool) error {
	opts := identitybench.Full()
	if quick {
		opts = identitybench.Quick()
	}
	dir, err := os.MkdirTemp("", "strata-bench-mail-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	opts.DB, opts.MailDir, opts.Progress = scratch.DB, dir, c.stderr
	run := identitybench.Run
	if what == "oauth" {
		run = oauthbench.Run // same options (oauthbench.Full and Quick are identitybench's)
	}
	rep, err := run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// startCPUProfile writes a CPU profile of this process to file until stop
// is called.
func startCPUProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

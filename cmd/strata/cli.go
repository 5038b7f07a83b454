package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

const usage = `strata: an event-sourced platform backend

Usage:
  strata serve [--surfaces api,builder,captable,voice,hackathon]
                                   run the HTTP surfaces, the admin listener and the projectors
  strata migrate                   apply pending database migrations and exit
  strata db start|stop|url [--db NAME]
                                   run the embedded PostgreSQL of STRATA_DATA_DIR on its own (it outlives the
                                   command; serve uses it and leaves it running), stop it, print its DATABASE_URL
  strata projections status [--json]
                                   position, lag (events, seconds) and state of every projector
  strata projections rebuild NAME|--all
                                   replay the store into fresh tables and swap them in
  strata projections parked [--json] [PROJECTOR]
                                   streams a projector parked after an event it could not apply, with the error
  strata projections retry PROJECTOR STREAM
                                   apply a parked stream's held events again, in order; released when all apply
  strata projections skip PROJECTOR STREAM --reason TEXT [--actor NAME]
                                   go on without the parked event (recorded as projections.event_skipped), then retry
  strata events export [--stream ID] [--type NAME] [--from-position N] [--until RFC3339]
                                   write events as NDJSON envelopes (current schema versions) to stdout
  strata jobs list [--state S,...] [--kind K,...] [--limit N] [--json]
                                   background jobs, newest first (--state dead: the discarded ones)
  strata jobs retry ID             run a job again now (a dead, cancelled or waiting one)
  strata jobs cancel ID            cancel a job (a running one is stopped and not retried)
  strata users set-plan EMAIL PLAN [--credits N]
                                   put an account on free|basic|professional|enterprise; --credits N makes its
                                   gateway credit balance N (an adjustment in the credit ledger)
  strata users promote EMAIL [--role ADMIN|USER]
                                   set an account's role (ADMIN may read the event log over HTTP)
  strata keys rotate               add a JWT signing key; older keys verify until their tokens expire
  strata models import FILE        make the gateway's model catalog equal to a catalog file (validated; a refusal
                                   names the entry and the field; the same file again records nothing)
  strata models list [--json]      the model catalog: models, routers, defaults (--json: an importable catalog file)
  strata models retire ID --replaced-by ID
                                   retire a model: requests naming it get model_deprecated naming the replacement
  strata credits grant EMAIL N [--reason operator|promotion|compensation] [--key KEY] [--note TEXT]
                                   grant gateway credits (credits.granted; the same --key grants once)
  strata credits balance EMAIL [--json]
                                   the exact credit balance, the period's grants and use, the totals
  strata credits refund REQUEST_ID [--amount N] --reason TEXT
                                   give back (part of) a debited request's cost, once per request
  strata captable set-plan EMAIL FREE|STARTER|PROFESSIONAL|ENTERPRISE
                                   put a cap-table account on a plan (monthly quota and per-minute burst)
  strata bench eventstore|identity|oauth|captable|community|memory|gateway|builder|hackathon|voice|briefing|audit|data|content [--quick]
                                   measure the event store against raw PostgreSQL on the same server
  strata bench memory --extraction
                                   only the memory bench's extraction precision and recall (no database)
  strata dev-upstream [--addr HOST:PORT] [--pass-through URL]
                                   serve the development upstream (no model: answers scripted by [[directives]] in
                                   the prompt) in both chat formats on --addr (default 127.0.0.1:8099); for
                                   development and tests only, never an upstream of a production configuration;
                                   --pass-through: a proxy that only forwards to URL instead (bench gateway's
                                   measure of one HTTP hop)
  strata builder nightly [--company ID] [--json]
                                   run the builder's nightly loop now for one enrolled company or all of them
                                   (recorded as builder.nightly_reported; the night's scheduled run still happens);
                                   offline: the checks only
  strata voice numbers import FILE [--provider NAME]
                                   add the numbers a telephony provider holds for you to the voice inventory (CSV:
                                   phone_number[,country,number_type,region,capabilities]); the same number again
                                   changes nothing
  strata briefing import FILE [--format ndjson|json|fred]
                                   record the agent briefing's observations from a file (NDJSON or a JSON array of
                                   observations, or FRED's CSV download); the same observation again counts once
  strata briefing run ALGO|all [--as-of YYYY-MM-DD] [--json]
                                   run one of the six briefing algorithms (or all) for a day now; a rerun of a day
                                   adds no signal it found before
  strata data import DATASET FILE|URL [--format csv|ndjson|aws|google|azure|cloudflare] [--license TEXT]
                   [--sample] [--errors FILE] [--json]
                                   import a file as a new version of a dataset (rows checked against its schema,
                                   bulk-loaded, published in one switch); the same file again makes nothing new
  strata data samples              import the repository's sample file of every public dataset (marked sample)
  strata data enrich [--resolver HOST:PORT] [--rdap-bootstrap URL]
                                   look up every domain of whois-enrichment (DNS against the imported cloud ranges
                                   and name-server patterns, RDAP) and publish the result, with evidence, as a new
                                   version; what cannot be looked up stays as imported or unknown
  strata data retract DATASET VERSION --reason TEXT
                                   withdraw a published version; readers move to the newest other version
  strata data datasets             list the datasets, their routes and refresh schedules
  strata mcp memory                serve the memory tools over MCP on stdin/stdout through the platform API
                                   at STRATA_API_URL (default http://127.0.0.1:8080) with STRATA_API_KEY
  strata version                   print the build's commit id

Configuration comes from the environment; see README.md.
`

// errUsage marks a command-line mistake (exit code 2).
var errUsage = errors.New("usage")

// run executes one command and returns the process exit code.
func run(ctx context.Context, args []string, env map[string]string, stdout, stderr io.Writer, wiring Wiring) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cfg, err := loadConfig(env)
	if err != nil {
		fmt.Fprintln(stderr, "strata:", err)
		return 2
	}
	cmd := &command{cfg: cfg, stdout: stdout, stderr: stderr, wiring: wiring, logger: newLogger(stderr, cfg.LogLevel)}
	switch args[0] {
	case "serve":
		err = cmd.serve(ctx, args[1:])
	case "migrate":
		err = cmd.migrate(ctx, args[1:])
	case "db":
		err = cmd.db(ctx, args[1:])
	case "projections":
		err = cmd.projections(ctx, args[1:])
	case "events":
		err = cmd.events(ctx, args[1:])
	case "jobs":
		err = cmd.jobsCmd(ctx, args[1:])
	case "bench":
		err = cmd.bench(ctx, args[1:])
	case "users":
		err = cmd.users(ctx, args[1:])
	case "keys":
		err = cmd.keys(ctx, args[1:])
	case "models":
		err = cmd.models(ctx, args[1:])
	case "captable":
		err = cmd.captableCmd(ctx, args[1:])
	case "credits":
		err = cmd.creditsCmd(ctx, args[1:])
	case "voice":
		err = cmd.voiceCmd(ctx, args[1:])
	case "mcp":
		err = cmd.mcp(ctx, args[1:], env)
	case "dev-upstream":
		err = cmd.devUpstream(ctx, args[1:])
	case "builder":
		err = cmd.builderCmd(ctx, args[1:])
	case "briefing":
		err = cmd.briefingCmd(ctx, args[1:])
	case "data":
		err = cmd.dataCmd(ctx, args[1:])
	case "version":
		fmt.Fprintln(stdout, cfg.Version)
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage), errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(stderr, "strata:", err)
		fmt.Fprint(stderr, usage)
		return 2
	default:
		fmt.Fprintln(stderr, "strata:", err)
		return 1
	}
}

// parseFlags parses a command's flags, allowing flags after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if strings.HasPrefix(args[0], "-") {
			continue
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

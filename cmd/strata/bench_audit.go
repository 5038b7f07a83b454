package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strings"

	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/audit/auditbench"
)

// benchAudit runs `strata bench audit [--quick]`: the agent-readiness
// audit's public routes on `strata serve` itself (benchAuditServer) on
// the scratch database, against fixture sites the bench serves on
// loopback, measured over HTTP (readapi/audit/auditbench).
func (c *command) benchAudit(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := auditbench.Full()
	if quick {
		opts = auditbench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context, allow []string) (*auditbench.Server, error) {
		return c.benchAuditServer(ctx, scratch.URL, scratch.DB, allow)
	}
	rep, err := auditbench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchAuditServer starts `strata serve --surfaces api` with the
// production wiring on the database at dbURL (a scratch database), on free
// loopback ports, with a data directory of its own and the default
// configuration but for two settings: STRATA_OUTBOUND_ALLOW names the
// fixture sites (allow: host:port on loopback, which the SSRF-safe
// outbound client refuses otherwise), and STRATA_AUDIT_CRAWL_DELAY=0
// relaxes the crawl's politeness for loopback (two fetchers still, no
// pause between a fetcher's requests). A bench account is put on an audit
// plan through the server's own plans service, as `strata users set-plan
// EMAIL PLAN --line audit` does. The access log is written at the
// configured level, to nowhere; warnings and errors go to the command's
// stderr.
func (c *command) benchAuditServer(ctx context.Context, dbURL string, db *stdsql.DB, allow []string) (_ *auditbench.Server, err error) {
	app, addrs, _, done, closeServer, err := c.benchLoopbackEnv(ctx, "bench audit", "strata-bench-audit-", "api", dbURL,
		map[string]string{"STRATA_OUTBOUND_ALLOW": strings.Join(allow, ","), "STRATA_AUDIT_CRAWL_DELAY": "0"},
		"STRATA_API_ADDR", "STRATA_ADMIN_ADDR")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = closeServer()
		}
	}()
	base := "http://" + addrs[0]
	if err := waitHealthy(ctx, base, done); err != nil {
		return nil, err
	}
	if app.Audit == nil || app.Plans == nil || app.Identity == nil {
		return nil, errors.New("bench audit: serve's wiring runs no audit, plans or identity")
	}
	pg, err := serverSettings(ctx, db)
	if err != nil {
		return nil, err
	}
	setPlan := func(ctx context.Context, accountID, plan string) error {
		_, err := app.Plans.Change(ctx, plans.Change{AccountID: accountID, Line: plans.LineAudit, Plan: plan, Source: plans.SourceOperator})
		return err
	}
	return &auditbench.Server{URL: base, SetAuditPlan: setPlan,
		Describe: "strata serve (api surface, production wiring, STRATA_AUDIT_CRAWL_DELAY=0) on " + pg,
		Close:    closeServer}, nil
}

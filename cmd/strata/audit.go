package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
	projaudit "github.com/strata-platform/strata/projections/audit"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

// AuditConfig is the agent-readiness audit's configuration.
type AuditConfig struct {
	// BookingURL is the booking page a lead is sent to, pre-filled with
	// its context (STRATA_AUDIT_BOOKING_URL); empty: leads get no link.
	BookingURL string
	// CrawlDelay is the pause between two requests of one crawl fetcher
	// (STRATA_AUDIT_CRAWL_DELAY, default 1s; 0 for none, on loopback).
	CrawlDelay time.Duration
	// EnforceTiers makes the seed's tier table gate the audit's endpoints
	// (STRATA_AUDIT_TIERS=enforced); open (the default): every endpoint is
	// public, as the seed's "no auth" says, and tiers cap crawl pages.
	EnforceTiers bool
}

func loadAuditConfig(env map[string]string) (AuditConfig, error) {
	c := AuditConfig{BookingURL: strings.TrimSpace(env["STRATA_AUDIT_BOOKING_URL"]), CrawlDelay: cmdaudit.DefaultCrawlDelay}
	if v := strings.TrimSpace(env["STRATA_AUDIT_CRAWL_DELAY"]); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Minute {
			return c, fmt.Errorf("STRATA_AUDIT_CRAWL_DELAY: want a duration from 0 to 1m, got %q", v)
		}
		c.CrawlDelay = d
		if d == 0 {
			c.CrawlDelay = -1 // none
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(env["STRATA_AUDIT_TIERS"])); v {
	case "", "open":
	case "enforced":
		c.EnforceTiers = true
	default:
		return c, fmt.Errorf("STRATA_AUDIT_TIERS: want open or enforced, got %q", env["STRATA_AUDIT_TIERS"])
	}
	if c.BookingURL != "" {
		u, err := url.Parse(c.BookingURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return c, fmt.Errorf("STRATA_AUDIT_BOOKING_URL: want an http(s) URL, got %q", c.BookingURL)
		}
	}
	return c, nil
}

// startAudit builds the audit: its scanner fetches through the platform's
// SSRF-safe outbound client (STRATA_OUTBOUND_ALLOW opens private
// addresses, for tests on loopback), leads' addresses are sealed with the
// platform's key ring, rate limits are the shared limiter's.
func startAudit(ctx context.Context, app *App) error {
	client := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger,
		Timeout: cmdaudit.DefaultRequestTimeout})
	app.Audit = cmdaudit.New(app.Store, app.Clock, cmdaudit.Config{
		Scanner: cmdaudit.NewScanner(cmdaudit.ScannerConfig{Client: client, Clock: app.Clock}), Keys: app.Keys,
		BookingURL: app.Config.Audit.BookingURL, CrawlDelay: app.Config.Audit.CrawlDelay,
		Wait: func(ctx context.Context, key eventstore.Key) error {
			return app.Runner.WaitFor(ctx, key, projaudit.Name)
		}})
	if app.Jobs == nil {
		return nil
	}
	return app.Audit.RegisterJobs(app.Jobs)
}

// auditTier is the caller's audit tier: free without credentials, else
// the account's audit plan when active (pro, business, agency), free
// otherwise; credentials that do not authenticate are an error (401).
func auditTier(app *App) func(r *http.Request) (string, error) {
	return func(r *http.Request) (string, error) {
		if app.Auth == nil || app.Identity == nil || (r.Header.Get("Authorization") == "" && r.Header.Get("X-API-Key") == "") {
			return "free", nil
		}
		p, err := app.Auth.Authenticate(r)
		if err != nil {
			return "", err
		}
		st, _, ok := app.Identity.Service.Directory().Plan(p.UserID, payments.LineAudit)
		if !ok || (st.Status != plans.StatusActive && st.Status != plans.StatusTrialing) {
			return "free", nil
		}
		return st.Plan, nil
	}
}

// auditRoutes serves the audit on the platform API.
func auditRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Audit == nil {
		return
	}
	readaudit.Routes(r, readaudit.Config{Service: app.Audit, DB: app.Store.DB(), Limiter: ratelimit.New(app.Store.DB(), app.Clock),
		Tier: auditTier(app), Enforce: app.Config.Audit.EnforceTiers})
}

package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/eventstore"
	projaudit "github.com/strata-platform/strata/projections/audit"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

// AuditConfig is the agent-readiness audit's configuration.
type AuditConfig struct {
	// BookingURL is the booking page a lead is sent to, pre-filled with
	// its context (STRATA_AUDIT_BOOKING_URL); empty: leads get no link.
	BookingURL string
}

func loadAuditConfig(env map[string]string) (AuditConfig, error) {
	c := AuditConfig{BookingURL: strings.TrimSpace(env["STRATA_AUDIT_BOOKING_URL"])}
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
		BookingURL: app.Config.Audit.BookingURL,
		Wait: func(ctx context.Context, key eventstore.Key) error {
			return app.Runner.WaitFor(ctx, key, projaudit.Name)
		}})
	return nil
}

// auditRoutes serves the audit on the platform API.
func auditRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Audit == nil {
		return
	}
	readaudit.Routes(r, readaudit.Config{Service: app.Audit, DB: app.Store.DB(), Limiter: ratelimit.New(app.Store.DB(), app.Clock)})
}

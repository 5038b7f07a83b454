package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	cmdpayments "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/readapi/httpx"
	readpayments "github.com/strata-platform/strata/readapi/payments"
)

// PaymentsConfig is the payments context's configuration (STRATA_STRIPE_*,
// STRATA_AUDIT_*_URL). Without a secret key nothing is charged: checkout,
// the portal and webhooks answer 503 naming the missing setting.
type PaymentsConfig struct {
	SecretKey      string
	WebhookSecrets []string
	APIBase        string
	Tolerance      time.Duration
	// Prices are the operator's prices (STRATA_STRIPE_PRICE_<LINE>_<PLAN>_<BILLING>),
	// laid over the seeds' prices.
	Prices map[string]payments.Price
	// AuditSuccessURL and AuditCancelURL are the audit checkout's default
	// redirects (its request may name its own).
	AuditSuccessURL string
	AuditCancelURL  string
}

// auditCheckoutsPerHour bounds the public audit checkout per client address
// (per process, like the other public limits).
const auditCheckoutsPerHour = 30

// loadPaymentsConfig reads the payments settings.
func loadPaymentsConfig(env map[string]string) (PaymentsConfig, error) {
	get := func(k string) string { return strings.TrimSpace(env[k]) }
	c := PaymentsConfig{SecretKey: get(cmdpayments.SettingSecretKey), APIBase: get(cmdpayments.SettingAPIBase),
		Tolerance: cmdpayments.DefaultWebhookTolerance, AuditSuccessURL: get("STRATA_AUDIT_SUCCESS_URL"),
		AuditCancelURL: get("STRATA_AUDIT_CANCEL_URL")}
	if c.SecretKey != "" && !strings.HasPrefix(c.SecretKey, "sk_") && !strings.HasPrefix(c.SecretKey, "rk_") {
		return c, fmt.Errorf("%s: want a secret (sk_...) or restricted (rk_...) Stripe key; a publishable key cannot create sessions",
			cmdpayments.SettingSecretKey)
	}
	for _, s := range strings.Split(get(cmdpayments.SettingWebhookSecrets), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !strings.HasPrefix(s, "whsec_") {
			return c, fmt.Errorf("%s: want comma-separated webhook signing secrets (whsec_...)", cmdpayments.SettingWebhookSecrets)
		}
		c.WebhookSecrets = append(c.WebhookSecrets, s)
	}
	if len(c.WebhookSecrets) > 0 && c.SecretKey == "" {
		return c, fmt.Errorf("%s is set but %s is not: webhooks are processed with the API key", cmdpayments.SettingWebhookSecrets,
			cmdpayments.SettingSecretKey)
	}
	if c.APIBase == "" {
		c.APIBase = cmdpayments.DefaultStripeAPIBase
	}
	if err := checkHTTPURL(c.APIBase); err != nil {
		return c, fmt.Errorf("%s: %w", cmdpayments.SettingAPIBase, err)
	}
	if v := get(cmdpayments.SettingTolerance); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > time.Hour {
			return c, fmt.Errorf("%s: want a duration from 1s to 1h such as 5m, got %q", cmdpayments.SettingTolerance, v)
		}
		c.Tolerance = d
	}
	for name, v := range map[string]string{"STRATA_AUDIT_SUCCESS_URL": c.AuditSuccessURL, "STRATA_AUDIT_CANCEL_URL": c.AuditCancelURL} {
		if v == "" {
			continue
		}
		if err := checkHTTPURL(v); err != nil {
			return c, fmt.Errorf("%s: %w", name, err)
		}
	}
	var err error
	if c.Prices, err = cmdpayments.ParsePrices(env); err != nil {
		return c, err
	}
	return c, nil
}

// startPayments builds the payments service (Stripe when a secret key is
// set) and declares its webhook-processing job.
func startPayments(_ context.Context, app *App) error {
	pc := app.Config.Payments
	master, err := cmdidentity.LoadMasterKey(app.Config.MasterKey, filepath.Join(app.Config.DataDir, "master.key"))
	if err != nil {
		return err
	}
	cfg := cmdpayments.Config{Catalog: payments.NewCatalog(pc.Prices), PayerKey: master.Derive("payments payer"), Logger: app.Logger}
	cfg.Reactions = append(cfg.Reactions, provisionOnCheckout(app)) // identity provisions accounts from paid checkouts
	if pc.SecretKey != "" {
		p, err := cmdpayments.NewStripe(cmdpayments.StripeConfig{SecretKey: pc.SecretKey, WebhookSecrets: pc.WebhookSecrets,
			APIBase: pc.APIBase, Tolerance: pc.Tolerance, Logger: app.Logger})
		if err != nil {
			return fmt.Errorf("payments: %w", err)
		}
		cfg.Provider = p
		app.Logger.Info("payments go through Stripe", "api_base", pc.APIBase, "webhook_secrets", len(pc.WebhookSecrets))
	} else {
		app.Logger.Info("payments are not configured (" + cmdpayments.SettingSecretKey + "): checkout, the billing portal and webhooks answer 503")
	}
	if app.Plans != nil {
		cfg.Reactions = append(cfg.Reactions, plansFromPayments(app.Plans))
	}
	app.Payments = cmdpayments.New(app.Store, app.Keys, app.Clock, app.IDs, cfg)
	return app.Payments.RegisterJobs(app.Jobs)
}

// paymentsRoutes serves payments on the platform API (the account's routes,
// Stripe's webhook, the audit's checkout) and the account's routes on the
// voice surface (the seed's /api/v1/payments/* there).
func paymentsRoutes(surface string, r *mux.Router, app *App) {
	if (surface != "api" && surface != "voice") || app.Payments == nil || app.Auth == nil {
		return
	}
	limiter := cmdidentity.NewSharedLimiter(app.Clock, ratelimit.NewUses(app.Store.DB(), app.Clock))
	limit := func(r *http.Request) error {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if wait, ok := limiter.Take("audit-checkout:"+host, auditCheckoutsPerHour, time.Hour); !ok {
			return httpx.RateLimited("too many checkouts from this address; try again later", wait)
		}
		return nil
	}
	readpayments.Routes(r, readpayments.Config{Service: app.Payments, DB: app.Store.DB(), Auth: app.Auth, Line: payments.LineVoice,
		ReturnURL: app.Config.Issuer, AuditSuccessURL: app.Config.Payments.AuditSuccessURL,
		AuditCancelURL: app.Config.Payments.AuditCancelURL, Limit: limit, AccountOnly: surface == "voice"})
}

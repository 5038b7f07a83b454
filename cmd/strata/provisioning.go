package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/crm"
	cmdidentity "github.com/strata-platform/strata/commands/identity"
	cmdpayments "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
)

// The CRM settings (README's table).
const (
	settingCRMURL     = "STRATA_CRM_URL"
	settingCRMToken   = "STRATA_CRM_TOKEN"
	settingCRMTimeout = "STRATA_CRM_TIMEOUT"
)

// loadCRMConfig reads the CRM the accounts provisioned from checkouts are
// sent to: a URL (empty: no CRM, nothing is sent), an optional bearer
// token and a timeout per call (1s to 1m).
func loadCRMConfig(env map[string]string) (crm.Config, error) {
	get := func(k string) string { return strings.TrimSpace(env[k]) }
	c := crm.Config{URL: get(settingCRMURL), Token: get(settingCRMToken), Timeout: crm.DefaultTimeout}
	if c.URL != "" {
		if err := checkHTTPURL(c.URL); err != nil {
			return c, fmt.Errorf("%s: %w", settingCRMURL, err)
		}
	}
	if c.Token != "" && c.URL == "" {
		return c, fmt.Errorf("%s is set but %s is not: the token is sent to that URL", settingCRMToken, settingCRMURL)
	}
	if v := get(settingCRMTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > time.Minute {
			return c, fmt.Errorf("%s: want a duration from 1s to 1m such as 10s, got %q", settingCRMTimeout, v)
		}
		c.Timeout = d
	}
	return c, nil
}

// provisionOnCheckout is the payments reaction that starts account
// provisioning: a paid checkout's completion (payment_status paid or
// no_payment_required) enqueues identity's provisioning job, once per
// session, in the transaction that records the completion. Identity never
// imports payments; this is where the two meet.
func provisionOnCheckout(app *App) cmdpayments.Reaction {
	return func(ctx context.Context, tx *sql.Tx, recorded []kernel.Event) error {
		if app.Identity == nil {
			return nil
		}
		for _, ev := range recorded {
			c, ok := ev.(*payments.CheckoutSessionCompleted)
			if !ok || !payments.CheckoutPaid(c.PaymentStatus) {
				continue
			}
			if err := app.Identity.Service.EnqueueProvisioning(ctx, tx, c.SessionID); err != nil {
				return err
			}
		}
		return nil
	}
}

// startProvisioning turns on checkout provisioning in identity: its jobs,
// the checkouts it reads from payments, and the CRM adapter (HTTP with
// STRATA_CRM_URL, else none).
func startProvisioning(_ context.Context, app *App) error {
	if app.Identity == nil || app.Payments == nil {
		return nil
	}
	adapter, err := crm.New(app.Config.CRM)
	if err != nil {
		return fmt.Errorf("%s: %w", settingCRMURL, err)
	}
	if adapter.Name() == "none" {
		app.Logger.Info("no CRM is configured (" + settingCRMURL + "): provisioned accounts are not synced anywhere")
	}
	p := cmdidentity.Provisioning{Jobs: app.Jobs, Checkouts: checkoutSource{payments: app.Payments}, CRM: adapter}
	if app.Plans != nil {
		p.OnAccount = planOfCheckout(app.Plans, app.Identity.Service.Directory())
	}
	return app.Identity.Service.EnableProvisioning(p)
}

// checkoutSource gives identity the checkouts payments recorded, the
// payer's data opened (identity.Checkouts).
type checkoutSource struct{ payments *cmdpayments.Service }

// Checkout implements cmdidentity.Checkouts.
func (c checkoutSource) Checkout(ctx context.Context, sessionID string) (cmdidentity.Checkout, error) {
	rec, err := c.payments.RecordedCheckout(ctx, sessionID)
	return checkoutOf(rec), err
}

// Confirm implements cmdidentity.Checkouts.
func (c checkoutSource) Confirm(ctx context.Context, sessionID string) (cmdidentity.Checkout, error) {
	rec, err := c.payments.ConfirmCheckout(ctx, sessionID)
	return checkoutOf(rec), err
}

// checkoutOf reads a payments record as identity needs it.
func checkoutOf(rec cmdpayments.CheckoutRecord) cmdidentity.Checkout {
	out := cmdidentity.Checkout{SessionID: rec.SessionID}
	switch {
	case rec.Paid():
		out.State = cmdidentity.CheckoutPaid
	case rec.Completed != nil:
		out.State = cmdidentity.CheckoutUnpaid
	case rec.Known() || rec.ProviderStatus != "":
		out.State = cmdidentity.CheckoutOpen
	}
	payer := rec.Payer()
	out.Email, out.Name = payer.Email, payer.Name
	var utm payments.UTM
	switch {
	case rec.Completed != nil:
		c := rec.Completed
		out.AccountID, out.ProductLine, out.Plan, utm = c.AccountID, c.ProductLine, c.Plan, c.UTM
	case rec.Created != nil:
		c := rec.Created
		out.AccountID, out.ProductLine, out.Plan, utm = c.AccountID, c.ProductLine, c.Plan, c.UTM
	}
	out.UTM = crm.UTM{Source: utm.Source, Medium: utm.Medium, Campaign: utm.Campaign, Term: utm.Term, Content: utm.Content}
	return out
}

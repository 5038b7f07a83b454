package main

import (
	"context"
	"database/sql"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	cmdpayments "github.com/strata-platform/strata/commands/payments"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/projections/accounts"
)

// plansFromPayments is the payments reaction that keeps plans the one
// source of truth: a paid checkout of a signed-in account puts it on the
// plan it bought at once, and every subscription change the provider
// reports (renewed, past due, cancelled) moves the account's plan in that
// line, in the transaction that records the report. Reports of
// subscriptions naming no account (an anonymous audit checkout before its
// account is provisioned) change no plan. A provider's report older than
// the last one applied changes nothing (domain/plans).
func plansFromPayments(svc *cmdplans.Service) cmdpayments.Reaction {
	return func(ctx context.Context, tx *sql.Tx, recorded []kernel.Event) error {
		for _, ev := range recorded {
			c, ok := planChangeOf(ev)
			if !ok {
				continue
			}
			if _, err := svc.ChangeTx(ctx, tx, c); err != nil {
				return err
			}
		}
		return nil
	}
}

// planChangeOf reads the plan change a payments event means, if any.
func planChangeOf(ev kernel.Event) (plans.Change, bool) {
	switch e := ev.(type) {
	case *payments.CheckoutSessionCompleted:
		paid := e.PaymentStatus == "paid" || e.PaymentStatus == "no_payment_required"
		if e.AccountID == "" || e.ProductLine == "" || e.Plan == "" || !paid {
			return plans.Change{}, false
		}
		return plans.Change{AccountID: e.AccountID, Line: e.ProductLine, Plan: e.Plan, Status: plans.StatusActive,
			Source: plans.SourceCheckout, SubscriptionID: e.SubscriptionID, ProviderTime: e.ProviderCreated}, true
	case *payments.SubscriptionChanged:
		status, ok := planStatus(e.Status)
		if !ok || e.AccountID == "" || e.ProductLine == "" || e.Plan == "" {
			return plans.Change{}, false
		}
		return plans.Change{AccountID: e.AccountID, Line: e.ProductLine, Plan: e.Plan, Status: status,
			Source: plans.SourceSubscription, SubscriptionID: e.SubscriptionID, PeriodEnd: e.CurrentPeriodEnd,
			ProviderTime: e.ProviderCreated}, true
	}
	return plans.Change{}, false
}

// planStatus maps a Stripe subscription status to a plan status; an
// incomplete subscription (its first payment pending) changes nothing.
func planStatus(s string) (string, bool) {
	switch s {
	case "active":
		return plans.StatusActive, true
	case "trialing":
		return plans.StatusTrialing, true
	case "past_due", "unpaid":
		return plans.StatusPastDue, true
	case "canceled", "incomplete_expired", "paused":
		return plans.StatusCanceled, true
	}
	return "", false
}

// planOfCheckout puts the account a paid checkout was provisioned for (or
// linked to) on the plan it bought, in the transaction that records the
// account: an anonymous buyer (the audit's public checkout, a buyer who
// registers afterwards) gets the plan with the account. A signed-in
// buyer's plan was already set by plansFromPayments when the checkout
// completed; the same plan again changes nothing.
func planOfCheckout(svc *cmdplans.Service, dir *accounts.Directory) func(context.Context, *sql.Tx, string, cmdidentity.Checkout) error {
	return func(ctx context.Context, tx *sql.Tx, account string, co cmdidentity.Checkout) error {
		if co.ProductLine == "" || co.Plan == "" {
			return nil
		}
		if s, _, ok := dir.Plan(account, co.ProductLine); ok && s.Plan == co.Plan && s.Status == plans.StatusActive {
			return nil
		}
		_, err := svc.ChangeTx(ctx, tx, plans.Change{AccountID: account, Line: co.ProductLine, Plan: co.Plan,
			Source: plans.SourceCheckout})
		return err
	}
}

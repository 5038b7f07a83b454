package gateway

import (
	"context"
	"log/slog"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/eventstore"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// BillingConfig is what the gateway's billing is made of.
type BillingConfig struct {
	Ledger   *Ledger
	Recorder *Recorder
	Limiter  *RateLimiter
	View     *projgateway.CreditsView
	// PlansSync, when set, returns once the plans reader has applied key
	// (the account directory's Sync): the plans reaction waits for it, so it
	// grants the plan just recorded.
	PlansSync func(ctx context.Context, key eventstore.Key) error
	Logger    *slog.Logger
}

// Billing is what the chat routes call around each request: Admit before
// any upstream call (the plan's requests per hour, then credits for a paid
// model), Record once the request is finished (its usage, durable before
// the response completes). It also serves identity's key verification and
// the metrics. It is safe for concurrent use.
type Billing struct {
	ledger   *Ledger
	recorder *Recorder
	limiter  *RateLimiter
	view     *projgateway.CreditsView
	sync     func(ctx context.Context, key eventstore.Key) error
	log      *slog.Logger
	plans    chan planChange
}

type planChange struct {
	account string
	key     eventstore.Key
}

// NewBilling returns the billing over its parts, and makes the view report
// gateway plan changes to it (the plans reaction, run by Run).
func NewBilling(cfg BillingConfig) *Billing {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Ledger != nil && cfg.Recorder != nil {
		cfg.Ledger.journaled = cfg.Recorder.journaled
	}
	b := &Billing{ledger: cfg.Ledger, recorder: cfg.Recorder, limiter: cfg.Limiter, view: cfg.View, sync: cfg.PlansSync,
		log: cfg.Logger, plans: make(chan planChange, 1024)}
	if b.view != nil {
		b.view.OnPlanChange(func(account string, key eventstore.Key) {
			select {
			case b.plans <- planChange{account, key}:
			default: // full: the grant is recorded at the account's next read anyway
			}
		})
	}
	return b
}

// Ledger returns the ledger's commands.
func (b *Billing) Ledger() *Ledger { return b.ledger }

// Limiter returns the requests-per-hour limiter.
func (b *Billing) Limiter() *RateLimiter { return b.limiter }

// Admission is an admitted request's standing.
type Admission struct {
	Entitlement credits.Entitlement
	Balance     credits.Micro // the balance the request was admitted on
	Limit       Decision
}

// Admit decides, before any upstream call, whether account may send a
// request to model: credits first (a paid model needs a positive balance:
// else a payment_required error, 402, rule insufficient_credits; free
// models always pass), then the gateway plan's requests per hour (else a
// *RateLimited, 429 with Retry-After; the request is counted only when
// admitted). The balance is this process's view of the ledger, less the
// debits it recorded and has not flushed: no query; the period's grant is
// recorded first if it is due.
func (b *Billing) Admit(ctx context.Context, account string, m catalog.Model) (Admission, error) {
	ad := Admission{Entitlement: b.ledger.Entitlement(account)}
	if !credits.IsFree(m) {
		if err := b.ledger.EnsurePeriod(ctx, account); err != nil {
			return ad, err
		}
		ad.Balance = b.Available(account)
		if err := credits.Admit(m, ad.Balance); err != nil {
			b.recorder.stats.refused(m.ID)
			return ad, err
		}
	}
	d, err := b.limiter.Allow(ctx, account, ad.Entitlement.RequestsPerHour)
	ad.Limit = d
	if err != nil {
		return ad, err
	}
	if !d.Allowed {
		b.recorder.stats.limited(ad.Entitlement.Plan)
		return ad, &RateLimited{Plan: ad.Entitlement.Plan, Limit: d.Limit, RetryAfter: d.RetryAfter, Reset: d.Reset}
	}
	return ad, nil
}

// Record records a finished request's usage (Recorder.Record): call it
// once per client request, before the response completes, with the model
// that served it and the tokens delivered, also for a client that went
// away or a stream cut off midway.
func (b *Billing) Record(ctx context.Context, u credits.Usage) (Recorded, error) {
	return b.recorder.Record(ctx, u)
}

// Spool moves the debits this process has journaled so far into the
// ledger (or its pending rows) before it returns: a read of the ledger
// after it counts every request this process recorded before the call.
func (b *Billing) Spool(ctx context.Context) error {
	_, err := b.recorder.spool(ctx)
	return err
}

// Available is the account's balance as this process sees it: its view of
// the ledger less the debits this process recorded and has not flushed.
func (b *Billing) Available(account string) credits.Micro {
	a, _ := b.view.Account(account)
	return a.Balance - b.recorder.Unflushed(account)
}

// Credits is an account's credits for key verification and /auth/me: the
// credits granted in its current period (credits_total) and its balance
// in whole credits, rounded up (credits_remaining: 0 or less exactly when
// the balance is not positive). The period's grant is recorded first if
// due; a failure to record it is logged and the balance read as it is.
func (b *Billing) Credits(ctx context.Context, account string) (total, remaining int64, err error) {
	if err := b.ledger.EnsurePeriod(ctx, account); err != nil {
		b.log.Warn("gateway credits: recording the period's grant failed", "account", account, "err", err)
	}
	a, _ := b.view.Account(account)
	if p, ok := credits.PeriodOf(b.ledger.Entitlement(account), b.ledger.clock.Now()); ok {
		if u, ok := a.Use(p.Key); ok {
			total = u.Granted.CeilCredits()
		}
	}
	return total, (a.Balance - b.recorder.Unflushed(account)).CeilCredits(), nil
}

// Stats returns what this process's billing counted (the metrics).
func (b *Billing) Stats() Stats { return b.recorder.stats.snapshot() }

// Pending counts the debits recorded by every process and not yet flushed.
func (b *Billing) Pending(ctx context.Context) (int64, error) { return b.recorder.Pending(ctx) }

// Run runs the billing's background work until ctx ends: the debit
// flusher (a last flush at the end), the limiter's return of idle leases
// (all of them at the end) and the plans reaction: when the view
// applies a gateway plan change, the account's new period credits are
// granted at once (after the plans reader has applied the change).
func (b *Billing) Run(ctx context.Context) {
	done, limiterDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); b.recorder.Run(ctx) }()
	go func() { defer close(limiterDone); b.limiter.Run(ctx) }()
	for {
		select {
		case <-ctx.Done():
			<-done
			<-limiterDone
			return
		case c := <-b.plans:
			b.react(ctx, c)
		}
	}
}

func (b *Billing) react(ctx context.Context, c planChange) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if b.sync != nil {
		if err := b.sync(rctx, c.key); err != nil {
			b.log.Warn("gateway credits: plans not caught up for a plan change", "account", c.account, "err", err)
			return
		}
	}
	if err := b.ledger.EnsurePeriod(rctx, c.account); err != nil && ctx.Err() == nil {
		b.log.Warn("gateway credits: granting a new plan's credits failed (granted at the account's next read)",
			"account", c.account, "err", err)
	}
}

// Now is the billing's clock.
func (b *Billing) Now() time.Time { return b.ledger.clock.Now() }

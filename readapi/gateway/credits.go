package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// CreditsConfig is what the credits' routes and the chat routes' credits
// hook need.
type CreditsConfig struct {
	Billing *cmdgateway.Billing
	Auth    auth.Authenticator
	DB      *stdsql.DB // the usage records' read model
	Logger  *slog.Logger
}

// CreditsAPI serves GET /api/v1/public/credits/balance and
// /api/v1/public/usage, and is the chat routes' ChatCredits: Admit
// refuses before any upstream call (402 insufficient_credits for a paid
// model without credits, 429 with Retry-After past the plan's requests an
// hour), and the record function it returns records the request's usage
// in the credit ledger.
type CreditsAPI struct {
	cfg CreditsConfig
}

// NewCredits returns the credits' HTTP layer.
func NewCredits(cfg CreditsConfig) *CreditsAPI {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &CreditsAPI{cfg: cfg}
}

var _ ChatCredits = (*CreditsAPI)(nil)

// Admit implements ChatCredits: the gateway's admission of a request by
// the principal's account on model m (cmdgateway.Billing.Admit), and the
// function that records its usage once it is finished. A rate-limited
// request's error carries its Retry-After.
func (c *CreditsAPI) Admit(ctx context.Context, p auth.Principal, m catalog.Model, requestID string) (func(ChatUsage), error) {
	if _, err := c.cfg.Billing.Admit(ctx, p.UserID, m); err != nil {
		return nil, httpError(err)
	}
	return func(u ChatUsage) {
		status := outcome(ctx, u)
		usage := credits.Usage{AccountID: p.UserID, RequestID: requestID, KeyID: p.KeyID, Model: m,
			Tokens: credits.Tokens{Input: int64(u.Usage.InputTokens), Output: int64(u.Usage.OutputTokens)},
			Status: status, Latency: u.Latency, At: c.cfg.Billing.Now()}
		// The client may be gone: the debit is recorded all the same.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if _, err := c.cfg.Billing.Record(rctx, usage); err != nil {
			c.cfg.Logger.Error("gateway credits: recording a request's usage failed", "request_id", requestID,
				"account", p.UserID, "model", m.ID, "error", err)
		}
	}, nil
}

// outcome is the usage record's status of a finished chat request: a
// stream the upstream cut off before saying its usage is interrupted (even
// when the client left on reading the error); one whose client went away
// before its end is disconnected (a reply it never got, a stream cut
// short); a refusal or upstream failure is failed; else completed.
func outcome(ctx context.Context, u ChatUsage) string {
	switch {
	case u.Estimated && u.CutByUpstream && u.Status < 400 && u.Status != 0:
		return credits.StatusInterrupted
	case ctx.Err() != nil && (u.Estimated || u.Status >= 400 || u.Status == 0):
		return credits.StatusDisconnected
	case u.Status >= 400 || u.Status == 0:
		return credits.StatusFailed
	case u.Estimated:
		return credits.StatusInterrupted
	}
	return credits.StatusCompleted
}

// httpError turns a billing refusal into what the HTTP layer writes: a
// *cmdgateway.RateLimited becomes a 429 with Retry-After; others (402
// insufficient_credits) keep their kind.
func httpError(err error) error {
	var rl *cmdgateway.RateLimited
	if errors.As(err, &rl) {
		return httpx.RateLimited(rl.Message(), rl.RetryAfter)
	}
	return err
}

// IdentityCredits is what identity's key verification and /auth/me read
// (readapi/identity.Options.Credits): the credits granted in the account's
// period and its balance in whole credits, from the same ledger.
func (c *CreditsAPI) IdentityCredits(ctx context.Context, accountID string) (total, remaining int64, err error) {
	return c.cfg.Billing.Credits(ctx, accountID)
}

func (c *CreditsAPI) need(h func(w http.ResponseWriter, r *http.Request, p auth.Principal)) http.Handler {
	return RefuseVendorKeys(auth.Require(c.cfg.Auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		h(w, r, p)
	})))
}

type balanceReply struct {
	OK           bool         `json:"ok"`
	Balance      json.Number  `json:"balance"`       // credits, exact
	BalanceMicro int64        `json:"balance_micro"` // micro-credits
	Unit         string       `json:"unit"`
	CreditUSD    json.Number  `json:"credit_usd"`
	Period       *periodReply `json:"period"`
	Plan         planReply    `json:"plan"`
	RateLimit    rateReply    `json:"rate_limit"`
	Pending      pendingReply `json:"pending"`
	Totals       ledgerTotals `json:"totals"`
	AsOf         time.Time    `json:"as_of"`
}

type periodReply struct {
	Start   time.Time   `json:"start"`
	End     time.Time   `json:"end"`
	Granted json.Number `json:"granted"`
	Used    json.Number `json:"used"`
}

type planReply struct {
	Line            string `json:"line"`
	ID              string `json:"id"`
	Name            string `json:"name"`
	MonthlyCredits  int64  `json:"monthly_credits"`
	RequestsPerHour int64  `json:"requests_per_hour"`
}

type rateReply struct {
	RequestsPerHour int64     `json:"requests_per_hour"`
	Used            int64     `json:"used"`
	ResetsAt        time.Time `json:"resets_at"`
}

type pendingReply struct {
	Requests int64       `json:"requests"`
	Amount   json.Number `json:"amount"`
}

type ledgerTotals struct {
	Granted  json.Number `json:"granted"`
	Debited  json.Number `json:"debited"`
	Refunded json.Number `json:"refunded"`
	Adjusted json.Number `json:"adjusted"`
	Requests int64       `json:"requests"`
}

// balance answers GET /api/v1/public/credits/balance: the caller's exact
// balance (every ledger event, less the debits recorded and not flushed
// yet; this process's journaled debits are moved into the ledger first), the current period with what was granted and used in it, the
// gateway plan and its requests an hour.
func (c *CreditsAPI) balance(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	b := c.cfg.Billing
	if err := b.Spool(r.Context()); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	ent := b.Ledger().Entitlement(p.UserID)
	now := b.Now()
	period, current := credits.PeriodOf(ent, now)
	x, err := b.Ledger().Balance(r.Context(), p.UserID, period.Key)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	used, reset, err := b.Limiter().Used(r.Context(), p.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a := x.Account
	out := balanceReply{OK: true, Balance: x.Balance().Number(), BalanceMicro: int64(x.Balance()), Unit: "credit",
		CreditUSD: json.Number(credits.CreditUSD),
		Plan: planReply{Line: "gateway", ID: ent.Plan, Name: ent.PlanName, MonthlyCredits: ent.MonthlyCredits,
			RequestsPerHour: ent.RequestsPerHour},
		RateLimit: rateReply{RequestsPerHour: ent.RequestsPerHour, Used: used, ResetsAt: reset},
		Pending:   pendingReply{Requests: x.PendingCount, Amount: x.Pending.Number()},
		Totals: ledgerTotals{Granted: a.Granted.Number(), Debited: (a.Debited + x.Pending).Number(), Refunded: a.Refunded.Number(),
			Adjusted: a.Adjusted.Number(), Requests: a.Requests + x.PendingCount},
		AsOf: now.UTC()}
	var use credits.PeriodUse
	var ok bool
	if current {
		use, ok = a.Use(period.Key)
		if !ok {
			use, ok = credits.PeriodUse{Period: period}, true
		}
		use.Used += x.PendingInPeriod
	} else if n := len(a.Periods); n > 0 { // a lapsed subscription: its last period
		use, ok = a.Periods[n-1], true
	}
	if ok {
		out.Period = &periodReply{Start: use.Start, End: use.End, Granted: use.Granted.Number(), Used: use.Used.Number()}
	}
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}

package credits

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
)

// DecidePeriod returns what an account whose credits stream folds to a
// owes it at now: the carry-over of identity's legacy balance (once), and
// the plan's monthly credits for the current period, less what plan grants
// gave in that period already. An upgrade within a period therefore grants
// the difference, a downgrade nothing, and the same plan again nothing: a
// period is granted the most any plan the account held in it gives, once.
func DecidePeriod(a Account, e Entitlement, now time.Time) []kernel.Event {
	var out []kernel.Event
	now = now.UTC()
	if !a.LegacyCarried && e.LegacyCredits > 0 {
		out = append(out, &Adjusted{AccountID: a.AccountID, AmountMicro: FromCredits(e.LegacyCredits),
			Reason: ReasonLegacyBalance, Actor: "system", Note: "identity's credit balance before the ledger", At: now})
	}
	if e.MonthlyCredits <= 0 {
		return out
	}
	p, ok := PeriodOf(e, now)
	if !ok {
		return out
	}
	use, _ := a.Use(p.Key)
	want := FromCredits(e.MonthlyCredits)
	if use.PlanGranted >= want {
		return out
	}
	return append(out, &Granted{AccountID: a.AccountID, AmountMicro: want - use.PlanGranted, Reason: ReasonPlanPeriod,
		Period: &p, Plan: e.Plan, IdempotencyKey: fmt.Sprintf("plan_period:%s:%s:%d", p.Key, e.Plan, want), Actor: "system", At: now})
}

// PeriodDue reports whether DecidePeriod would record something for a at
// now: the cheap check a reader makes before deciding on the stream.
func PeriodDue(a Account, e Entitlement, now time.Time) bool {
	return len(DecidePeriod(a, e, now)) > 0
}

// Grant is an operator's grant.
type Grant struct {
	AccountID string
	Credits   Micro
	Reason    string // OperatorReasons; ReasonOperator when empty
	Key       string // idempotency key: the same key grants once (optional)
	Actor     string
	Note      string
}

// Check validates an operator's grant: a positive amount, a known reason,
// a key and note of printable length.
func (g *Grant) Check() error {
	if strings.TrimSpace(g.AccountID) == "" {
		return kernel.Invalid("account_id", "required", "account_id is required")
	}
	if g.Credits <= 0 {
		return kernel.Invalid("amount", "min:0.000001", "a grant must be a positive number of credits")
	}
	if g.Reason == "" {
		g.Reason = ReasonOperator
	}
	if !slices.Contains(OperatorReasons(), g.Reason) {
		return kernel.Invalid("reason", "enum:"+strings.Join(OperatorReasons(), ","),
			"reason must be one of "+strings.Join(OperatorReasons(), ", ")+" (plan_period grants are the plans' own)")
	}
	if len(g.Key) > 200 || len(g.Note) > 500 {
		return kernel.Invalid("key", "max_length:200", "the key may have 200 characters and the note 500")
	}
	return nil
}

// DecideGrant returns the event of a checked operator's grant, in the
// period that contains now if the account has one.
func DecideGrant(a Account, g Grant, now time.Time) *Granted {
	ev := &Granted{AccountID: g.AccountID, AmountMicro: g.Credits, Reason: g.Reason, IdempotencyKey: g.Key,
		Actor: g.Actor, Note: g.Note, At: now.UTC()}
	if p, ok := a.PeriodAt(now); ok {
		ev.Period = &p
	}
	return ev
}

// DecideSetBalance returns the adjustment that makes a balance of current
// become target (nil when it already is).
func DecideSetBalance(accountID string, current, target Micro, actor string, now time.Time) *Adjusted {
	if target == current {
		return nil
	}
	return &Adjusted{AccountID: accountID, AmountMicro: target - current, Reason: ReasonSetBalance, Actor: actor,
		Note: "balance set to " + target.Decimal() + " credits", At: now.UTC()}
}

// Debit is a recorded debit, as a refund needs it.
type Debit struct {
	AccountID   string
	RequestID   string
	AmountMicro Micro
	Period      *Period
}

// DecideRefund returns the refund of amount (0: the whole debit) of debit,
// which no refund has given back yet: at most the debit's amount, more
// than nothing.
func DecideRefund(d Debit, amount Micro, reason, actor string, now time.Time) (*Refunded, error) {
	if amount == 0 {
		amount = d.AmountMicro
	}
	if amount <= 0 {
		return nil, kernel.Invalid("amount", "min:0.000001", "a refund must be a positive number of credits (this request cost nothing)")
	}
	if amount > d.AmountMicro {
		return nil, kernel.Invalid("amount", "max:"+d.AmountMicro.Decimal(),
			fmt.Sprintf("a refund may give back at most the request's %s credits", d.AmountMicro.Decimal()))
	}
	if strings.TrimSpace(reason) == "" {
		return nil, kernel.Invalid("reason", "required", "a refund needs a reason")
	}
	return &Refunded{AccountID: d.AccountID, RequestID: d.RequestID, AmountMicro: amount, Period: d.Period,
		Reason: reason, Actor: actor, At: now.UTC()}, nil
}

// RuleInsufficientCredits is the rule of a paid request refused for want
// of credits (HTTP 402 Payment Required).
const RuleInsufficientCredits = "insufficient_credits"

// Admit decides whether a request on model may go upstream given the
// account's balance: a free model always may; a paid one only while the
// balance is positive. The refusal is a payment_required error (402).
// What the request will cost is only known after it (its tokens), so the
// last request of a positive balance may take it below zero; the next
// paid one is refused.
func Admit(m catalog.Model, balance Micro) error {
	if IsFree(m) || balance > 0 {
		return nil
	}
	return &kernel.Error{Kind: kernel.KindPaymentRequired, Field: "model", Rule: RuleInsufficientCredits,
		Message: fmt.Sprintf("no credits left (balance %s): %s is a paid model; free models still work, and credits come with the plan each period or can be bought",
			balance.Decimal(), m.ID)}
}

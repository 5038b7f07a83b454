package credits

import (
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
)

// Streams. An account's grants, adjustments and refunds (few, decided on
// the account's state) go to its credits stream, appended at the version
// folded; debits (one per request, many) go to the debit stream of the
// writer that flushed them (one writer per process), so recording a
// request never contends on the account's stream.
const (
	AccountStreamType = "gateway.credits"
	DebitStreamType   = "gateway.debits"
)

// AccountStream is the id of an account's credits stream.
func AccountStream(accountID string) string { return "gateway-credits:" + accountID }

// DebitStream is the id of a debit writer's stream.
func DebitStream(writer string) string { return "gateway-debits:" + writer }

// Reasons of a grant.
const (
	ReasonPlanPeriod   = "plan_period"  // the gateway plan's monthly credits for a period
	ReasonOperator     = "operator"     // an operator's grant (strata credits grant)
	ReasonPromotion    = "promotion"    // an operator's grant, as a promotion
	ReasonCompensation = "compensation" // an operator's grant, for an incident
)

// OperatorReasons are the reasons an operator may give a grant.
func OperatorReasons() []string { return []string{ReasonOperator, ReasonPromotion, ReasonCompensation} }

// Reasons of an adjustment.
const (
	ReasonSetBalance    = "set_balance"    // strata users set-plan --credits N: the balance made N
	ReasonLegacyBalance = "legacy_balance" // identity's credit balance from before the ledger, carried over once
	ReasonServiceCharge = "service_charge" // a service's work paid in credits (an avatar video's seconds), once per charge id
)

// Period is one credit period of an account: a calendar month (UTC), or a
// month of its gateway subscription ending at its billing anchor. Key is
// its ISO 8601 interval "start/end", unique per account.
type Period struct {
	Key   string    `json:"key"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Granted adds credits to an account: the gateway plan's monthly credits
// for a period, or an operator's grant.
type Granted struct {
	AccountID   string  `json:"account_id"`
	AmountMicro Micro   `json:"amount_micro"`
	Reason      string  `json:"reason"`
	Period      *Period `json:"period,omitempty"` // the period it was granted in (for plan_period: for)
	Plan        string  `json:"plan,omitempty"`   // plan_period: the gateway plan granted for
	// IdempotencyKey makes a grant happen once per account and key
	// (plan_period: the period, the plan and the amount reached).
	IdempotencyKey string    `json:"idempotency_key,omitempty"`
	Actor          string    `json:"actor,omitempty"`
	Note           string    `json:"note,omitempty"`
	At             time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (Granted) EventType() string { return "credits.granted" }

// Debited takes a finished request's cost from an account: exactly one per
// request id, recorded for every request that reached an upstream, free
// ones and failed ones included (amount 0), so the per-request usage
// records are the projection of the debits.
type Debited struct {
	AccountID   string          `json:"account_id"`
	RequestID   string          `json:"request_id"`
	KeyID       string          `json:"key_id,omitempty"`
	Model       string          `json:"model"`
	Upstream    string          `json:"upstream,omitempty"`
	Tokens                      // input, output and cache-read tokens
	AmountMicro Micro           `json:"amount_micro"`
	Pricing     catalog.Pricing `json:"pricing"` // the model's prices the amount was computed from
	Status      string          `json:"status"`
	LatencyMS   int64           `json:"latency_ms"`
	Period      *Period         `json:"period,omitempty"` // the account's period the request fell in
	At          time.Time       `json:"at"`
}

// EventType implements kernel.Event.
func (Debited) EventType() string { return "credits.debited" }

// OccurredAt implements kernel.Dated: a debit happened when its request
// finished, whenever it was flushed.
func (e Debited) OccurredAt() time.Time { return e.At }

// Refunded gives back (part of) one request's debit, once per request.
type Refunded struct {
	AccountID   string    `json:"account_id"`
	RequestID   string    `json:"request_id"`
	AmountMicro Micro     `json:"amount_micro"`
	Period      *Period   `json:"period,omitempty"` // the debit's period
	Reason      string    `json:"reason"`
	Actor       string    `json:"actor,omitempty"`
	At          time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (Refunded) EventType() string { return "credits.refunded" }

// Adjusted corrects an account's balance by a signed amount.
type Adjusted struct {
	AccountID   string    `json:"account_id"`
	AmountMicro Micro     `json:"amount_micro"` // positive or negative
	Reason      string    `json:"reason"`
	Actor       string    `json:"actor,omitempty"`
	Note        string    `json:"note,omitempty"`
	At          time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (Adjusted) EventType() string { return "credits.adjusted" }

// Events lists the ledger's events for the registry.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &Granted{} },
		func() kernel.Event { return &Debited{} },
		func() kernel.Event { return &Refunded{} },
		func() kernel.Event { return &Adjusted{} },
	}
}

// EventTypes lists the ledger's event type names.
func EventTypes() []string {
	var out []string
	for _, c := range Events() {
		out = append(out, c().EventType())
	}
	return out
}

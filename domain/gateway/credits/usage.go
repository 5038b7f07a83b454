package credits

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
)

// Outcomes of a request, as its usage record shows them.
const (
	StatusCompleted    = "completed"    // the answer was delivered whole
	StatusDisconnected = "disconnected" // the client went away; what was delivered is billed
	StatusInterrupted  = "interrupted"  // the upstream cut the answer off midway; what was delivered is billed
	StatusFailed       = "failed"       // no answer was delivered (the upstreams failed); nothing is billed unless tokens are given
)

// Statuses lists the outcomes.
func Statuses() []string {
	return []string{StatusCompleted, StatusDisconnected, StatusInterrupted, StatusFailed}
}

// MaxRequestIDLen bounds a request id.
const MaxRequestIDLen = 200

// Usage is what a finished request used: the chat routes hand it to the
// debit recorder once per client request, with the model that actually
// served it (after retries and fallbacks) and the tokens delivered.
type Usage struct {
	AccountID string
	RequestID string // unique per request: a second record with it is dropped
	KeyID     string // the API key the request came with, if any
	Model     catalog.Model
	Tokens
	Status  string
	Latency time.Duration
	At      time.Time // when the request finished
}

// Check validates u, naming the field at fault.
func (u Usage) Check() error {
	switch {
	case strings.TrimSpace(u.AccountID) == "":
		return kernel.Invalid("account_id", "required", "a usage record needs the account")
	case strings.TrimSpace(u.RequestID) == "":
		return kernel.Invalid("request_id", "required", "a usage record needs the request id")
	case len(u.RequestID) > MaxRequestIDLen || !utf8.ValidString(u.RequestID) || strings.ContainsRune(u.RequestID, 0):
		return kernel.Invalid("request_id", "max_length:200", "a request id is printable text of at most 200 bytes")
	case strings.TrimSpace(u.Model.ID) == "":
		return kernel.Invalid("model", "required", "a usage record needs the model that served the request")
	case !slices.Contains(Statuses(), u.Status):
		return kernel.Invalid("status", "enum:"+strings.Join(Statuses(), ","), "status must be one of "+strings.Join(Statuses(), ", "))
	case u.Latency < 0:
		return kernel.Invalid("latency", "min:0", "latency must not be negative")
	case u.At.IsZero():
		return kernel.Invalid("at", "required", "a usage record needs the time the request finished")
	}
	return nil
}

// NewDebit returns the debit of a checked usage: its cost on the model's
// current prices (a free model: 0), in the account's period that contains
// it, if known.
func NewDebit(u Usage, period *Period) (*Debited, error) {
	if err := u.Check(); err != nil {
		return nil, err
	}
	cost, err := Cost(u.Model, u.Tokens)
	if err != nil {
		return nil, err
	}
	return &Debited{AccountID: u.AccountID, RequestID: u.RequestID, KeyID: u.KeyID, Model: u.Model.ID,
		Upstream: u.Model.Upstream.ID, Tokens: u.Tokens, AmountMicro: cost, Pricing: u.Model.Pricing, Status: u.Status,
		LatencyMS: u.Latency.Milliseconds(), Period: period, At: u.At.UTC()}, nil
}

package actions

import (
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/domain/kernel"
)

// Codes of the action failures (kernel.Error.Code).
const (
	CodeNotConnected      = "not_connected"
	CodeReconnectRequired = "reconnect_required"
	CodeProviderRefused   = "provider_refused"
	CodeProviderBusy      = "provider_unavailable"
	CodeOutcomeUnknown    = "outcome_unknown"
)

// NotConnected is the error for an owner without a connected account of
// provider kind: conflict (409, the caller's state, not the request, is
// what must change), code "not_connected", naming the kind to connect.
func NotConnected(provider string) *kernel.Error {
	return &kernel.Error{Kind: kernel.KindConflict, Code: CodeNotConnected,
		Message: "no " + provider + " account is connected: connect the " + provider + " provider first, then retry"}
}

// Failed is a provider failure as the API answers it: Err is the kernel
// error (its kind gives the status), RetryAfter the provider's wait before
// a retry (0: unknown), Class the failure's class.
type Failed struct {
	Err        *kernel.Error
	Class      connections.Class
	RetryAfter time.Duration
}

// Error implements error.
func (f *Failed) Error() string { return f.Err.Error() }

// Unwrap returns the kernel error.
func (f *Failed) Unwrap() error { return f.Err }

// Failure maps a provider call's failure (a *connections.CallError) for
// the kind of provider named label to the answer:
//
//   - Refused: unprocessable (422), code "provider_refused", with the
//     provider's reason;
//   - Unauthorized: conflict (409), code "reconnect_required", naming the
//     provider kind to reconnect (the caller's bearer is fine: not 401);
//   - Transient: unavailable (503), code "provider_unavailable", with the
//     provider's Retry-After in RetryAfter: nothing was done, retry later;
//   - Unconfirmed: gateway timeout (504) when no answer came, bad gateway
//     (502) when the provider answered an error, code "outcome_unknown": it
//     may have acted, and the action was not retried.
//
// Other errors are returned unchanged.
func Failure(kind, label string, err error) error {
	ce := connections.AsCallError(err)
	if ce == nil {
		return err
	}
	reason := ce.Reason
	if reason == "" {
		reason = string(ce.Class)
	}
	f := &Failed{Class: ce.Class, RetryAfter: ce.RetryAfter}
	switch ce.Class {
	case connections.Refused:
		f.Err = &kernel.Error{Kind: kernel.KindUnprocessable, Code: CodeProviderRefused, Err: err,
			Message: label + " refused the action: " + reason}
	case connections.Unauthorized:
		f.Err = &kernel.Error{Kind: kernel.KindConflict, Code: CodeReconnectRequired, Err: err,
			Message: label + " no longer accepts the connected account (" + reason + "): reconnect the " + kind + " provider, then retry"}
	case connections.Transient:
		f.Err = &kernel.Error{Kind: kernel.KindUnavailable, Code: CodeProviderBusy, Err: err,
			Message: label + " is unavailable or limiting requests (" + reason + "); nothing was done, retry later"}
	default:
		k := kernel.KindBadGateway
		if ce.Status == 0 {
			k = kernel.KindTimeout
		}
		f.Err = &kernel.Error{Kind: k, Code: CodeOutcomeUnknown, Err: err,
			Message: label + " did not confirm the action (" + reason + "): it may or may not have been done, " +
				"and it was not retried; check before trying again"}
	}
	return f
}

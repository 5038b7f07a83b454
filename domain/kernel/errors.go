package kernel

import (
	"errors"
	"fmt"
)

// Kind classifies an error for the edge. Only readapi/httpx maps a Kind to an
// HTTP status; the domain and the commands speak in kinds.
type Kind int

// The error kinds. KindInternal is the zero value on purpose: an error that
// carries no kind is an internal error and its text is never shown to clients.
const (
	KindInternal Kind = iota
	KindInvalid
	KindUnauthenticated
	KindForbidden
	KindNotFound
	KindConflict
	KindPaymentRequired
	KindRateLimited
	KindUnavailable
	KindTooLarge
	KindUnsupportedMediaType
	KindMethodNotAllowed
	KindUnprocessable
	KindUnavailableForLegalReasons
	KindTimeout
	KindBadGateway // something we run or call answered badly (a deploy's health checks)
	KindGone       // existed once and was withdrawn for good (a retracted dataset version)
)

var kindNames = map[Kind]string{
	KindInternal:                   "internal",
	KindInvalid:                    "invalid",
	KindUnauthenticated:            "unauthenticated",
	KindForbidden:                  "forbidden",
	KindNotFound:                   "not_found",
	KindConflict:                   "conflict",
	KindPaymentRequired:            "payment_required",
	KindRateLimited:                "rate_limited",
	KindUnavailable:                "unavailable",
	KindTooLarge:                   "too_large",
	KindUnsupportedMediaType:       "unsupported_media_type",
	KindMethodNotAllowed:           "method_not_allowed",
	KindUnprocessable:              "unprocessable",
	KindUnavailableForLegalReasons: "unavailable_for_legal_reasons",
	KindTimeout:                    "timeout",
	KindBadGateway:                 "bad_gateway",
	KindGone:                       "gone",
}

// String returns the snake_case name of the kind.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is an error with a kind, a client-safe message and, for invalid
// input, the offending field and the rule it broke.
type Error struct {
	Kind    Kind
	Message string // safe to show to clients
	Field   string // offending input field, if any ("email", "items[2].qty")
	Rule    string // the rule the field broke ("required", "max_length:1600")
	Code    string // a specific snake_case code for styles that print one ("do_not_call"); empty: the kind's
	Err     error  // wrapped cause, never shown to clients
}

// Error implements error.
func (e *Error) Error() string {
	msg := e.Kind.String() + ": " + e.Message
	if e.Field != "" {
		msg += " (field " + e.Field
		if e.Rule != "" {
			msg += ", rule " + e.Rule
		}
		msg += ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is a kernel error of the same kind with no
// message, so errors.Is(err, kernel.ErrConflict) matches any conflict.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Field == "" && t.Kind == e.Kind
}

// Sentinels for errors.Is checks by kind.
var (
	ErrInvalid         = &Error{Kind: KindInvalid}
	ErrUnauthenticated = &Error{Kind: KindUnauthenticated}
	ErrForbidden       = &Error{Kind: KindForbidden}
	ErrNotFound        = &Error{Kind: KindNotFound}
	ErrConflict        = &Error{Kind: KindConflict}
	ErrUnavailable     = &Error{Kind: KindUnavailable}
)

// KindOf returns the kind of the first *Error in err's chain, or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// Invalid reports bad input: field broke rule. message explains it to a person.
func Invalid(field, rule, message string) *Error {
	return &Error{Kind: KindInvalid, Field: field, Rule: rule, Message: message}
}

// NotFound reports a missing resource.
func NotFound(message string) *Error { return &Error{Kind: KindNotFound, Message: message} }

// Conflict reports a clash with the current state (a version or a duplicate).
func Conflict(message string, cause error) *Error {
	return &Error{Kind: KindConflict, Message: message, Err: cause}
}

// Unauthenticated reports missing or invalid credentials.
func Unauthenticated(message string) *Error {
	return &Error{Kind: KindUnauthenticated, Message: message}
}

// Forbidden reports valid credentials without the needed permission.
func Forbidden(message string) *Error { return &Error{Kind: KindForbidden, Message: message} }

// Unavailable reports a dependency that cannot serve right now.
func Unavailable(message string, cause error) *Error {
	return &Error{Kind: KindUnavailable, Message: message, Err: cause}
}

// E builds an error of any kind.
func E(kind Kind, message string) *Error { return &Error{Kind: kind, Message: message} }

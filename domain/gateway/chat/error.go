package chat

import (
	"errors"

	"github.com/strata-platform/strata/domain/kernel"
)

// Error is an error as a client of either format sees it: a refused request,
// an upstream's error, or an error in the middle of a stream (then it is the
// stream's last event). Each codec writes it in its format's shape and picks
// its format's type string from Kind.
type Error struct {
	Kind    kernel.Kind
	Message string // shown to the client
	Param   string // the offending request field, if any ("messages[0].content")
	Code    string // a machine-readable code, if any (a rule such as "range:0-2", "model_deprecated")
}

// Error implements error.
func (e Error) Error() string {
	msg := e.Kind.String() + ": " + e.Message
	if e.Param != "" {
		msg += " (param " + e.Param + ")"
	}
	return msg
}

// InternalMessage is what a client is told of an error that carries no kind:
// its text may hold internals and is never shown.
const InternalMessage = "internal server error"

// ErrorFrom turns any error into what a client may see: a chat.Error as it
// is, a *kernel.Error by its kind, message, field (Param) and rule (Code),
// anything else as an internal error whose text is withheld.
func ErrorFrom(err error) Error {
	var ce Error
	if errors.As(err, &ce) {
		return ce
	}
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Kind != kernel.KindInternal {
		return Error{Kind: ke.Kind, Message: ke.Message, Param: ke.Field, Code: ke.Rule}
	}
	return Error{Kind: kernel.KindInternal, Message: InternalMessage}
}

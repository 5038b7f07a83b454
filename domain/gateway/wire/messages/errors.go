package messages

import (
	"encoding/json"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
	"github.com/strata-platform/strata/domain/kernel"
)

// errorTypes gives each error kind its type in this format. Kinds with no
// type of their own share one; errorKinds reads the types back.
var errorTypes = map[kernel.Kind]string{
	kernel.KindInvalid:                    "invalid_request_error",
	kernel.KindUnprocessable:              "invalid_request_error",
	kernel.KindConflict:                   "conflict_error",
	kernel.KindUnsupportedMediaType:       "invalid_request_error",
	kernel.KindMethodNotAllowed:           "invalid_request_error",
	kernel.KindUnauthenticated:            "authentication_error",
	kernel.KindPaymentRequired:            "billing_error",
	kernel.KindForbidden:                  "permission_error",
	kernel.KindUnavailableForLegalReasons: "permission_error",
	kernel.KindNotFound:                   "not_found_error",
	kernel.KindTooLarge:                   "request_too_large",
	kernel.KindRateLimited:                "rate_limit_error",
	kernel.KindTimeout:                    "timeout_error",
	kernel.KindUnavailable:                "overloaded_error",
	kernel.KindInternal:                   "api_error",
}

var errorKinds = map[string]kernel.Kind{
	"invalid_request_error": kernel.KindInvalid,
	"authentication_error":  kernel.KindUnauthenticated,
	"billing_error":         kernel.KindPaymentRequired,
	"permission_error":      kernel.KindForbidden,
	"not_found_error":       kernel.KindNotFound,
	"request_too_large":     kernel.KindTooLarge,
	"rate_limit_error":      kernel.KindRateLimited,
	"timeout_error":         kernel.KindTimeout,
	"overloaded_error":      kernel.KindUnavailable,
	"api_error":             kernel.KindInternal,
	"conflict_error":        kernel.KindConflict,
}

// ErrorType is this format's error type for a kind (api_error for kinds it
// does not know).
func ErrorType(k kernel.Kind) string {
	if t, ok := errorTypes[k]; ok {
		return t
	}
	return "api_error"
}

type errorBody struct {
	Type  string      `json:"type"`
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// EncodeError writes e as this format's error body, {"type": "error",
// "error": {"type", "message"}}; the same object is the data of a stream's
// error event. The message names the offending field, if any.
func EncodeError(e chat.Error) []byte {
	msg := e.Message
	if e.Param != "" && !strings.Contains(msg, e.Param) {
		msg = e.Param + ": " + msg
	}
	b, _ := wirejson.Marshal(errorBody{Type: "error", Error: errorDetail{Type: ErrorType(e.Kind), Message: msg}})
	return b
}

// DecodeError reads an upstream's error body of this format. The kind comes
// from the error's type, or from the HTTP status (0 in a stream) when the
// type is unknown or the body is not this format's.
func DecodeError(status int, body []byte) chat.Error {
	var b errorBody
	_ = json.Unmarshal(body, &b)
	kind, ok := errorKinds[b.Error.Type]
	if !ok {
		kind = wirejson.KindOfStatus(status)
	}
	msg := b.Error.Message
	if msg == "" {
		msg = strings.TrimSpace(string(body))
		if len(msg) > 500 || msg == "" {
			msg = "the upstream failed"
		}
	}
	return chat.Error{Kind: kind, Message: msg}
}

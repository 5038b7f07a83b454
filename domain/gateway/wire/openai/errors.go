package openai

import (
	"encoding/json"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
	"github.com/strata-platform/strata/domain/kernel"
)

// errorTypes gives each error kind its type in this format; errorKinds
// reads types back (with the OpenAI API's own rate-limit and quota types).
var errorTypes = map[kernel.Kind]string{
	kernel.KindInvalid:                    "invalid_request_error",
	kernel.KindUnprocessable:              "invalid_request_error",
	kernel.KindConflict:                   "invalid_request_error",
	kernel.KindUnsupportedMediaType:       "invalid_request_error",
	kernel.KindMethodNotAllowed:           "invalid_request_error",
	kernel.KindTooLarge:                   "invalid_request_error",
	kernel.KindUnauthenticated:            "authentication_error",
	kernel.KindPaymentRequired:            "insufficient_quota",
	kernel.KindForbidden:                  "permission_error",
	kernel.KindUnavailableForLegalReasons: "permission_error",
	kernel.KindNotFound:                   "not_found_error",
	kernel.KindRateLimited:                "rate_limit_error",
	kernel.KindTimeout:                    "timeout_error",
	kernel.KindUnavailable:                "service_unavailable_error",
	kernel.KindInternal:                   "server_error",
}

var errorKinds = map[string]kernel.Kind{
	"invalid_request_error":     kernel.KindInvalid,
	"authentication_error":      kernel.KindUnauthenticated,
	"insufficient_quota":        kernel.KindPaymentRequired,
	"permission_error":          kernel.KindForbidden,
	"not_found_error":           kernel.KindNotFound,
	"rate_limit_error":          kernel.KindRateLimited,
	"rate_limit_exceeded":       kernel.KindRateLimited,
	"requests":                  kernel.KindRateLimited,
	"tokens":                    kernel.KindRateLimited,
	"timeout_error":             kernel.KindTimeout,
	"service_unavailable_error": kernel.KindUnavailable,
	"server_error":              kernel.KindInternal,
}

// ErrorType is this format's error type for a kind (server_error for kinds
// it does not know).
func ErrorType(k kernel.Kind) string {
	if t, ok := errorTypes[k]; ok {
		return t
	}
	return "server_error"
}

type errorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// EncodeError writes e as this format's error body, {"error": {"message",
// "type", "param", "code"}} (param and code null when unset); the same
// object is the data of a stream's error chunk.
func EncodeError(e chat.Error) []byte {
	b, _ := wirejson.Marshal(errorBody{Error: errorDetail{Message: e.Message, Type: ErrorType(e.Kind),
		Param: nullable(e.Param), Code: nullable(e.Code)}})
	return b
}

// DecodeError reads an upstream's error body of this format. The kind comes
// from the error's type, or from the HTTP status (0 in a stream) when the
// type is unknown or the body is not this format's.
func DecodeError(status int, body []byte) chat.Error {
	var b struct {
		Error struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Param   *string         `json:"param"`
			Code    json.RawMessage `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &b)
	kind, ok := errorKinds[b.Error.Type]
	if !ok {
		kind = wirejson.KindOfStatus(status)
	}
	e := chat.Error{Kind: kind, Message: b.Error.Message}
	if b.Error.Param != nil {
		e.Param = *b.Error.Param
	}
	var code string
	if json.Unmarshal(b.Error.Code, &code) == nil {
		e.Code = code
	} else if len(b.Error.Code) > 0 && string(b.Error.Code) != "null" {
		e.Code = string(b.Error.Code) // some servers send a number
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(body))
		if len(e.Message) > 500 || e.Message == "" {
			e.Message = "the upstream failed"
		}
	}
	return e
}

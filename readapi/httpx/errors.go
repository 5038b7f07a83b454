package httpx

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// internalMessage is all a client ever learns about an internal error.
const internalMessage = "internal server error"

// RetryAfter is an error that tells the client when to try again. WriteError
// sets the Retry-After header (whole seconds, at least 1) from After when the
// response status is 429 or 503; the status and body come from Err.
type RetryAfter struct {
	After time.Duration
	Err   error // normally a *kernel.Error of kind rate_limited or unavailable
}

// Error implements error.
func (e *RetryAfter) Error() string {
	if e.Err == nil {
		return "retry after " + e.After.String()
	}
	return e.Err.Error() + " (retry after " + e.After.String() + ")"
}

// Unwrap returns Err, so kernel.KindOf and errors.As see the kernel error.
func (e *RetryAfter) Unwrap() error { return e.Err }

// RateLimited returns a rate_limited error (429) carrying a Retry-After of after.
func RateLimited(message string, after time.Duration) error {
	return &RetryAfter{After: after, Err: kernel.E(kernel.KindRateLimited, message)}
}

// WriteError writes err as the error response of the request's surface (see
// WithSurface) and never fails. The status comes from the kind of the first
// *kernel.Error in err's chain. An error without one, of kind internal, or of
// an unknown kind is logged with the request id and answered with a 500 whose
// body says only "internal server error": its text never reaches the client.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	writeStyled(w, r, SurfaceFrom(r.Context()).Style, err)
}

// writeStyled is WriteError with an explicit style (used by the router's
// 404/405 handlers, which know their style without the context).
func writeStyled(w http.ResponseWriter, r *http.Request, style Style, err error) {
	var ke *kernel.Error
	info, known := kindInfo{}, false
	if errors.As(err, &ke) {
		info, known = infoFor(ke.Kind)
	}
	if !known || ke.Kind == kernel.KindInternal {
		logInternal(r, err)
		writeBody(w, r, style, internalView(r))
		return
	}
	var ra *RetryAfter
	if errors.As(err, &ra) && (info.status == http.StatusTooManyRequests || info.status == http.StatusServiceUnavailable) {
		secs := int64((ra.After + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
	}
	writeBody(w, r, style, errorView{
		info:      info,
		kind:      ke.Kind,
		message:   clientMessage(ke, info.status),
		field:     ke.Field,
		rule:      ke.Rule,
		detail:    ke.Message,
		code:      ke.Code,
		requestID: RequestID(r.Context()),
		path:      r.URL.Path,
		members:   membersOf(err),
	})
}

func logInternal(r *http.Request, err error) {
	ctx := r.Context()
	s := SurfaceFrom(ctx)
	s.Logger.ErrorContext(ctx, "internal error",
		"request_id", RequestID(ctx), "surface", s.Name,
		"method", r.Method, "path", r.URL.Path, "error", errString(err))
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func internalView(r *http.Request) errorView {
	return errorView{
		info:      internalInfo(),
		kind:      kernel.KindInternal,
		message:   internalMessage,
		requestID: RequestID(r.Context()),
		path:      r.URL.Path,
	}
}

// clientMessage is the one-line human message of a client error. For an error
// with a field it always starts "<field>: <rule>", so bad input names both the
// field and the rule it broke, e.g. "email: required (email is required)".
func clientMessage(e *kernel.Error, status int) string {
	if e.Field == "" {
		if e.Message == "" {
			return http.StatusText(status)
		}
		return e.Message
	}
	head := e.Field
	if e.Rule != "" {
		head += ": " + e.Rule
	}
	if e.Message == "" {
		return head
	}
	if e.Rule == "" {
		return head + ": " + e.Message
	}
	return head + " (" + e.Message + ")"
}

package httpx

import (
	"net/http"

	"github.com/strata-platform/strata/domain/kernel"
)

// kindInfo is everything the edge derives from an error kind: the status and
// the codes the captable and voice styles print. This table is the only
// place in Strata that maps a kind to an HTTP status.
type kindInfo struct {
	status   int
	captable string // uppercase code of the captable style
	voice    string // snake_case code of the voice style
}

func infoFor(k kernel.Kind) (kindInfo, bool) {
	switch k {
	case kernel.KindInvalid:
		return kindInfo{http.StatusBadRequest, "VALIDATION_ERROR", "bad_request"}, true
	case kernel.KindUnauthenticated:
		return kindInfo{http.StatusUnauthorized, "UNAUTHORIZED", "unauthorized"}, true
	case kernel.KindPaymentRequired:
		return kindInfo{http.StatusPaymentRequired, "PAYMENT_REQUIRED", "payment_required"}, true
	case kernel.KindForbidden:
		return kindInfo{http.StatusForbidden, "FORBIDDEN", "forbidden"}, true
	case kernel.KindNotFound:
		return kindInfo{http.StatusNotFound, "NOT_FOUND", "not_found"}, true
	case kernel.KindMethodNotAllowed:
		return kindInfo{http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "method_not_allowed"}, true
	case kernel.KindConflict:
		return kindInfo{http.StatusConflict, "CONFLICT", "conflict"}, true
	case kernel.KindTooLarge:
		return kindInfo{http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", "payload_too_large"}, true
	case kernel.KindUnsupportedMediaType:
		return kindInfo{http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "unsupported_media_type"}, true
	case kernel.KindUnprocessable:
		return kindInfo{http.StatusUnprocessableEntity, "UNPROCESSABLE_ENTITY", "unprocessable_entity"}, true
	case kernel.KindRateLimited:
		return kindInfo{http.StatusTooManyRequests, "RATE_LIMITED", "rate_limited"}, true
	case kernel.KindUnavailableForLegalReasons:
		return kindInfo{http.StatusUnavailableForLegalReasons, "UNAVAILABLE_FOR_LEGAL_REASONS", "unavailable_for_legal_reasons"}, true
	case kernel.KindUnavailable:
		return kindInfo{http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "service_unavailable"}, true
	case kernel.KindTimeout:
		return kindInfo{http.StatusGatewayTimeout, "GATEWAY_TIMEOUT", "gateway_timeout"}, true
	case kernel.KindBadGateway:
		return kindInfo{http.StatusBadGateway, "BAD_GATEWAY", "bad_gateway"}, true
	case kernel.KindGone:
		return kindInfo{http.StatusGone, "GONE", "gone"}, true
	case kernel.KindInternal:
		return internalInfo(), true
	}
	return kindInfo{}, false
}

func internalInfo() kindInfo {
	return kindInfo{http.StatusInternalServerError, "INTERNAL_ERROR", "internal_error"}
}

// Status returns the HTTP status for an error kind. Every kind the kernel
// defines has a status; an unknown kind is treated as internal (500).
func Status(k kernel.Kind) int {
	if info, ok := infoFor(k); ok {
		return info.status
	}
	return http.StatusInternalServerError
}

package oauth

import (
	"errors"
	"net"
	"net/http"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// oauthBody is the error body of RFC 6749 section 5.2 (and RFC 7591 3.2.2).
type oauthBody struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// writeOAuthError answers an OAuth endpoint's failure in RFC 6749's shape:
// 400 with error and error_description; invalid_client is 401 with a Basic
// challenge; a throttle is 429 with Retry-After; anything else unexpected is
// logged by httpx and answered as server_error.
func writeOAuthError(w http.ResponseWriter, r *http.Request, err error) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	var oe *ident.OAuthError
	var th *cmd.Throttled
	switch {
	case errors.As(err, &oe):
		status := http.StatusBadRequest
		if oe.Code == "invalid_client" {
			status = http.StatusUnauthorized
			h.Set("WWW-Authenticate", `Basic realm="strata", charset="UTF-8"`)
		}
		_ = httpx.WriteJSON(w, status, oauthBody{Error: oe.Code, Description: oe.Description})
	case errors.As(err, &th):
		httpx.WriteError(w, r, httpx.RateLimited(th.Message, th.RetryAfter))
	case kernel.KindOf(err) == kernel.KindInvalid:
		_ = httpx.WriteJSON(w, http.StatusBadRequest, oauthBody{Error: "invalid_request", Description: err.Error()})
	default:
		httpx.WriteError(w, r, err) // logs it; the client sees a 5xx without details
	}
}

func invalidRequest(desc string) error {
	return &ident.OAuthError{Code: "invalid_request", Description: desc}
}

// clientAddr is the caller's address, for per-client limits.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

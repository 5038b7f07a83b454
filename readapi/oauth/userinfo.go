package oauth

import (
	"net/http"
	"strings"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// userinfoBody is the OpenID Connect userinfo answer: sub, and the claims
// the token's scopes release.
type userinfoBody struct {
	Sub string `json:"sub"`
	ident.ProfileClaims
}

// userinfo answers GET and POST /oauth/userinfo for an OAuth access token
// with the openid scope. Failures carry an RFC 6750 challenge.
func (h *handlers) userinfo(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, code, desc string) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata", error="`+code+`", error_description="`+desc+`"`)
		w.Header().Set("Cache-Control", "no-store")
		_ = httpx.WriteJSON(w, status, oauthBody{Error: code, Description: desc})
	}
	if r.URL.Query().Has("access_token") {
		fail(http.StatusBadRequest, "invalid_request", "send the access token in the Authorization header, not the query string")
		return
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		_ = httpx.WriteJSON(w, http.StatusUnauthorized, oauthBody{Error: "invalid_request", Description: "an access token is required"})
		return
	}
	c, err := h.svc.Tokens().VerifyAccess(strings.TrimSpace(tok))
	if err != nil {
		fail(http.StatusUnauthorized, "invalid_token", "the access token is invalid or has expired")
		return
	}
	u, ok := h.svc.ActiveAccess(c)
	if !ok {
		fail(http.StatusUnauthorized, "invalid_token", "the access token was revoked")
		return
	}
	if !ident.HasScope(c.Scope, "openid") {
		fail(http.StatusForbidden, "insufficient_scope", "userinfo needs the openid scope")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if err := httpx.WriteJSON(w, http.StatusOK, userinfoBody{Sub: u.ID, ProfileClaims: ident.Profile(u, c.Scope)}); err != nil {
		httpx.WriteError(w, r, err)
	}
}

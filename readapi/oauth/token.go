package oauth

import (
	"mime"
	"net/http"
	"net/url"
	"strings"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// form parses a form-encoded POST body. Parameters in the query string are
// refused: credentials and codes must not travel in URLs.
func form(r *http.Request) (url.Values, error) {
	if r.URL.RawQuery != "" {
		return nil, invalidRequest("parameters must be sent in the form-encoded request body, not in the query string")
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, invalidRequest("the request body must be application/x-www-form-urlencoded")
	}
	if err := r.ParseForm(); err != nil {
		return nil, invalidRequest("the request body is not a valid form")
	}
	for k, v := range r.PostForm {
		if len(v) > 1 {
			return nil, invalidRequest("parameter " + k + " is repeated")
		}
	}
	return r.PostForm, nil
}

// credentials reads the client's authentication: HTTP Basic
// (client_secret_basic, with form-urlencoded id and secret as RFC 6749
// 2.3.1 says), client_id and client_secret in the body
// (client_secret_post), or client_id alone (none). Two methods at once are
// refused.
func credentials(r *http.Request, f url.Values) (cmd.ClientCredentials, error) {
	id, secret, basic := r.BasicAuth()
	if basic {
		if f.Get("client_secret") != "" {
			return cmd.ClientCredentials{}, invalidRequest("use one client authentication method, not two")
		}
		uid, err1 := url.QueryUnescape(id)
		usec, err2 := url.QueryUnescape(secret)
		if err1 != nil || err2 != nil || uid == "" {
			return cmd.ClientCredentials{}, &ident.OAuthError{Code: "invalid_client", Description: "malformed Basic credentials"}
		}
		if fid := f.Get("client_id"); fid != "" && fid != uid {
			return cmd.ClientCredentials{}, invalidRequest("client_id differs from the authenticated client")
		}
		return cmd.ClientCredentials{ID: uid, Secret: usec, Method: ident.AuthSecretBasic}, nil
	}
	if strings.TrimSpace(r.Header.Get("Authorization")) != "" {
		return cmd.ClientCredentials{}, &ident.OAuthError{Code: "invalid_client", Description: "unsupported Authorization scheme; use Basic"}
	}
	id = f.Get("client_id")
	if id == "" {
		return cmd.ClientCredentials{}, &ident.OAuthError{Code: "invalid_client", Description: "client authentication is required"}
	}
	if s := f.Get("client_secret"); s != "" {
		return cmd.ClientCredentials{ID: id, Secret: s, Method: ident.AuthSecretPost}, nil
	}
	return cmd.ClientCredentials{ID: id, Method: ident.AuthNone}, nil
}

// client parses the form and authenticates the client of a token,
// revocation or introspection request.
func (h *handlers) client(r *http.Request) (url.Values, ident.OAuthClient, error) {
	f, err := form(r)
	if err != nil {
		return nil, ident.OAuthClient{}, err
	}
	cr, err := credentials(r, f)
	if err != nil {
		return nil, ident.OAuthClient{}, err
	}
	c, err := h.svc.AuthenticateClient(cr)
	return f, c, err
}

// token is the token endpoint: authorization_code (with PKCE) and
// refresh_token grants, nothing else.
func (h *handlers) token(w http.ResponseWriter, r *http.Request) {
	f, c, err := h.client(r)
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	var resp cmd.TokenResponse
	switch gt := f.Get("grant_type"); gt {
	case ident.GrantAuthorizationCode:
		resp, err = h.svc.ExchangeCode(r.Context(), c, f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"), f.Get("resource"))
	case ident.GrantRefreshToken:
		resp, err = h.svc.RefreshGrant(r.Context(), c, f.Get("refresh_token"), f.Get("scope"), f.Get("resource"))
	case "":
		err = invalidRequest("grant_type is required")
	default:
		err = &ident.OAuthError{Code: "unsupported_grant_type", Description: "grant_type must be authorization_code or refresh_token (no implicit, password or client_credentials grant)"}
	}
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	if err := httpx.WriteJSON(w, http.StatusOK, resp); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// revoke is RFC 7009: 200 whether or not the token was known.
func (h *handlers) revoke(w http.ResponseWriter, r *http.Request) {
	f, c, err := h.client(r)
	if err == nil && f.Get("token") == "" {
		err = invalidRequest("token is required")
	}
	if err == nil {
		err = h.svc.RevokeToken(r.Context(), c, f.Get("token"), f.Get("token_type_hint"))
	}
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

// introspect is RFC 7662, for the client the token was issued to.
func (h *handlers) introspect(w http.ResponseWriter, r *http.Request) {
	f, c, err := h.client(r)
	if err == nil && f.Get("token") == "" {
		err = invalidRequest("token is required")
	}
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if err := httpx.WriteJSON(w, http.StatusOK, h.svc.Introspect(c, f.Get("token"), f.Get("token_type_hint"))); err != nil {
		httpx.WriteError(w, r, err)
	}
}

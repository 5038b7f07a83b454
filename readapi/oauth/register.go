package oauth

import (
	"net/http"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// clientInfo is the registration response (RFC 7591 section 3.2.1).
type clientInfo struct {
	ClientID              string   `json:"client_id"`
	ClientSecret          string   `json:"client_secret,omitempty"`
	ClientIDIssuedAt      int64    `json:"client_id_issued_at"`
	ClientSecretExpiresAt *int64   `json:"client_secret_expires_at,omitempty"`
	ClientName            string   `json:"client_name,omitempty"`
	RedirectURIs          []string `json:"redirect_uris"`
	GrantTypes            []string `json:"grant_types"`
	ResponseTypes         []string `json:"response_types"`
	Scope                 string   `json:"scope"`
	AuthMethod            string   `json:"token_endpoint_auth_method"`
}

// register is POST /oauth/clients/register: open dynamic registration.
func (h *handlers) register(w http.ResponseWriter, r *http.Request) {
	var m ident.ClientMetadata
	if err := httpx.DecodeJSON(r, &m); err != nil {
		writeOAuthError(w, r, &ident.OAuthError{Code: "invalid_client_metadata", Description: err.Error()})
		return
	}
	rc, err := h.svc.RegisterClient(r.Context(), m, clientAddr(r))
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	c := rc.Client
	info := clientInfo{ClientID: c.ID, ClientSecret: rc.Secret, ClientIDIssuedAt: c.CreatedAt.Unix(), ClientName: c.Name,
		RedirectURIs: c.RedirectURIs, GrantTypes: c.GrantTypes, ResponseTypes: []string{"code"}, Scope: c.Scope, AuthMethod: c.AuthMethod}
	if rc.Secret != "" {
		never := int64(0)
		info.ClientSecretExpiresAt = &never
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	if err := httpx.WriteJSON(w, http.StatusCreated, info); err != nil {
		httpx.WriteError(w, r, err)
	}
}

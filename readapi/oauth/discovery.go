package oauth

import (
	"net/http"
	"strings"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/readapi/httpx"
)

// metadata is the authorization server metadata (RFC 8414), which is also
// the OpenID Provider configuration.
type metadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	JWKSURI                           string   `json:"jwks_uri"`
	UserinfoEndpoint                  string   `json:"userinfo_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	IntrospectionEndpoint             string   `json:"introspection_endpoint"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	SubjectTypesSupported             []string `json:"subject_types_supported"`
	IDTokenSigningAlgValuesSupported  []string `json:"id_token_signing_alg_values_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ClaimsSupported                   []string `json:"claims_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationAuthMethodsSupported    []string `json:"revocation_endpoint_auth_methods_supported"`
	IntrospectionAuthMethodsSupported []string `json:"introspection_endpoint_auth_methods_supported"`
	PromptValuesSupported             []string `json:"prompt_values_supported"`
	AuthorizationResponseISSParameter bool     `json:"authorization_response_iss_parameter_supported"`
	RequestParameterSupported         bool     `json:"request_parameter_supported"`
	RequestURIParameterSupported      bool     `json:"request_uri_parameter_supported"`
	ClaimsParameterSupported          bool     `json:"claims_parameter_supported"`
	ProtectedResourcesSupported       []string `json:"protected_resources,omitempty"`
}

var authMethods = []string{ident.AuthSecretBasic, ident.AuthSecretPost, ident.AuthNone}

func (h *handlers) discovery(w http.ResponseWriter, r *http.Request) {
	m := metadata{
		Issuer:                            h.issuer,
		AuthorizationEndpoint:             h.issuer + "/oauth/authorize",
		TokenEndpoint:                     h.issuer + "/api/v1/oauth/token",
		JWKSURI:                           h.issuer + "/.well-known/jwks.json",
		UserinfoEndpoint:                  h.issuer + "/oauth/userinfo",
		RegistrationEndpoint:              h.issuer + "/oauth/clients/register",
		RevocationEndpoint:                h.issuer + "/oauth/revoke",
		IntrospectionEndpoint:             h.issuer + "/oauth/introspect",
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{ident.GrantAuthorizationCode, ident.GrantRefreshToken},
		SubjectTypesSupported:             []string{"public"},
		IDTokenSigningAlgValuesSupported:  []string{"RS256"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		ScopesSupported:                   ident.Scopes,
		ClaimsSupported:                   []string{"sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "azp", "email", "email_verified", "name", "given_name", "family_name", "plan"},
		TokenEndpointAuthMethodsSupported: authMethods,
		RevocationAuthMethodsSupported:    authMethods,
		IntrospectionAuthMethodsSupported: authMethods,
		PromptValuesSupported:             []string{"none", "login", "consent", "select_account"},
		AuthorizationResponseISSParameter: true,
		ProtectedResourcesSupported:       []string{h.issuer},
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if err := httpx.WriteJSON(w, http.StatusOK, m); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// resourceMetadata is the protected resource metadata of RFC 9728.
type resourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
	JWKSURI                string   `json:"jwks_uri"`
}

// protectedResource describes the platform API (or, under a path suffix,
// the part of it at that path) to OAuth clients such as AI agents.
func (h *handlers) protectedResource(w http.ResponseWriter, r *http.Request) {
	resource := h.issuer
	if suffix := strings.TrimPrefix(r.URL.Path, "/.well-known/oauth-protected-resource"); suffix != "" && suffix != "/" {
		resource = h.issuer + strings.TrimRight(suffix, "/")
	}
	m := resourceMetadata{Resource: resource, AuthorizationServers: []string{h.issuer}, ScopesSupported: ident.Scopes,
		BearerMethodsSupported: []string{"header"}, ResourceName: "Strata platform API", JWKSURI: h.issuer + "/.well-known/jwks.json"}
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if err := httpx.WriteJSON(w, http.StatusOK, m); err != nil {
		httpx.WriteError(w, r, err)
	}
}

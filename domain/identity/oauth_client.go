package identity

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ClientMetadata is a client registration request (RFC 7591).
type ClientMetadata struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	Scope                   string   `json:"scope"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

// Normalize checks the metadata and fills the defaults: grant types
// [authorization_code] (RFC 7591), response types [code], auth method
// client_secret_basic, scope every supported scope. A client receives
// refresh tokens only if it registered the refresh_token grant type.
func (m ClientMetadata) Normalize() (ClientMetadata, error) {
	meta := func(desc string) error { return oauthErr("invalid_client_metadata", desc) }
	m.ClientName = strings.TrimSpace(m.ClientName)
	if utf8.RuneCountInString(m.ClientName) > MaxClientNameLen {
		return m, meta("client_name is longer than 200 characters")
	}
	if len(m.RedirectURIs) == 0 {
		return m, oauthErr("invalid_redirect_uri", "redirect_uris is required: at least one redirect URI")
	}
	if len(m.RedirectURIs) > MaxRedirectURIs {
		return m, oauthErr("invalid_redirect_uri", "at most 10 redirect_uris")
	}
	for _, u := range m.RedirectURIs {
		if err := CheckRedirectURI(u); err != nil {
			return m, err
		}
	}
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{GrantAuthorizationCode}
	}
	for _, g := range m.GrantTypes {
		if g != GrantAuthorizationCode && g != GrantRefreshToken {
			return m, meta("grant_types: " + strconvQuote(g) + " is not supported; use authorization_code and refresh_token (no implicit, no password grant)")
		}
	}
	if !slices.Contains(m.GrantTypes, GrantAuthorizationCode) {
		return m, meta("grant_types must include authorization_code")
	}
	m.GrantTypes = dedupe(m.GrantTypes)
	if len(m.ResponseTypes) == 0 {
		m.ResponseTypes = []string{"code"}
	}
	for _, r := range m.ResponseTypes {
		if r != "code" {
			return m, meta("response_types: only code is supported")
		}
	}
	m.ResponseTypes = []string{"code"}
	switch m.TokenEndpointAuthMethod {
	case "":
		m.TokenEndpointAuthMethod = AuthSecretBasic
	case AuthSecretBasic, AuthSecretPost, AuthNone:
	default:
		return m, meta("token_endpoint_auth_method must be client_secret_basic, client_secret_post or none")
	}
	if strings.TrimSpace(m.Scope) == "" {
		m.Scope = strings.Join(Scopes, " ")
	}
	scopes, err := ParseScope(m.Scope)
	if err != nil {
		return m, meta(err.(*OAuthError).Description)
	}
	m.Scope = strings.Join(scopes, " ")
	return m, nil
}

func dedupe(in []string) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// OAuthClient is a registered client, folded from its registration.
type OAuthClient struct {
	ID           string
	Name         string
	RedirectURIs []string
	GrantTypes   []string
	Scope        string
	AuthMethod   string
	SecretHash   string
	FirstParty   bool
	CreatedAt    time.Time
}

// ClientFrom returns the client an OAuthClientRegistered event describes.
func ClientFrom(ev *OAuthClientRegistered) OAuthClient {
	return OAuthClient{ID: ev.ClientID, Name: ev.ClientName, RedirectURIs: ev.RedirectURIs, GrantTypes: ev.GrantTypes,
		Scope: ev.Scope, AuthMethod: ev.AuthMethod, SecretHash: ev.SecretHash, FirstParty: ev.FirstParty, CreatedAt: ev.At}
}

// Public reports whether the client authenticates with PKCE only.
func (c OAuthClient) Public() bool { return c.AuthMethod == AuthNone }

// MayRefresh reports whether the client registered the refresh_token grant.
func (c OAuthClient) MayRefresh() bool { return slices.Contains(c.GrantTypes, GrantRefreshToken) }

// AllowsScope reports whether every scope in requested was registered.
func (c OAuthClient) AllowsScope(requested []string) bool {
	for _, s := range requested {
		if !HasScope(c.Scope, s) {
			return false
		}
	}
	return true
}

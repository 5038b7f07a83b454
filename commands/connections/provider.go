// Package connections keeps the accounts that founders connect at outside
// providers (the four social platforms of the content workflow, and the
// chat, mail, calendar, issues and notes providers of memory's write-back
// actions): the OAuth 2 authorization-code flow (state bound to the
// caller, PKCE where the provider supports it), tokens sealed with
// AES-256-GCM under a key derived from the master key, refresh before
// expiry, revocation at disconnect. Each provider's dialect (endpoints,
// parameter names, error shapes) is a Provider; every call an adapter makes
// to its provider goes through Call, which classifies a failure as
// transient, refused, unconfirmed or unauthorized.
package connections

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Tokens are what a provider's token endpoint answered. They are stored
// sealed and never appear in events, logs or responses.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
	TokenType    string `json:"token_type,omitempty"`
	// Expiry of the access token; zero: the provider gave none (it does
	// not expire, or its lifetime is unknown).
	Expiry time.Time `json:"expiry,omitzero"`
	// RefreshExpiry of the refresh token, where the provider says it
	// (TikTok's refresh_expires_in, LinkedIn's refresh_token_expires_in).
	RefreshExpiry time.Time `json:"refresh_expiry,omitzero"`
	Scope         string    `json:"scope,omitempty"`
}

// Identity is the connected account as the provider knows it.
type Identity struct {
	// ID is the provider's stable id of the account (a user id, a channel
	// id, an open_id).
	ID string
	// Handle is what the founder recognises (@name, an email, a channel
	// title).
	Handle string
	// Extra keeps ids the adapter needs on later calls (the person URN of
	// the professional network, the business account id of the photo
	// network, a chat team id). Not secret; stored in events.
	Extra map[string]string
}

// Settings are a provider's operator configuration: client credentials and
// endpoint base URLs (each has the real provider's default; tests point
// them at loopback servers).
type Settings struct {
	ClientID     string
	ClientSecret string
	// AuthURL is where the founder's browser is sent to authorize.
	AuthURL string
	// TokenURL exchanges codes and refreshes tokens.
	TokenURL string
	// RevokeURL revokes a token at disconnect ("" where the provider has none).
	RevokeURL string
	// APIBase is the base of the provider's resource API.
	APIBase string
	// Scopes requested at authorization ("": the adapter's defaults).
	Scopes []string
	// Env is the prefix of the settings' environment variables
	// (STRATA_SOCIAL_SHORT_VIDEO_), for messages naming missing settings.
	Env string
}

// Missing names the settings a provider needs that are not set (the
// environment variables), empty when it can be used.
func (s Settings) Missing() []string {
	var out []string
	if s.ClientID == "" {
		out = append(out, s.Env+"CLIENT_ID")
	}
	if s.ClientSecret == "" {
		out = append(out, s.Env+"CLIENT_SECRET")
	}
	return out
}

// ErrNoRevoke is Provider.Revoke's answer when the provider offers no way
// to revoke a token: disconnecting only forgets it.
var ErrNoRevoke = errors.New("the provider has no token revocation")

// Provider is one outside provider's OAuth 2 dialect and identity lookup.
// Implementations speak the provider's real protocol against
// Settings' URLs through the client they were built with (the platform's
// SSRF-safe outbound client), and return *CallError for failures the
// provider reported or the network caused.
type Provider interface {
	// Name is the provider's key in URLs and events: "photo_network",
	// "short_video", "professional_network", "video_site", "chat",
	// "mail", "calendar", "issues", "notes".
	Name() string
	// Label is the provider's name for messages ("the short-video platform").
	Label() string
	// Settings are the provider's configuration.
	Settings() Settings
	// PKCE reports whether the provider takes a code_challenge (S256).
	PKCE() bool
	// AuthCodeURL is the URL the founder's browser is sent to: the
	// authorization endpoint with client id, redirect_uri, scopes, state
	// and, where PKCE() is true, code_challenge and its method S256.
	AuthCodeURL(state, redirectURI, challenge string) string
	// Exchange redeems an authorization code (with the PKCE verifier where
	// PKCE() is true).
	Exchange(ctx context.Context, code, redirectURI, verifier string) (Tokens, error)
	// Refresh obtains new tokens with t's refresh token. A refused refresh
	// (revoked, expired) is a *CallError of class Unauthorized.
	Refresh(ctx context.Context, t Tokens) (Tokens, error)
	// Revoke revokes t at the provider, or returns ErrNoRevoke.
	Revoke(ctx context.Context, t Tokens) error
	// Identify finds the account the tokens belong to.
	Identify(ctx context.Context, t Tokens) (Identity, error)
}

// Doer sends HTTP requests: *http.Client (the outbound client's
// HTTPClient()).
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

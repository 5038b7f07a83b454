package identity

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the OAuth provider. A client's stream holds its
// registration (and denials of consent); a grant's stream holds one
// authorization from consent to its last refresh: the code, its exchange,
// every rotation of its refresh token, and its revocation.
const (
	StreamOAuthClient = "identity.oauth_client"
	StreamOAuthGrant  = "identity.oauth_grant"
)

// OAuthClientRegistered: a client registered (RFC 7591). Only the SHA-256 of
// its secret is kept; a public client (auth method none) has no secret.
type OAuthClientRegistered struct {
	ClientID     string    `json:"client_id"`
	ClientName   string    `json:"client_name"`
	RedirectURIs []string  `json:"redirect_uris"`
	GrantTypes   []string  `json:"grant_types"`
	Scope        string    `json:"scope"`
	AuthMethod   string    `json:"token_endpoint_auth_method"`
	SecretHash   string    `json:"secret_hash,omitempty"`
	FirstParty   bool      `json:"first_party,omitempty"` // Strata's own surfaces (the builder)
	At           time.Time `json:"at"`
}

// OAuthConsentDenied: the user pressed Deny on the consent page.
type OAuthConsentDenied struct {
	ClientID string    `json:"client_id"`
	UserID   string    `json:"user_id"`
	Scope    string    `json:"scope"`
	At       time.Time `json:"at"`
}

// OAuthAuthorizationGranted: the user consented to Scope for the client and
// an authorization code was issued (only its SHA-256 is kept). It opens the
// grant's stream; every token of the grant descends from it.
type OAuthAuthorizationGranted struct {
	GrantID       string    `json:"grant_id"`
	ClientID      string    `json:"client_id"`
	UserID        string    `json:"user_id"`
	Scope         string    `json:"scope"`
	Resource      string    `json:"resource"` // the access tokens' audience
	RedirectURI   string    `json:"redirect_uri"`
	CodeHash      string    `json:"code_hash"`
	CodeChallenge string    `json:"code_challenge"` // S256
	Nonce         string    `json:"nonce,omitempty"`
	AuthTime      time.Time `json:"auth_time"`
	SecurityStamp int64     `json:"security_stamp"`
	CodeExpiresAt time.Time `json:"code_expires_at"`
	At            time.Time `json:"at"`
}

// OAuthCodeExchanged: the code was redeemed for an access token (TokenID is
// its jti) and, when the client may refresh, a refresh token (its SHA-256).
type OAuthCodeExchanged struct {
	GrantID          string    `json:"grant_id"`
	TokenID          string    `json:"token_id"`
	AccessExpiresAt  time.Time `json:"access_expires_at"`
	RefreshHash      string    `json:"refresh_hash,omitempty"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at,omitempty"`
	At               time.Time `json:"at"`
}

// OAuthTokenRefreshed: a refresh token was rotated: the previous one is spent,
// a new access token and refresh token were issued.
type OAuthTokenRefreshed struct {
	GrantID          string    `json:"grant_id"`
	PreviousHash     string    `json:"previous_hash"`
	RefreshHash      string    `json:"refresh_hash"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at"`
	TokenID          string    `json:"token_id"`
	AccessExpiresAt  time.Time `json:"access_expires_at"`
	Scope            string    `json:"scope"`
	At               time.Time `json:"at"`
}

// Reasons a grant is revoked.
const (
	RevokeCodeReused    = "code_reused"
	RevokeRefreshReused = "refresh_token_reused"
	RevokeByClient      = "revoked_by_client" // RFC 7009 on a refresh token
)

// OAuthGrantRevoked: every token of the grant stops working (a reused code
// or refresh token, or the client revoked its refresh token).
type OAuthGrantRevoked struct {
	GrantID string    `json:"grant_id"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
}

// SocialIdentityLinked: an account signed in through a social provider
// (codehost or network) for the first time; Subject is the provider's user
// id. EmailVerified is what the provider vouched for.
type SocialIdentityLinked struct {
	UserID        string    `json:"user_id"`
	Provider      string    `json:"provider"`
	Subject       string    `json:"subject"`
	Email         string    `json:"email"`
	EmailVerified bool      `json:"email_verified"`
	Name          string    `json:"name,omitempty"`
	Picture       string    `json:"picture,omitempty"`
	At            time.Time `json:"at"`
}

// EventType implementations of the OAuth and social sign-in events.
func (OAuthClientRegistered) EventType() string     { return "identity.oauth_client_registered" }
func (OAuthConsentDenied) EventType() string        { return "identity.oauth_consent_denied" }
func (OAuthAuthorizationGranted) EventType() string { return "identity.oauth_authorization_granted" }
func (OAuthCodeExchanged) EventType() string        { return "identity.oauth_code_exchanged" }
func (OAuthTokenRefreshed) EventType() string       { return "identity.oauth_token_refreshed" }
func (OAuthGrantRevoked) EventType() string         { return "identity.oauth_grant_revoked" }
func (SocialIdentityLinked) EventType() string      { return "identity.social_identity_linked" }

func oauthEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &OAuthClientRegistered{} },
		func() kernel.Event { return &OAuthConsentDenied{} },
		func() kernel.Event { return &OAuthAuthorizationGranted{} },
		func() kernel.Event { return &OAuthCodeExchanged{} },
		func() kernel.Event { return &OAuthTokenRefreshed{} },
		func() kernel.Event { return &OAuthGrantRevoked{} },
		func() kernel.Event { return &SocialIdentityLinked{} },
	}
}

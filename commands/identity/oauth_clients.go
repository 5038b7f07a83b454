package identity

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// RegisteredClient is a new client with its secret, shown once.
type RegisteredClient struct {
	Client ident.OAuthClient
	Secret string // empty for a public client
}

// Client registration limit: registrations per caller address and hour.
const clientRegistrationsPerHour = 20

// RegisterClient registers an OAuth client (RFC 7591 dynamic registration,
// open to anyone, at most 20 per caller address per hour). The secret is
// random (32 bytes) and only its SHA-256 is stored: it is compared like an
// API key, not hashed like a password, because it carries full entropy.
func (s *Service) RegisterClient(ctx context.Context, m ident.ClientMetadata, caller string) (RegisteredClient, error) {
	m, err := m.Normalize()
	if err != nil {
		return RegisteredClient{}, err
	}
	if wait, ok := s.limiter.Take("oauth-register:"+caller, clientRegistrationsPerHour, time.Hour); !ok {
		return RegisteredClient{}, &Throttled{RetryAfter: wait, Message: "too many client registrations from this address; try again later"}
	}
	id := "cl_" + randomBase62(24)
	secret := ""
	ev := &ident.OAuthClientRegistered{ClientID: id, ClientName: m.ClientName, RedirectURIs: m.RedirectURIs,
		GrantTypes: m.GrantTypes, Scope: m.Scope, AuthMethod: m.TokenEndpointAuthMethod, At: s.clock.Now()}
	if m.TokenEndpointAuthMethod != ident.AuthNone {
		secret = "cs_" + randomURLSafe(32)
		ev.SecretHash = sha256Hex(secret)
	}
	err = s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthClient, ID: id}, eventstore.NoStream, ev)
	})
	if err != nil {
		return RegisteredClient{}, err
	}
	return RegisteredClient{Client: ident.ClientFrom(ev), Secret: secret}, nil
}

// EnsureFirstPartyClient registers one of Strata's own surfaces (the
// builder) as a confidential client with a fixed id, unless it exists. Its
// secret is derived from the master key, so every process computes it and
// nothing secret is stored in plain text.
func (s *Service) EnsureFirstPartyClient(ctx context.Context, id, name string, redirectURIs []string) (string, error) {
	secret := "cs_" + base64.RawURLEncoding.EncodeToString(s.master.Derive("first-party client secret:"+id))
	if c, ok := s.dir.OAuthClient(id); ok {
		if c.SecretHash != sha256Hex(secret) {
			return "", fmt.Errorf("OAuth client %s was registered under another master key", id)
		}
		return secret, nil
	}
	m, err := ident.ClientMetadata{ClientName: name, RedirectURIs: redirectURIs,
		GrantTypes: []string{ident.GrantAuthorizationCode, ident.GrantRefreshToken}}.Normalize()
	if err != nil {
		return "", err
	}
	ev := &ident.OAuthClientRegistered{ClientID: id, ClientName: m.ClientName, RedirectURIs: m.RedirectURIs,
		GrantTypes: m.GrantTypes, Scope: m.Scope, AuthMethod: ident.AuthSecretBasic, SecretHash: sha256Hex(secret),
		FirstParty: true, At: s.clock.Now()}
	err = s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOAuthClient, ID: id}, eventstore.NoStream, ev)
	})
	if err != nil && !errors.Is(err, kernel.ErrConflict) { // another process registered it first
		return "", err
	}
	return secret, nil
}

// ClientCredentials are what a request to the token, revocation or
// introspection endpoint presented to authenticate its client.
type ClientCredentials struct {
	ID     string
	Secret string
	Method string // client_secret_basic, client_secret_post or none
}

func invalidClient() error {
	return &ident.OAuthError{Code: "invalid_client", Description: "client authentication failed"}
}

// AuthenticateClient checks client credentials: the client must exist, use
// the method it registered, and present its secret (compared in constant
// time); a public client presents only its id.
func (s *Service) AuthenticateClient(cr ClientCredentials) (ident.OAuthClient, error) {
	c, ok := s.dir.OAuthClient(cr.ID)
	stored := c.SecretHash
	if !ok || stored == "" {
		stored = strings.Repeat("0", 64)
	}
	match := subtle.ConstantTimeCompare([]byte(sha256Hex(cr.Secret)), []byte(stored))
	if !ok {
		return ident.OAuthClient{}, invalidClient()
	}
	if c.AuthMethod != cr.Method {
		return ident.OAuthClient{}, &ident.OAuthError{Code: "invalid_client",
			Description: "this client authenticates with " + c.AuthMethod + " (as registered)"}
	}
	if !c.Public() && match != 1 {
		return ident.OAuthClient{}, invalidClient()
	}
	return c, nil
}

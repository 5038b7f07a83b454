// Package builder is the builder context's domain. So far: founder
// sessions, the signed-in state of a founder on the builder surface,
// obtained through the platform's OAuth 2.1 provider.
package builder

import (
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamSession is the stream type of one founder session.
const StreamSession = "builder.session"

// SessionTTL is how long a founder session lasts after sign-in.
const SessionTTL = 24 * time.Hour

// FounderSignedIn: a founder completed the OAuth flow. SessionHash is the
// SHA-256 of the session cookie's value (the cookie itself is never
// stored); SealedTokens are the platform tokens (access, refresh, ID token)
// sealed with AES-256-GCM under a key derived from the master key.
type FounderSignedIn struct {
	SessionID    string    `json:"session_id"`
	SessionHash  string    `json:"session_hash"`
	UserID       string    `json:"user_id"`
	Email        string    `json:"email"`
	Name         string    `json:"name,omitempty"`
	Scope        string    `json:"scope"`
	SealedTokens []byte    `json:"sealed_tokens"`
	ExpiresAt    time.Time `json:"expires_at"`
	At           time.Time `json:"at"`
}

// FounderSignedOut: the session ended (logout).
type FounderSignedOut struct {
	SessionID string    `json:"session_id"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
}

// EventType implementations.
func (FounderSignedIn) EventType() string  { return "builder.founder_signed_in" }
func (FounderSignedOut) EventType() string { return "builder.founder_signed_out" }

// Events returns a constructor for every builder event (schema version 1):
// founder sessions and chats.
func Events() []func() kernel.Event {
	return append([]func() kernel.Event{
		func() kernel.Event { return &FounderSignedIn{} },
		func() kernel.Event { return &FounderSignedOut{} },
	}, slices.Concat(ChatEvents(), DeployEvents(), ArtifactEvents(), SecretEvents(), SystemsEvents(), NightlyEvents())...)
}

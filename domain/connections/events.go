// Package connections is the domain of the accounts founders connect at
// outside providers (social platforms, chat, mail, calendar, issues and
// notes providers): one stream per (owner, provider), holding who is
// connected, since when and whether the account needs reconnecting. Tokens
// are never in events: they live sealed beside the stream
// (commands/connections).
package connections

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamType is the stream type of a connection.
const StreamType = "connections.connection"

// StreamID names the stream of owner's connection to provider.
func StreamID(owner, provider string) string { return "connection:" + owner + ":" + provider }

// Connected records an account connected (or reconnected: a new account id
// each time) with the tokens' version stored beside the stream.
type Connected struct {
	AccountID string            `json:"account_id"`
	Owner     string            `json:"owner"`
	Provider  string            `json:"provider"`
	Subject   string            `json:"subject"` // the provider's id of the account
	Handle    string            `json:"handle"`
	Extra     map[string]string `json:"extra,omitempty"`
	Scope     string            `json:"scope,omitempty"`
	// Method is "oauth" (the authorization-code flow) or "token" (a token
	// the owner gave directly).
	Method       string    `json:"method"`
	TokenVersion int64     `json:"token_version"`
	Expiry       time.Time `json:"expiry,omitzero"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// Refreshed records new tokens obtained with the refresh token.
type Refreshed struct {
	AccountID    string    `json:"account_id"`
	TokenVersion int64     `json:"token_version"`
	Expiry       time.Time `json:"expiry,omitzero"`
	At           time.Time `json:"at"`
}

// NeedsReconnect records that the provider refused the account's tokens
// (expired, revoked): calls stop until the owner connects again.
type NeedsReconnect struct {
	AccountID string    `json:"account_id"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
}

// Disconnected records the owner disconnecting: the tokens are forgotten;
// Revoked says whether the provider confirmed revoking them.
type Disconnected struct {
	AccountID string    `json:"account_id"`
	Revoked   bool      `json:"revoked"`
	Note      string    `json:"note,omitempty"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*Connected) EventType() string { return "connections.connected" }

// EventType implements kernel.Event.
func (*Refreshed) EventType() string { return "connections.refreshed" }

// EventType implements kernel.Event.
func (*NeedsReconnect) EventType() string { return "connections.needs_reconnect" }

// EventType implements kernel.Event.
func (*Disconnected) EventType() string { return "connections.disconnected" }

// Events lists the context's event constructors.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &Connected{} }, func() kernel.Event { return &Refreshed{} },
		func() kernel.Event { return &NeedsReconnect{} }, func() kernel.Event { return &Disconnected{} },
	}
}

// Status values of an account.
const (
	StatusConnected      = "connected"
	StatusNeedsReconnect = "needs_reconnect"
	StatusDisconnected   = "disconnected"
)

// Account is a connection's state, folded from its stream.
type Account struct {
	ID           string
	Owner        string
	Provider     string
	Subject      string
	Handle       string
	Extra        map[string]string
	Status       string // "" when never connected
	TokenVersion int64
	Expiry       time.Time
	ConnectedAt  time.Time
	Reason       string // why it needs reconnecting
}

// Apply folds one event into the account.
func (a *Account) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *Connected:
		*a = Account{ID: ev.AccountID, Owner: ev.Owner, Provider: ev.Provider, Subject: ev.Subject, Handle: ev.Handle,
			Extra: ev.Extra, Status: StatusConnected, TokenVersion: ev.TokenVersion, Expiry: ev.Expiry, ConnectedAt: ev.At}
	case *Refreshed:
		if ev.AccountID == a.ID {
			a.TokenVersion, a.Expiry = ev.TokenVersion, ev.Expiry
		}
	case *NeedsReconnect:
		if ev.AccountID == a.ID && a.Status == StatusConnected {
			a.Status, a.Reason = StatusNeedsReconnect, ev.Reason
		}
	case *Disconnected:
		if ev.AccountID == a.ID {
			a.Status = StatusDisconnected
		}
	}
}

// Live reports whether the account is connected or waiting to be
// reconnected (it shows in lists; only connected accounts are called).
func (a *Account) Live() bool {
	return a.Status == StatusConnected || a.Status == StatusNeedsReconnect
}

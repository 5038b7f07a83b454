// Package kernel holds the few types every bounded context shares: the event
// contract, upcasters, error kinds, identifiers and the clock. It imports the
// standard library only.
package kernel

import (
	"encoding/json"
	"time"
)

// Event is a fact recorded in the event store. EventType returns the stable,
// explicit name the event is stored under ("<context>.<past_tense>"); it must
// never be derived from the Go type name, so renaming a type cannot orphan history.
type Event interface {
	EventType() string
}

// Upcaster rewrites the JSON payload of one event type from schema version
// From to From+1. Upcasters run on read, one version step at a time.
type Upcaster struct {
	Type string
	From int
	Up   func(payload json.RawMessage) (json.RawMessage, error)
}

// Dated is implemented by events that carry their own business time (an
// effective date, a vesting start). The store records it as occurred_at; an
// event that is not Dated occurred when it was appended.
type Dated interface {
	OccurredAt() time.Time
}

// Sealed is personal data kept in an event payload encrypted under a
// per-subject key (crypto-shredding): Key names the key, Data is the
// ciphertext. Destroying the key makes Data unreadable in every copy of the
// event, history and exports included; the rest of the event stays readable.
type Sealed struct {
	Key  string `json:"key"`
	Data string `json:"data"`
}

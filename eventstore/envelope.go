package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream names a stream: its type ("captable.company") and its id. Stream ids
// are unique across types.
type Stream struct {
	Type string
	ID   string
}

// Metadata travels with every event: who did it, for which tenant, and how it
// relates to other messages and to the HTTP request that caused it.
type Metadata struct {
	Actor         string `json:"actor,omitempty"`
	Tenant        string `json:"tenant,omitempty"`
	CorrelationID string `json:"correlation_id,omitempty"`
	CausationID   string `json:"causation_id,omitempty"`
	RequestID     string `json:"request_id,omitempty"`
}

type metadataKey struct{}

// WithMetadata returns a context whose appends record md.
func WithMetadata(ctx context.Context, md Metadata) context.Context {
	return context.WithValue(ctx, metadataKey{}, md)
}

// MetadataFrom returns the metadata stored in ctx, if any.
func MetadataFrom(ctx context.Context) Metadata {
	md, _ := ctx.Value(metadataKey{}).(Metadata)
	return md
}

// Key is a consumer's place in the store: events are consumed in
// (TransactionID, Position) order, which never skips an event whose
// transaction commits late.
type Key struct {
	TransactionID uint64
	Position      int64
}

// Less orders keys in consumption order.
func (k Key) Less(o Key) bool {
	if k.TransactionID != o.TransactionID {
		return k.TransactionID < o.TransactionID
	}
	return k.Position < o.Position
}

// Envelope is a stored event as read back: the payload is already upcast to
// the current schema version and decoded into Event.
type Envelope struct {
	Position      int64           `json:"position"`
	TransactionID uint64          `json:"transaction_id"`
	EventID       string          `json:"event_id"`
	StreamType    string          `json:"stream_type"`
	StreamID      string          `json:"stream_id"`
	StreamVersion int64           `json:"stream_version"`
	Type          string          `json:"event_type"`
	SchemaVersion int             `json:"schema_version"`
	Payload       json.RawMessage `json:"payload"`
	Metadata      Metadata        `json:"metadata"`
	OccurredAt    time.Time       `json:"occurred_at"`
	RecordedAt    time.Time       `json:"recorded_at"`
	Event         kernel.Event    `json:"-"`
}

// Key returns the envelope's consumption key.
func (e Envelope) Key() Key { return Key{TransactionID: e.TransactionID, Position: e.Position} }

// Resolve upcasts and decodes a raw stored envelope in place: afterwards its
// payload is at the current schema version and Event holds the Go value.
func (r *Registry) Resolve(e *Envelope) error {
	payload, version, err := r.Upcast(e.Type, e.SchemaVersion, e.Payload)
	if err != nil {
		return fmt.Errorf("event %d: %w", e.Position, err)
	}
	ev, err := r.Decode(e.Type, payload)
	if err != nil {
		return fmt.Errorf("event %d: %w", e.Position, err)
	}
	e.Payload, e.SchemaVersion, e.Event = payload, version, ev
	return nil
}

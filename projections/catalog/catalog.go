// Package catalog projects the store's own catalog: how many events of each
// type and how many streams of each type exist, and when each was last seen.
// Operators and auditors use it to see what the store holds without scanning it.
package catalog

import (
	"context"
	stdsql "database/sql"

	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_eventstore_catalog_v1.
const Name = "eventstore.catalog.v1"

// Projector counts events per event type and streams per stream type.
type Projector struct{ types []string }

// New returns the catalog projector for the given (registered) event types.
func New(types []string) *Projector { return &Projector{types: types} }

// Name implements projections.Projector.
func (p *Projector) Name() string { return Name }

// EnvelopeOnly implements projections.EnvelopeOnly: the catalog counts
// types and streams and never reads a payload.
func (p *Projector) EnvelopeOnly() {}

// Handles implements projections.Projector: every registered event type.
func (p *Projector) Handles() []string { return p.types }

// Apply counts one event.
func (p *Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO event_types (event_type, events, last_position, last_recorded_at)
		VALUES ($1, 1, $2, $3)
		ON CONFLICT (event_type) DO UPDATE SET events = event_types.events + 1,
			last_position = greatest(event_types.last_position, $2),
			last_recorded_at = greatest(event_types.last_recorded_at, $3)`, e.Type, e.Position, e.RecordedAt)
	if err != nil {
		return err
	}
	newStream := 0
	if e.StreamVersion == 1 {
		newStream = 1
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO stream_types (stream_type, streams, events) VALUES ($1, $2, 1)
		ON CONFLICT (stream_type) DO UPDATE SET streams = stream_types.streams + $2, events = stream_types.events + 1`,
		e.StreamType, newStream)
	return err
}

// Package catalog projects the store's own catalog: how many events of each
// type and how many streams of each type exist, and when each was last seen.
// Operators and auditors use it to see what the store holds without scanning it.
package catalog

import (
	"context"
	stdsql "database/sql"
	"time"

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

// ApplyBatch implements projections.BatchProjector: a batch's events are
// counted per event type and per stream type first, then written with one
// statement per table, instead of two per event (every event of the
// platform, a gateway request's debit included, goes through here).
func (p *Projector) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	if len(events) == 0 {
		return nil
	}
	type typeCount struct {
		events   int64
		position int64
		at       time.Time
	}
	type streamCount struct{ streams, events int64 }
	byType, byStream := map[string]*typeCount{}, map[string]*streamCount{}
	var typeOrder, streamOrder []string
	for _, e := range events {
		t, ok := byType[e.Type]
		if !ok {
			t = &typeCount{position: e.Position, at: e.RecordedAt}
			byType[e.Type] = t
			typeOrder = append(typeOrder, e.Type)
		}
		t.events++
		t.position = max(t.position, e.Position)
		if e.RecordedAt.After(t.at) {
			t.at = e.RecordedAt
		}
		s, ok := byStream[e.StreamType]
		if !ok {
			s = &streamCount{}
			byStream[e.StreamType] = s
			streamOrder = append(streamOrder, e.StreamType)
		}
		s.events++
		if e.StreamVersion == 1 {
			s.streams++
		}
	}
	types, counts, positions, ats := make([]string, 0, len(typeOrder)), make([]int64, 0, len(typeOrder)),
		make([]int64, 0, len(typeOrder)), make([]time.Time, 0, len(typeOrder))
	for _, name := range typeOrder {
		t := byType[name]
		types, counts, positions, ats = append(types, name), append(counts, t.events), append(positions, t.position), append(ats, t.at)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO event_types (event_type, events, last_position, last_recorded_at)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[])
		ON CONFLICT (event_type) DO UPDATE SET events = event_types.events + EXCLUDED.events,
			last_position = greatest(event_types.last_position, EXCLUDED.last_position),
			last_recorded_at = greatest(event_types.last_recorded_at, EXCLUDED.last_recorded_at)`,
		types, counts, positions, ats); err != nil {
		return err
	}
	streamTypes, streams, streamEvents := make([]string, 0, len(streamOrder)), make([]int64, 0, len(streamOrder)), make([]int64, 0, len(streamOrder))
	for _, name := range streamOrder {
		s := byStream[name]
		streamTypes, streams, streamEvents = append(streamTypes, name), append(streams, s.streams), append(streamEvents, s.events)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO stream_types (stream_type, streams, events)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
		ON CONFLICT (stream_type) DO UPDATE SET streams = stream_types.streams + EXCLUDED.streams,
			events = stream_types.events + EXCLUDED.events`, streamTypes, streams, streamEvents)
	return err
}

package projections

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// EventSkippedType is the stored name of EventSkipped.
const EventSkippedType = "projections.event_skipped"

// EventSkipped records that an operator told a projector to go on without
// one event of a parked stream: who, when (the event's recording time), why,
// and the event's identity and error. It lives on the stream
// OpsStream(projector); live consumers, retries and rebuilds of that
// projector leave the event out from then on. The skipped event itself stays
// in the store, unchanged.
type EventSkipped struct {
	Projector  string `json:"projector"`
	StreamID   string `json:"stream_id"`
	StreamType string `json:"stream_type"`
	EventID    string `json:"event_id"`
	Skipped    string `json:"event_type"` // the skipped event's type
	Position   int64  `json:"position"`
	Error      string `json:"error"`
	Actor      string `json:"actor"`
	Reason     string `json:"reason"`
}

// EventType implements kernel.Event.
func (EventSkipped) EventType() string { return EventSkippedType }

// Events lists the projections' own event types, for the registry.
func Events() []func() kernel.Event {
	return []func() kernel.Event{func() kernel.Event { return &EventSkipped{} }}
}

// OpsStream is the stream that records operators' decisions about a
// projector's events.
func OpsStream(projector string) eventstore.Stream {
	return eventstore.Stream{Type: "projections.ops", ID: "projections-ops:" + projector}
}

// ErrNotParked is returned by Retry and Skip for a stream that is not parked.
var ErrNotParked = errors.New("the stream is not parked by this projector")

// RetryResult says how a retry went.
type RetryResult struct {
	Applied int     // held events applied
	Parked  *Parked // still parked (at a later event, or the same one), or nil when released
}

// Retry applies a parked stream's held events again, in order, with the
// live consumer of projector p paused (its checkpoint row locked) in every
// process. Events it applies are kept even when a later one fails; the
// stream then stays parked at the failing event with the new error. When
// every held event applies, the stream is released and its next events are
// applied live.
func Retry(ctx context.Context, store *eventstore.Store, p Projector, streamID string) (RetryResult, error) {
	var res RetryResult
	skipped, err := skippedEvents(ctx, store.DB(), p.Name())
	if err != nil {
		return res, err
	}
	err = eventstore.RunInTx(ctx, store.DB(), nil, func(tx *stdsql.Tx) error {
		var cpTx, cpPos int64
		err := tx.QueryRowContext(ctx, `SELECT coalesce(last_processed_transaction_id::text::bigint, 0), coalesce(offset_acked, 0)
			FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE`, p.Name()).Scan(&cpTx, &cpPos)
		if err != nil && !errors.Is(err, stdsql.ErrNoRows) {
			return fmt.Errorf("lock checkpoint of %s: %w", p.Name(), err)
		}
		checkpoint := eventstore.Key{TransactionID: uint64(cpTx), Position: cpPos}
		var atTx, atPos int64
		err = tx.QueryRowContext(ctx, `SELECT transaction_id::text::bigint, position FROM es.parked_streams
			WHERE projector = $1 AND stream_id = $2 FOR UPDATE`, p.Name(), streamID).Scan(&atTx, &atPos)
		if errors.Is(err, stdsql.ErrNoRows) {
			return ErrNotParked
		} else if err != nil {
			return fmt.Errorf("read parked stream: %w", err)
		}
		from := eventstore.Key{TransactionID: uint64(atTx), Position: atPos}
		held, err := heldEvents(ctx, store, p, streamID, from, checkpoint, skipped)
		if err != nil {
			return err
		}
		if err := configureTx(ctx, tx, SchemaName(p.Name())); err != nil {
			return err
		}
		for _, e := range held {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT held_event`); err != nil {
				return err
			}
			aerr := store.Registry().Resolve(&e)
			if aerr == nil {
				actx, cancel := context.WithTimeout(ctx, time.Minute)
				aerr = p.Apply(actx, tx, e)
				cancel()
			}
			if aerr != nil {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT held_event`); err != nil {
					return err
				}
				return moveParked(ctx, tx, p.Name(), e, aerr)
			}
			res.Applied++
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM es.parked_streams WHERE projector = $1 AND stream_id = $2`, p.Name(), streamID)
		return err
	})
	if err != nil {
		return res, err
	}
	still, err := ListParked(ctx, store.DB(), p.Name())
	if err != nil {
		return res, err
	}
	for i := range still {
		if still[i].StreamID == streamID {
			res.Parked = &still[i]
		}
	}
	return res, nil
}

// Skip records (as an EventSkipped event, by actor, for reason) that
// projector p goes on without the parked stream's first held event, then
// retries the rest of the stream.
func Skip(ctx context.Context, store *eventstore.Store, p Projector, streamID, actor, reason string) (EventSkipped, RetryResult, error) {
	var rec EventSkipped
	ps, err := ListParked(ctx, store.DB(), p.Name())
	if err != nil {
		return rec, RetryResult{}, err
	}
	var at *Parked
	for i := range ps {
		if ps[i].StreamID == streamID {
			at = &ps[i]
		}
	}
	if at == nil {
		return rec, RetryResult{}, ErrNotParked
	}
	rec = EventSkipped{Projector: p.Name(), StreamID: at.StreamID, StreamType: at.StreamType, EventID: at.EventID,
		Skipped: at.EventType, Position: at.At.Position, Error: at.Error, Actor: actor, Reason: reason}
	ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: actor})
	if _, err := store.Append(ctx, OpsStream(p.Name()), eventstore.AnyVersion, &rec); err != nil {
		return rec, RetryResult{}, fmt.Errorf("record the skip: %w", err)
	}
	res, err := Retry(ctx, store, p, streamID)
	return rec, res, err
}

// heldEvents loads the events of streamID that projector p handles, from
// the first held one through the checkpoint, without skipped ones.
func heldEvents(ctx context.Context, store *eventstore.Store, p Projector, streamID string, from, through eventstore.Key,
	skipped map[string]bool) ([]eventstore.Envelope, error) {
	all, err := store.Load(ctx, streamID, eventstore.LoadOptions{Raw: true}) // decoded one by one in Retry
	if err != nil {
		return nil, err
	}
	handles := handlesSet(p)
	var out []eventstore.Envelope
	for _, e := range all {
		k := e.Key()
		if k.Less(from) || through.Less(k) || !handles[e.Type] || skipped[e.EventID] {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// moveParked parks the stream at e (a later held event, or the same) with
// err, counting the retry.
func moveParked(ctx context.Context, tx *stdsql.Tx, projector string, e eventstore.Envelope, cause error) error {
	_, err := tx.ExecContext(ctx, `UPDATE es.parked_streams SET transaction_id = $3::text::xid8, position = $4, event_id = $5,
			event_type = $6, error = $7, retries = retries + 1, retried_at = clock_timestamp()
		WHERE projector = $1 AND stream_id = $2`,
		projector, e.StreamID, fmt.Sprint(e.TransactionID), e.Position, e.EventID, e.Type, truncate(cause.Error(), 2000))
	return err
}

// skippedEvents returns the ids of the events operators skipped for projector.
func skippedEvents(ctx context.Context, db *stdsql.DB, projector string) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT payload->>'event_id' FROM es.events WHERE stream_id = $1 AND event_type = $2`,
		OpsStream(projector).ID, EventSkippedType)
	if err != nil {
		return nil, fmt.Errorf("skipped events of %s: %w", projector, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id stdsql.NullString
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id.String] = true
	}
	return out, rows.Err()
}

// heldFilter tells, for a Partitioned projector, the events a rebuild
// leaves out as the live consumer does: events operators skipped, and the
// held events of streams parked now (from their first held event on; they
// stay parked on the rebuilt tables and a retry applies them there). Other
// projectors get nil.
func heldFilter(ctx context.Context, db *stdsql.DB, p Projector) (func(eventstore.Envelope) bool, error) {
	if _, ok := p.(Partitioned); !ok {
		return nil, nil
	}
	skipped, err := skippedEvents(ctx, db, p.Name())
	if err != nil {
		return nil, err
	}
	parked, err := ListParked(ctx, db, p.Name())
	if err != nil {
		return nil, err
	}
	from := map[string]eventstore.Key{}
	for _, pk := range parked {
		from[pk.StreamID] = pk.At
	}
	return func(e eventstore.Envelope) bool {
		return skipped[e.EventID] || held(from, &e)
	}, nil
}

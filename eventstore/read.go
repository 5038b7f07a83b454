package eventstore

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LoadOptions bound a stream read. Zero values mean "no bound".
type LoadOptions struct {
	UpToVersion  int64     // only events with stream_version <= UpToVersion
	AfterVersion int64     // only events with stream_version > AfterVersion (catching up a cached fold)
	AsOf         time.Time // business time: only events that occurred at or before AsOf
	AsKnownAt    time.Time // recording time: only events the store had recorded at AsKnownAt
	// Raw leaves payloads as stored (Event nil, Payload not upcast), for a
	// caller that decodes each event itself and must get past one that does
	// not decode (projections.Retry); metadata is decoded.
	Raw bool
}

const envelopeColumns = `position, transaction_id::text::bigint, event_id::text, stream_type, stream_id,
	stream_version, event_type, schema_version, payload, metadata, occurred_at, recorded_at`

// Load reads a stream in version order, upcast and decoded, within opts'
// bounds. A stream with no events (or none within the bounds) yields an empty
// slice, not an error.
func (s *Store) Load(ctx context.Context, streamID string, opts LoadOptions) ([]Envelope, error) {
	return s.LoadTx(ctx, s.db, streamID, opts)
}

// LoadTx is Load through q: a transaction that must see the stream as it
// reads it (one that holds a lock every appender of the stream takes).
func (s *Store) LoadTx(ctx context.Context, q Querier, streamID string, opts LoadOptions) ([]Envelope, error) {
	where, args := []string{"stream_id = $1"}, []any{streamID}
	if opts.UpToVersion > 0 {
		args = append(args, opts.UpToVersion)
		where = append(where, "stream_version <= $"+strconv.Itoa(len(args)))
	}
	if opts.AfterVersion > 0 {
		args = append(args, opts.AfterVersion)
		where = append(where, "stream_version > $"+strconv.Itoa(len(args)))
	}
	if !opts.AsOf.IsZero() {
		args = append(args, opts.AsOf)
		where = append(where, "occurred_at <= $"+strconv.Itoa(len(args)))
	}
	if !opts.AsKnownAt.IsZero() {
		args = append(args, opts.AsKnownAt)
		where = append(where, "recorded_at <= $"+strconv.Itoa(len(args)))
	}
	sel := `SELECT ` + envelopeColumns + ` FROM es.events WHERE ` + strings.Join(where, " AND ") + ` ORDER BY stream_version`
	rows, err := q.QueryContext(ctx, sel, args...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", streamID, err)
	}
	defer rows.Close()
	var out []Envelope
	var metas [][]byte
	for rows.Next() {
		e, meta, err := scanRow(rows)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", streamID, err)
		}
		out, metas = append(out, e), append(metas, meta)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load %s: %w", streamID, err)
	}
	if err := s.decodeAll(out, metas, !opts.Raw); err != nil {
		return nil, fmt.Errorf("load %s: %w", streamID, err)
	}
	return out, nil
}

// parallelDecodeMin is the number of events from which Load decodes on
// every CPU: decoding (metadata, upcasting, the payload's JSON) is most of
// a long stream's load, and each event decodes on its own.
const parallelDecodeMin = 1024

// decodeAll decodes the scanned envelopes in place, in parallel chunks for
// long streams; the first error (in stream order) wins.
func (s *Store) decodeAll(out []Envelope, metas [][]byte, payloads bool) error {
	decode := func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if err := jsonUnmarshalMetadata(metas[i], &out[i].Metadata); err != nil {
				return err
			}
			if !payloads {
				continue
			}
			if err := s.reg.Resolve(&out[i]); err != nil {
				return err
			}
		}
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	if len(out) < parallelDecodeMin || workers < 2 {
		return decode(0, len(out))
	}
	errs := make([]error, workers)
	chunk := (len(out) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(out))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			errs[w] = decode(lo, hi)
		}(w, lo, hi)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Version returns a stream's current version, 0 when it does not exist.
func (s *Store) Version(ctx context.Context, streamID string) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM es.streams WHERE stream_id = $1`, streamID).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("version of %s: %w", streamID, err)
	}
	return v, nil
}

type scanner interface{ Scan(dest ...any) error }

// scan reads one envelope row and upcasts and decodes it.
func (s *Store) scan(row scanner) (Envelope, error) {
	e, err := scanRaw(row)
	if err != nil {
		return e, err
	}
	return e, s.reg.Resolve(&e)
}

func scanRaw(row scanner) (Envelope, error) {
	e, meta, err := scanRow(row)
	if err != nil {
		return e, err
	}
	return e, jsonUnmarshalMetadata(meta, &e.Metadata)
}

// scanRow reads one row's columns, leaving the metadata undecoded.
func scanRow(row scanner) (Envelope, []byte, error) {
	var e Envelope
	var id string
	var payload, meta []byte
	if err := row.Scan(&e.Position, &e.TransactionID, &id, &e.StreamType, &e.StreamID, &e.StreamVersion,
		&e.Type, &e.SchemaVersion, &payload, &meta, &e.OccurredAt, &e.RecordedAt); err != nil {
		return e, nil, fmt.Errorf("scan event: %w", err)
	}
	e.Payload = payload
	var err error
	if e.EventID, err = parseUUIDAsULID(id); err != nil {
		return e, nil, err
	}
	e.OccurredAt, e.RecordedAt = e.OccurredAt.UTC(), e.RecordedAt.UTC()
	return e, meta, nil
}

// Filter selects events for ReadAll. Zero values mean "no filter".
type Filter struct {
	StreamID     string
	Types        []string
	FromPosition int64     // events with position >= FromPosition
	Until        time.Time // events recorded at or before Until ("as known at")
	PageSize     int       // rows fetched per round trip; default 5000
}

// ReadAll calls fn for every event matching f in position order, upcast and
// decoded, reading in pages inside one REPEATABLE READ snapshot: an event
// that commits during the read can neither appear half-way nor shift a page.
func (s *Store) ReadAll(ctx context.Context, f Filter, fn func(Envelope) error) error {
	tx, err := s.db.BeginTx(ctx, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("read all: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	size := f.PageSize
	if size <= 0 {
		size = 5000
	}
	where, args := []string{"position > $1"}, []any{f.FromPosition - 1}
	if f.StreamID != "" {
		args = append(args, f.StreamID)
		where = append(where, "stream_id = $"+strconv.Itoa(len(args)))
	}
	if len(f.Types) > 0 {
		args = append(args, f.Types)
		where = append(where, "event_type = ANY($"+strconv.Itoa(len(args))+"::text[])")
	}
	if !f.Until.IsZero() {
		args = append(args, f.Until)
		where = append(where, "recorded_at <= $"+strconv.Itoa(len(args)))
	}
	q := `SELECT ` + envelopeColumns + ` FROM es.events WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY position LIMIT ` + strconv.Itoa(size)
	for {
		n, last, err := s.readPage(ctx, tx, q, args, fn)
		if err != nil {
			return err
		}
		if n < size {
			return nil
		}
		args[0] = last
	}
}

func (s *Store) readPage(ctx context.Context, tx *stdsql.Tx, q string, args []any, fn func(Envelope) error) (int, int64, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return 0, 0, fmt.Errorf("read all: %w", err)
	}
	defer rows.Close()
	n, last := 0, int64(0)
	for rows.Next() {
		e, err := s.scan(rows)
		if err != nil {
			return n, last, fmt.Errorf("read all: %w", err)
		}
		if err := fn(e); err != nil {
			return n, last, err
		}
		n, last = n+1, e.Position
	}
	return n, last, rows.Err()
}

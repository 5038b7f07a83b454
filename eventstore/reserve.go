package eventstore

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
)

// reserve checks and moves the stream's version, in one statement that is the
// append's first write. It returns the stream's new version, the transaction
// id and, for a single event, the event's position (drawn here so the caller
// needs no extra round trip to learn it); for several events it returns 0 and
// the column default draws the positions.
func (s *Store) reserve(ctx context.Context, tx *stdsql.Tx, stream Stream, expected int64, n int) (int64, uint64, int64, error) {
	var move string
	args := []any{stream.ID, stream.Type, n}
	switch {
	case expected == NoStream:
		move = `INSERT INTO es.streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
			ON CONFLICT (stream_id) DO NOTHING RETURNING version`
	case expected == AnyVersion:
		move = `INSERT INTO es.streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
			ON CONFLICT (stream_id) DO UPDATE SET version = es.streams.version + $3, updated_at = clock_timestamp()
			WHERE es.streams.stream_type = $2 RETURNING version`
	case expected > 0:
		move = `UPDATE es.streams SET version = version + $3, updated_at = clock_timestamp()
			WHERE stream_id = $1 AND stream_type = $2 AND version = $4 RETURNING version`
		args = append(args, expected)
	default:
		return 0, 0, 0, kernel.Invalid("expected_version", "min:-1", fmt.Sprintf("expected version %d is not valid", expected))
	}
	draw := `0::bigint`
	if n == 1 {
		draw = `nextval('es.events_position_seq')`
	}
	q := `WITH moved AS (` + move + `)
		SELECT version, pg_current_xact_id()::text::bigint, ` + draw + ` FROM moved`
	var version, position int64
	var txid uint64
	err := tx.QueryRowContext(ctx, q, args...).Scan(&version, &txid, &position)
	if errors.Is(err, stdsql.ErrNoRows) {
		return 0, 0, 0, s.clash(ctx, tx, stream, expected)
	}
	if err != nil {
		if isUniqueViolation(err) {
			return 0, 0, 0, kernel.Conflict(fmt.Sprintf("stream %s was created concurrently", stream.ID), err)
		}
		return 0, 0, 0, fmt.Errorf("append %s: version check: %w", stream.ID, err)
	}
	return version, txid, position, nil
}

// clash explains why the version check matched no row.
func (s *Store) clash(ctx context.Context, tx *stdsql.Tx, stream Stream, expected int64) error {
	var version int64
	var typ string
	err := tx.QueryRowContext(ctx, `SELECT version, stream_type FROM es.streams WHERE stream_id = $1`, stream.ID).Scan(&version, &typ)
	switch {
	case errors.Is(err, stdsql.ErrNoRows):
		return kernel.Conflict(fmt.Sprintf("stream %s does not exist; expected version %d", stream.ID, expected), nil)
	case err != nil:
		// The transaction may be unusable after a failed statement; report the clash anyway.
		return kernel.Conflict(fmt.Sprintf("stream %s is not at expected version %d", stream.ID, expected), err)
	case typ != stream.Type:
		return kernel.Conflict(fmt.Sprintf("stream %s is a %s, not a %s", stream.ID, typ, stream.Type), nil)
	default:
		return kernel.Conflict(fmt.Sprintf("stream %s is at version %d, expected %d", stream.ID, version, expected), nil)
	}
}

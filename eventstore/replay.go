package eventstore

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strconv"
)

// Querier is what ReadAfter needs: a *sql.DB, *sql.Tx or *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
}

// ReadAfter returns up to limit events after key in consumption order
// ((transaction_id, position)), below the snapshot's xmin horizon: the same
// order and the same horizon as the live consumers, so a replay that ends at
// key K hands over to a live consumer at K without a gap or a repeat. Envelopes
// are raw (not upcast); for types not in handles (when handles is non-nil)
// Payload is nil. Resolve them with Registry.Resolve.
func ReadAfter(ctx context.Context, q Querier, after Key, limit int, handles []string) ([]Envelope, error) {
	payload, args := "e.payload", []any{strconv.FormatUint(after.TransactionID, 10), after.Position}
	if handles != nil {
		payload = "CASE WHEN e.event_type = ANY($3::text[]) THEN e.payload END"
		args = append(args, handles)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+fmt.Sprintf(consumeColumns, payload)+`
		FROM es.events e
		WHERE (e.transaction_id, e.position) > ($1::text::xid8, $2::bigint)
		  AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY e.transaction_id, e.position
		LIMIT `+strconv.Itoa(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("read after %v: %w", after, err)
	}
	defer rows.Close()
	out := make([]Envelope, 0, min(limit, 64)) // a tail read usually finds a few events
	dec := newRowDecoder()
	for rows.Next() {
		e, err := dec.decode(rows)
		if err != nil {
			return nil, fmt.Errorf("read after: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

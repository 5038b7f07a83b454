package projections

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/eventstore"
)

// Status is one projector's status as recorded in the database.
type Status struct {
	Name         string         `json:"name"`
	State        string         `json:"state"`
	Checkpoint   eventstore.Key `json:"checkpoint"`
	LagEvents    int64          `json:"lag_events"`
	LagSeconds   float64        `json:"lag_seconds"`
	LastError    string         `json:"last_error,omitempty"`
	FailingAt    int64          `json:"failing_position,omitempty"`
	FailingSince *time.Time     `json:"failing_since,omitempty"`
	Retries      int            `json:"retries"`
	// ParkedStreams counts the streams the projector holds (Partitioned
	// projectors only); ListParked names them.
	ParkedStreams int `json:"parked_streams"`
}

// ReadStatus reports, for each named projector, its checkpoint, its exact lag
// in events (events after the checkpoint in consumption order), its lag in
// seconds (age of the oldest unapplied event) and its recorded state.
func ReadStatus(ctx context.Context, db *stdsql.DB, names []string) ([]Status, error) {
	out := make([]Status, 0, len(names))
	for _, name := range names {
		s := Status{Name: name, State: "never_run"}
		var tx int64
		var lastErr stdsql.NullString
		var failAt stdsql.NullInt64
		var failSince stdsql.NullTime
		var state stdsql.NullString
		err := db.QueryRowContext(ctx, `SELECT coalesce(c.last_processed_transaction_id::text::bigint, 0), coalesce(c.offset_acked, 0),
				s.state, s.last_error, s.failing_position, s.failing_since, coalesce(s.retries, 0)
			FROM (SELECT $1::text AS name) n
			LEFT JOIN es.checkpoints c ON c.consumer_group = n.name
			LEFT JOIN es.projector_status s ON s.name = n.name`, name).
			Scan(&tx, &s.Checkpoint.Position, &state, &lastErr, &failAt, &failSince, &s.Retries)
		if err != nil {
			return nil, fmt.Errorf("status of %s: %w", name, err)
		}
		s.Checkpoint.TransactionID = uint64(tx)
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM es.parked_streams WHERE projector = $1`, name).Scan(&s.ParkedStreams); err != nil {
			return nil, fmt.Errorf("parked streams of %s: %w", name, err)
		}
		if state.Valid {
			s.State = state.String
		}
		s.LastError, s.FailingAt = lastErr.String, failAt.Int64
		if failSince.Valid {
			t := failSince.Time.UTC()
			s.FailingSince = &t
		}
		var oldest stdsql.NullTime
		err = db.QueryRowContext(ctx, `SELECT count(*), min(recorded_at) FROM es.events
			WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)`,
			fmt.Sprint(s.Checkpoint.TransactionID), s.Checkpoint.Position).Scan(&s.LagEvents, &oldest)
		if err != nil {
			return nil, fmt.Errorf("lag of %s: %w", name, err)
		}
		if oldest.Valid {
			s.LagSeconds = time.Since(oldest.Time).Seconds()
		}
		out = append(out, s)
	}
	return out, nil
}

package storebench

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"

	"github.com/strata-platform/strata/eventstore"
)

// batchGroup is the consumer group whose checkpoint the batch figures move.
const batchGroup = "bench.catchup"

// defaultShapeQuery is watermill-sql v3.1.0's DefaultPostgreSQLSchema
// SelectQuery (with its offsets adapter's NextOffsetQuery) over es.events:
// the same WHERE, ORDER BY and LIMIT, with our column names and the same
// columns as our SchemaAdapter returns, so that only the query shape differs.
func defaultShapeQuery(group string, limit int) wsql.Query {
	return wsql.Query{
		Query: `SELECT position, transaction_id::text::bigint, event_id::text, stream_type, stream_id,
			stream_version, event_type, schema_version, payload, metadata, occurred_at, recorded_at FROM (
			WITH last_processed AS (
				SELECT offset_acked, last_processed_transaction_id FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE
			)
			SELECT position, transaction_id, event_id, stream_type, stream_id, stream_version, event_type,
				schema_version, payload, metadata, occurred_at, recorded_at FROM es.events
			WHERE (
				(transaction_id = (SELECT last_processed_transaction_id FROM last_processed)
				 AND position > (SELECT offset_acked FROM last_processed))
				OR
				(transaction_id > (SELECT last_processed_transaction_id FROM last_processed))
			)
			AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
		) AS messages
		ORDER BY transaction_id ASC, position ASC
		LIMIT ` + strconv.Itoa(limit),
		Args: []any{group},
	}
}

// batches times one consumer batch read, ours and the default shape, with
// each of Backlogs unread events behind the group's checkpoint.
func (b *bench) batches(ctx context.Context) ([]Figure, error) {
	total, err := b.storeSize(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := b.db.ExecContext(ctx, `INSERT INTO es.checkpoints (consumer_group) VALUES ($1) ON CONFLICT DO NOTHING`, batchGroup); err != nil {
		return nil, err
	}
	adapter := eventstore.SchemaAdapter{}
	ours := adapter.SelectQuery(eventstore.Topic, batchGroup, nil)
	base := defaultShapeQuery(batchGroup, eventstore.DefaultBatchSize) // the consumers' batch size
	var figs []Figure
	for _, backlog := range b.o.Backlogs {
		unread := min(int64(backlog), total)
		if err := b.placeCheckpoint(ctx, batchGroup, total-unread); err != nil {
			return nil, err
		}
		o, oursRows, err := b.timeBatch(ctx, ours)
		if err != nil {
			return nil, fmt.Errorf("our batch: %w", err)
		}
		d, baseRows, err := b.timeBatch(ctx, base)
		if err != nil {
			return nil, fmt.Errorf("default-shape batch: %w", err)
		}
		if oursRows != baseRows || int64(oursRows) != min(unread, eventstore.DefaultBatchSize) {
			return nil, fmt.Errorf("batch with %d unread: ours read %d rows, the default shape %d", unread, oursRows, baseRows)
		}
		oe, err := b.explainBatch(ctx, ours)
		if err != nil {
			return nil, err
		}
		de, err := b.explainBatch(ctx, base)
		if err != nil {
			return nil, err
		}
		b.progress("  batch, %d unread: ours median %.3f ms (%d samples, server %.3f ms), default shape median %.3f ms (%d samples, server %.3f ms)",
			unread, o.quantile(0.5), len(o), oe.quantile(0.5), d.quantile(0.5), len(d), de.quantile(0.5))
		figs = append(figs,
			Figure{Name: fmt.Sprintf("catch-up batch median, %d unread", unread), Unit: UnitMs,
				Ours: o.quantile(0.5), Baseline: d.quantile(0.5), Target: Target{Max: 1}, Samples: len(o)},
			// The "costs at most 1 ms" names no percentile: the
			// median holds the target, the tail is printed beside it.
			Figure{Name: fmt.Sprintf("catch-up batch p99, %d unread", unread), Unit: UnitMs,
				Ours: o.quantile(0.99), Baseline: d.quantile(0.99), Samples: len(o)},
			Figure{Name: fmt.Sprintf("catch-up batch server time median, %d unread", unread), Unit: UnitMs,
				Ours: oe.quantile(0.5), Baseline: de.quantile(0.5), Samples: len(oe)})
	}
	return figs, nil
}

// placeCheckpoint moves group's checkpoint after the first read events in
// consumption order.
func (b *bench) placeCheckpoint(ctx context.Context, group string, read int64) error {
	key := eventstore.Key{}
	if read > 0 {
		err := b.db.QueryRowContext(ctx, `SELECT transaction_id::text::bigint, position FROM es.events
			ORDER BY transaction_id, position OFFSET $1 LIMIT 1`, read-1).Scan(&key.TransactionID, &key.Position)
		if err != nil {
			return fmt.Errorf("place checkpoint: %w", err)
		}
	}
	_, err := b.db.ExecContext(ctx, `INSERT INTO es.checkpoints (consumer_group, offset_acked, last_processed_transaction_id)
		VALUES ($1, $2, $3::text::xid8) ON CONFLICT (consumer_group) DO UPDATE
		SET offset_acked = excluded.offset_acked, last_processed_transaction_id = excluded.last_processed_transaction_id`,
		group, key.Position, strconv.FormatUint(key.TransactionID, 10))
	if err != nil {
		return fmt.Errorf("place checkpoint: %w", err)
	}
	return nil
}

// timeBatch runs q as Watermill's subscriber does (REPEATABLE READ
// transaction, query, every row unmarshalled by our SchemaAdapter), then rolls
// back, BatchSamples times or until BatchBudget has passed (at least 3 times,
// after one untimed run). Each sample is the whole transaction.
func (b *bench) timeBatch(ctx context.Context, q wsql.Query) (durations, int, error) {
	once := func() (int, error) {
		tx, err := b.db.BeginTx(ctx, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead})
		if err != nil {
			return 0, err
		}
		defer func() { _ = tx.Rollback() }()
		rows, err := tx.QueryContext(ctx, q.Query, q.Args...)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		n, batch := 0, &eventstore.Batch{} // as the live consumer decodes a batch
		for rows.Next() {
			if _, err := (eventstore.SchemaAdapter{Batch: batch}).UnmarshalMessage(rows); err != nil {
				return n, err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return n, err
		}
		return n, tx.Rollback()
	}
	n, err := once()
	if err != nil {
		return nil, 0, err
	}
	var d durations
	start := time.Now()
	for len(d) < b.o.BatchSamples && (len(d) < 3 || time.Since(start) < b.o.BatchBudget) {
		t0 := time.Now()
		if _, err := once(); err != nil {
			return nil, 0, err
		}
		d = append(d, time.Since(t0))
	}
	return d, n, nil
}

// explainSamples is how many times explainBatch runs a query.
const explainSamples = 5

// explainBatch returns the server's execution time of q (EXPLAIN ANALYZE,
// without planning, transfer and decoding), in a REPEATABLE READ transaction
// rolled back like timeBatch's.
func (b *bench) explainBatch(ctx context.Context, q wsql.Query) (durations, error) {
	var out durations
	for range explainSamples {
		var plan []struct {
			Execution float64 `json:"Execution Time"`
		}
		tx, err := b.db.BeginTx(ctx, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead})
		if err != nil {
			return nil, err
		}
		var raw []byte
		err = tx.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+q.Query, q.Args...).Scan(&raw)
		_ = tx.Rollback()
		if err != nil {
			return nil, fmt.Errorf("explain batch: %w", err)
		}
		if err := json.Unmarshal(raw, &plan); err != nil || len(plan) != 1 {
			return nil, fmt.Errorf("explain batch: unexpected plan %.200s: %v", raw, err)
		}
		out = append(out, time.Duration(plan[0].Execution*float64(time.Millisecond)))
	}
	return out, nil
}

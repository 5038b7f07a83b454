package projections

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/strata-platform/strata/eventstore"
)

// BatchProjector is optionally implemented by projectors that can apply many
// events in one set-based statement; rebuilds then call ApplyBatch with every
// handled event of a page, in order, instead of Apply one by one.
type BatchProjector interface {
	ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error
}

// RebuildResult reports a finished rebuild.
type RebuildResult struct {
	Projector string
	Events    int64 // events read
	Applied   int64 // events handed to the projector
	Elapsed   time.Duration
	Handover  eventstore.Key // the live consumer continues after this key
}

// Rebuilder replays the store into fresh tables and swaps them in.
type Rebuilder struct {
	DB        *stdsql.DB
	Registry  *eventstore.Registry
	BatchSize int // events per replay transaction (10000)
	Logger    *slog.Logger

	held func(eventstore.Envelope) bool // events the live consumer holds or operators skipped
}

// Rebuild replays every event into fresh copies of p's tables (CREATE TABLE
// ... LIKE ... INCLUDING ALL in a side schema) while the live tables keep
// serving reads and the live consumer keeps running. It then locks p's
// checkpoint row (which pauses p's live consumer in any process), replays the
// last events, renames the fresh schema over the live one, and moves the
// checkpoint to the last replayed key, all in one transaction: the live
// consumer continues from exactly there on the new tables.
func (b Rebuilder) Rebuild(ctx context.Context, p Projector) (RebuildResult, error) {
	start := time.Now()
	res := RebuildResult{Projector: p.Name()}
	live := SchemaName(p.Name())
	fresh, old := live+"__rebuild", live+"__old"
	if err := b.prepare(ctx, live, fresh, p.Name()); err != nil {
		return res, err
	}
	held, err := heldFilter(ctx, b.DB, p)
	if err != nil {
		return res, err
	}
	b.held = held
	key := eventstore.Key{}
	for {
		n, err := b.replayTx(ctx, p, fresh, &key, &res, nil)
		if err != nil {
			return res, err
		}
		if n < b.batchSize() {
			break
		}
	}
	err = b.swap(ctx, p, live, fresh, old, &key, &res)
	if err != nil {
		return res, err
	}
	if _, err := b.DB.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+quoteIdent(old)+` CASCADE`); err != nil {
		return res, fmt.Errorf("rebuild %s: drop old tables: %w", p.Name(), err)
	}
	res.Elapsed, res.Handover = time.Since(start), key
	return res, nil
}

func (b Rebuilder) batchSize() int {
	if b.BatchSize <= 0 {
		return 10000
	}
	return b.BatchSize
}

// prepare creates the fresh schema with empty copies of the live tables.
func (b Rebuilder) prepare(ctx context.Context, live, fresh, name string) error {
	var exists bool
	if err := b.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, live).Scan(&exists); err != nil {
		return fmt.Errorf("rebuild %s: %w", name, err)
	}
	if !exists {
		return fmt.Errorf("rebuild %s: schema %s does not exist (its migration creates it)", name, live)
	}
	return eventstore.RunInTx(ctx, b.DB, nil, func(tx *stdsql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+quoteIdent(fresh)+` CASCADE; CREATE SCHEMA `+quoteIdent(fresh)); err != nil {
			return fmt.Errorf("rebuild %s: fresh schema: %w", name, err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, live)
		if err != nil {
			return fmt.Errorf("rebuild %s: list tables: %w", name, err)
		}
		var tables []string
		for rows.Next() {
			var t string
			if err := rows.Scan(&t); err != nil {
				rows.Close()
				return err
			}
			tables = append(tables, t)
		}
		rows.Close()
		for _, t := range tables {
			q := fmt.Sprintf(`CREATE TABLE %s.%s (LIKE %s.%s INCLUDING ALL)`, quoteIdent(fresh), quoteIdent(t), quoteIdent(live), quoteIdent(t))
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("rebuild %s: copy table %s: %w", name, t, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO es.checkpoints (consumer_group) VALUES ($1) ON CONFLICT DO NOTHING`, name)
		return err
	})
}

// replayTx replays one page in its own transaction (or in tx when given) and
// returns how many events it read.
func (b Rebuilder) replayTx(ctx context.Context, p Projector, schema string, key *eventstore.Key, res *RebuildResult, tx *stdsql.Tx) (int, error) {
	if tx != nil {
		return b.replayPage(ctx, tx, p, schema, key, res)
	}
	var n int
	err := eventstore.RunInTx(ctx, b.DB, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead}, func(tx *stdsql.Tx) error {
		var err error
		n, err = b.replayPage(ctx, tx, p, schema, key, res)
		return err
	})
	return n, err
}

func (b Rebuilder) replayPage(ctx context.Context, tx *stdsql.Tx, p Projector, schema string, key *eventstore.Key, res *RebuildResult) (int, error) {
	handles := handlesSet(p)
	page, err := eventstore.ReadAfter(ctx, tx, *key, b.batchSize(), payloadTypes(p))
	if err != nil || len(page) == 0 {
		return 0, err
	}
	if err := configureTx(ctx, tx, schema); err != nil {
		return 0, err
	}
	todo := make([]eventstore.Envelope, 0, len(page))
	for i := range page {
		if handles[page[i].Type] && (b.held == nil || !b.held(page[i])) {
			// An EnvelopeOnly projector's events come without payloads.
			if err := resolvePayload(b.Registry, &page[i]); err != nil {
				return 0, fmt.Errorf("rebuild %s: %w", p.Name(), err)
			}
			todo = append(todo, page[i])
		}
	}
	if bp, ok := p.(BatchProjector); ok && len(todo) > 0 {
		if err := bp.ApplyBatch(ctx, tx, todo); err != nil {
			return 0, fmt.Errorf("rebuild %s: batch ending at %d: %w", p.Name(), page[len(page)-1].Position, err)
		}
	} else {
		for _, e := range todo {
			if err := p.Apply(ctx, tx, e); err != nil {
				return 0, fmt.Errorf("rebuild %s: %w", p.Name(), &ApplyError{Position: e.Position, Type: e.Type, Err: err})
			}
		}
	}
	*key = page[len(page)-1].Key()
	res.Events += int64(len(page))
	res.Applied += int64(len(todo))
	if b.Logger != nil {
		b.Logger.Debug("rebuild progress", "projector", p.Name(), "events", res.Events)
	}
	return len(page), nil
}

// swap pauses the live consumer, replays what is left and swaps the schemas.
func (b Rebuilder) swap(ctx context.Context, p Projector, live, fresh, old string, key *eventstore.Key, res *RebuildResult) error {
	return eventstore.RunInTx(ctx, b.DB, nil, func(tx *stdsql.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE`, p.Name()); err != nil {
			return fmt.Errorf("rebuild %s: lock checkpoint: %w", p.Name(), err)
		}
		for {
			n, err := b.replayTx(ctx, p, fresh, key, res, tx)
			if err != nil {
				return err
			}
			if n == 0 {
				break
			}
		}
		q := fmt.Sprintf(`ALTER SCHEMA %s RENAME TO %s; ALTER SCHEMA %s RENAME TO %s`,
			quoteIdent(live), quoteIdent(old), quoteIdent(fresh), quoteIdent(live))
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild %s: swap: %w", p.Name(), err)
		}
		_, err := tx.ExecContext(ctx, `UPDATE es.checkpoints SET offset_acked = $2, last_processed_transaction_id = $3::text::xid8,
			updated_at = clock_timestamp() WHERE consumer_group = $1`, p.Name(), key.Position, fmt.Sprint(key.TransactionID))
		if err != nil {
			return fmt.Errorf("rebuild %s: move checkpoint: %w", p.Name(), err)
		}
		return nil
	})
}

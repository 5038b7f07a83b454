package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/eventstore"
)

// Exact is an account's ledger as one snapshot of the database shows it:
// the fold of every ledger event committed (the read model's row, as of
// its checkpoint, plus the account's events committed after it) and the
// debits recorded but not flushed yet. A recorded debit is either a
// pending row or an event in every snapshot (the flush moves it in one
// transaction), so Balance counts it exactly once.
type Exact struct {
	Account      credits.Account
	Pending      credits.Micro // recorded debits not yet in the ledger
	PendingCount int64
	// PendingInPeriod is the part of Pending in the period asked for.
	PendingInPeriod credits.Micro
	// StreamVersion is the account's credits stream version in the same
	// snapshot: a decision on this read appends at it.
	StreamVersion int64
}

// Balance is the ledger's balance less the pending debits.
func (e Exact) Balance() credits.Micro { return e.Account.Balance - e.Pending }

// ReadExact reads account's ledger in one REPEATABLE READ snapshot (five
// small queries; the events after the checkpoint are few while the
// projector keeps up). It serves the balance route and the operators'
// commands; the request path reads the in-memory CreditsView instead.
// periodKey names the period whose pending debits PendingInPeriod sums
// ("" for none).
func ReadExact(ctx context.Context, db *stdsql.DB, reg *eventstore.Registry, account, periodKey string) (Exact, error) {
	var out Exact
	err := eventstore.RunInTx(ctx, db, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead, ReadOnly: true}, func(tx *stdsql.Tx) error {
		var err error
		out, err = ReadExactTx(ctx, tx, reg, account, periodKey)
		return err
	})
	return out, err
}

// ReadExactTx is ReadExact inside the caller's transaction, which must be
// REPEATABLE READ (or SERIALIZABLE) for the reads to be one snapshot.
func ReadExactTx(ctx context.Context, tx *stdsql.Tx, reg *eventstore.Registry, account, periodKey string) (Exact, error) {
	var out Exact
	err := func() error {
		key, err := creditsCheckpoint(ctx, tx)
		if err != nil {
			return err
		}
		out.Account = credits.Account{AccountID: account}
		var raw []byte
		err = tx.QueryRowContext(ctx, `SELECT state FROM `+CreditsSchema+`.accounts WHERE account_id = $1`, account).Scan(&raw)
		switch {
		case errors.Is(err, stdsql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("credits of %s: %w", account, err)
		default:
			if err := json.Unmarshal(raw, &out.Account); err != nil {
				return fmt.Errorf("credits of %s: %w", account, err)
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT event_type, schema_version, payload FROM es.events
			WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint) AND event_type = ANY($3::text[])
			  AND payload->>'account_id' = $4
			ORDER BY transaction_id, position`,
			strconv.FormatUint(key.TransactionID, 10), key.Position, credits.EventTypes(), account)
		if err != nil {
			return fmt.Errorf("credits of %s: events: %w", account, err)
		}
		defer rows.Close()
		for rows.Next() {
			var e eventstore.Envelope
			if err := rows.Scan(&e.Type, &e.SchemaVersion, &e.Payload); err != nil {
				return fmt.Errorf("credits of %s: events: %w", account, err)
			}
			if err := reg.Resolve(&e); err != nil {
				return fmt.Errorf("credits of %s: %w", account, err)
			}
			out.Account.Apply(e.Event)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("credits of %s: events: %w", account, err)
		}
		var pending, inPeriod int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(amount_micro), 0), count(*),
				coalesce(sum(amount_micro) FILTER (WHERE event->'period'->>'key' = $2), 0)
			FROM platform.gateway_pending_debits WHERE account_id = $1`, account, periodKey).Scan(&pending, &out.PendingCount, &inPeriod); err != nil {
			return fmt.Errorf("credits of %s: pending debits: %w", account, err)
		}
		out.Pending, out.PendingInPeriod = credits.Micro(pending), credits.Micro(inPeriod)
		err = tx.QueryRowContext(ctx, `SELECT version FROM es.streams WHERE stream_id = $1`,
			credits.AccountStream(account)).Scan(&out.StreamVersion)
		if errors.Is(err, stdsql.ErrNoRows) {
			err = nil
		}
		if err != nil {
			return fmt.Errorf("credits of %s: stream version: %w", account, err)
		}
		return nil
	}()
	return out, err
}

// creditsCheckpoint is the ledger projector's checkpoint (zero when it
// never ran): every ledger event at or before it is in its tables.
func creditsCheckpoint(ctx context.Context, tx *stdsql.Tx) (eventstore.Key, error) {
	var k eventstore.Key
	var txid string
	err := tx.QueryRowContext(ctx, `SELECT last_processed_transaction_id::text, offset_acked FROM es.checkpoints
		WHERE consumer_group = $1`, CreditsName).Scan(&txid, &k.Position)
	if errors.Is(err, stdsql.ErrNoRows) {
		return eventstore.Key{}, nil
	}
	if err != nil {
		return k, fmt.Errorf("%s checkpoint: %w", CreditsName, err)
	}
	if k.TransactionID, err = strconv.ParseUint(txid, 10, 64); err != nil {
		return k, fmt.Errorf("%s checkpoint: %w", CreditsName, err)
	}
	return k, nil
}

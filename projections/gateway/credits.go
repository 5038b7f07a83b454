package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/eventstore"
)

// CreditsName is the credit ledger's projector; its tables live in schema
// CreditsSchema.
const CreditsName = "gateway.credits.v1"

// CreditsSchema is the schema of the ledger's tables, for qualified queries.
const CreditsSchema = "rm_gateway_credits_v1"

// CreditsProjector maintains rm_gateway_credits_v1: accounts (each
// account's folded ledger: balance, its parts and latest periods, as
// credits.Account) and usage (one record per debited request, with what
// refunds gave back). A global read model: a failing event stops it and it
// retries (debits of one process's stream name many accounts, so parking a
// stream would hold back others').
type CreditsProjector struct{}

// Name implements projections.Projector.
func (CreditsProjector) Name() string { return CreditsName }

// Handles implements projections.Projector.
func (CreditsProjector) Handles() []string { return credits.EventTypes() }

// Apply implements projections.Projector.
func (p CreditsProjector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	return p.ApplyBatch(ctx, tx, []eventstore.Envelope{e})
}

// ApplyBatch implements projections.BatchProjector: it loads the batch's
// accounts once, folds the events into them (credits.Account.Apply is
// commutative, so the table's state plus any events in any order is the
// fold), writes them back in one statement, and inserts the usage records
// and refunds.
func (CreditsProjector) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	states := map[string]*credits.Account{}
	var order []string
	var debits []*credits.Debited
	var refunds []*credits.Refunded
	for _, e := range events {
		id := ""
		switch ev := e.Event.(type) {
		case *credits.Granted:
			id = ev.AccountID
		case *credits.Debited:
			id = ev.AccountID
			debits = append(debits, ev)
		case *credits.Refunded:
			id = ev.AccountID
			refunds = append(refunds, ev)
		case *credits.Adjusted:
			id = ev.AccountID
		default:
			continue
		}
		if _, ok := states[id]; !ok {
			states[id] = nil
			order = append(order, id)
		}
	}
	if len(order) == 0 {
		return nil
	}
	if err := loadAccounts(ctx, tx, order, states); err != nil {
		return err
	}
	for _, e := range events {
		var id string
		switch ev := e.Event.(type) {
		case *credits.Granted:
			id = ev.AccountID
		case *credits.Debited:
			id = ev.AccountID
		case *credits.Refunded:
			id = ev.AccountID
		case *credits.Adjusted:
			id = ev.AccountID
		default:
			continue
		}
		states[id].Apply(e.Event)
	}
	if err := insertUsage(ctx, tx, debits); err != nil {
		return err
	}
	for _, r := range refunds {
		res, err := tx.ExecContext(ctx, `UPDATE usage SET refunded_micro = refunded_micro + $2 WHERE request_id = $1`,
			r.RequestID, int64(r.AmountMicro))
		if err != nil {
			return fmt.Errorf("%s: refund of %s: %w", CreditsName, r.RequestID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			// A refund is decided on the debit's index row, written by the
			// transaction that appended the debit, so the debit is always
			// consumed first; a missing record is a defect, never skipped.
			return fmt.Errorf("%s: refund of %s before its debit", CreditsName, r.RequestID)
		}
	}
	return saveAccounts(ctx, tx, order, states)
}

func loadAccounts(ctx context.Context, tx *stdsql.Tx, ids []string, into map[string]*credits.Account) error {
	rows, err := tx.QueryContext(ctx, `SELECT account_id, state FROM accounts WHERE account_id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("%s: load accounts: %w", CreditsName, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return fmt.Errorf("%s: load accounts: %w", CreditsName, err)
		}
		a := &credits.Account{}
		if err := json.Unmarshal(raw, a); err != nil {
			return fmt.Errorf("%s: account %s: %w", CreditsName, id, err)
		}
		into[id] = a
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: load accounts: %w", CreditsName, err)
	}
	for _, id := range ids {
		if into[id] == nil {
			into[id] = &credits.Account{AccountID: id}
		}
	}
	return nil
}

func saveAccounts(ctx context.Context, tx *stdsql.Tx, ids []string, states map[string]*credits.Account) error {
	balances := make([]int64, len(ids))
	raws := make([]string, len(ids))
	for i, id := range ids {
		raw, err := json.Marshal(states[id])
		if err != nil {
			return fmt.Errorf("%s: account %s: %w", CreditsName, id, err)
		}
		balances[i], raws[i] = int64(states[id].Balance), string(raw)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO accounts (account_id, balance_micro, state)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::jsonb[])
		ON CONFLICT (account_id) DO UPDATE SET balance_micro = EXCLUDED.balance_micro, state = EXCLUDED.state`,
		ids, balances, raws)
	if err != nil {
		return fmt.Errorf("%s: save accounts: %w", CreditsName, err)
	}
	return nil
}

func insertUsage(ctx context.Context, tx *stdsql.Tx, debits []*credits.Debited) error {
	if len(debits) == 0 {
		return nil
	}
	n := len(debits)
	ids, accounts, keys, models, upstreams := make([]string, n), make([]string, n), make([]*string, n), make([]string, n), make([]*string, n)
	in, out, cache, cost, latency := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	statuses, periods, ats := make([]string, n), make([]*string, n), make([]string, n)
	for i, d := range debits {
		ids[i], accounts[i], models[i], statuses[i] = d.RequestID, d.AccountID, d.Model, d.Status
		keys[i], upstreams[i] = nullable(d.KeyID), nullable(d.Upstream)
		in[i], out[i], cache[i], cost[i], latency[i] = d.Input, d.Output, d.CacheRead, int64(d.AmountMicro), d.LatencyMS
		if d.Period != nil {
			periods[i] = &d.Period.Key
		}
		ats[i] = d.At.UTC().Format("2006-01-02T15:04:05.999999Z07:00")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO usage (request_id, account_id, key_id, model, upstream, input_tokens,
		output_tokens, cache_read_tokens, cost_micro, status, latency_ms, period_key, at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[],
			$8::bigint[], $9::bigint[], $10::text[], $11::bigint[], $12::text[], $13::timestamptz[])
		ON CONFLICT (request_id) DO NOTHING`,
		ids, accounts, keys, models, upstreams, in, out, cache, cost, statuses, latency, periods, ats)
	if err != nil {
		return fmt.Errorf("%s: usage records: %w", CreditsName, err)
	}
	return nil
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

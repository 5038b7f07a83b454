package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// errFlushRace: another process flushed some of the rows this flush read
// (a crashed process's rows taken by two at once); the transaction rolls
// back and the next flush reads again.
var errFlushRace = errors.New("pending debits were flushed concurrently")

// Flushed is what one flush did.
type Flushed struct {
	Appended   int // debits appended to the ledger
	Duplicates int // rows whose request id was debited before: deleted, nothing appended
}

// pendingRow is one row of platform.gateway_pending_debits.
type pendingRow struct {
	id      string
	account string
	amount  int64
	event   credits.Debited
	own     bool
}

// Flush spools the journaled debits into the ledger (see spool), then
// moves up to FlushBatch pending debits (this recorder's, and other recorders' older
// than OrphanAfter) into the ledger in one transaction:
// the request ids already debited are dropped, the others are appended to
// this recorder's debit stream and recorded in platform.gateway_debits,
// and every row read is deleted; the transaction commits all of it or
// none. Reading takes no lock (a lock would give the transaction its id
// before the append's version check, see eventstore.AppendTx); a row that
// another flusher moved meanwhile makes the claim or the delete count
// come out short, and the transaction rolls back (errFlushRace).
func (r *Recorder) Flush(ctx context.Context) (Flushed, error) {
	spooled, err := r.spool(ctx)
	if err != nil {
		return spooled, err
	}
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	rows, err := r.readPending(ctx)
	if err != nil || len(rows) == 0 {
		return spooled, err
	}
	out, err := r.moveLocked(ctx, rows, true, true)
	out.Appended += spooled.Appended
	out.Duplicates += spooled.Duplicates
	return out, err
}

// moveLocked appends rows' debits that are not in the index to this
// recorder's debit stream and indexes them, in one transaction that also
// deletes the rows from the pending table when pending (they were read
// from it: every one must still be there); then shows them in the view and
// forgets this recorder's own from the local sums. r.flushMu is held.
//
// With check, the index is looked up first and the debits found there are
// dropped as duplicates. Without it (the spooler's fresh journal lines,
// which are almost never in the index) nothing is looked up: the index's
// insert then finds any debited before, and the transaction rolls back
// with errFlushRace for the caller to move them again with check.
func (r *Recorder) moveLocked(ctx context.Context, rows []pendingRow, pending, check bool) (Flushed, error) {
	if r.version < 0 {
		var err error
		if r.version, err = r.store.Version(ctx, credits.DebitStream(r.cfg.Owner)); err != nil {
			return Flushed{}, fmt.Errorf("flush debits: %w", err)
		}
	}
	var out Flushed
	var app eventstore.Appended
	err := r.store.InTx(ctx, func(tx *stdsql.Tx) error {
		out = Flushed{}
		ids := make([]string, len(rows))
		for i, row := range rows {
			ids[i] = row.id
		}
		seen := map[string]bool{}
		if check {
			var err error
			if seen, err = debited(ctx, tx, ids); err != nil {
				return err
			}
		}
		var fresh []*credits.Debited
		for i := range rows {
			if !seen[rows[i].id] {
				fresh = append(fresh, &rows[i].event)
			}
		}
		out.Duplicates = len(rows) - len(fresh)
		if len(fresh) > 0 {
			evs := make([]kernel.Event, len(fresh))
			for i, d := range fresh {
				evs[i] = d
			}
			stream := eventstore.Stream{Type: credits.DebitStreamType, ID: credits.DebitStream(r.cfg.Owner)}
			var err error
			if app, err = r.store.AppendTx(ctx, tx, stream, r.version, evs...); err != nil {
				return err
			}
			if err := r.fault("appended"); err != nil {
				return err
			}
			if err := index(ctx, tx, fresh, stream.ID); err != nil {
				return err
			}
			out.Appended = len(fresh)
		}
		if err := r.fault("indexed"); err != nil {
			return err
		}
		if pending {
			res, err := tx.ExecContext(ctx, `DELETE FROM platform.gateway_pending_debits WHERE request_id = ANY($1)`, ids)
			if err != nil {
				return fmt.Errorf("flush debits: delete: %w", err)
			}
			if n, _ := res.RowsAffected(); n != int64(len(ids)) {
				return errFlushRace
			}
		}
		return r.fault("deleted")
	})
	if err != nil {
		r.stats.flushFailed()
		if kernel.KindOf(err) == kernel.KindConflict {
			r.version = -1 // someone else wrote our stream (never expected): read its version again
		}
		return Flushed{}, err
	}
	if out.Appended > 0 {
		r.version = app.ToVersion
		if r.view != nil {
			// Show the debits in this process's view before dropping them from
			// the local sums, so a balance never misses them (it may count them
			// twice for this instant, refusing rather than overspending).
			wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_ = r.view.Sync(wctx, app.Last)
			cancel()
		}
	}
	var own []string
	for _, row := range rows {
		if row.own {
			own = append(own, row.id)
		}
	}
	r.forget(own)
	r.stats.flushed(out)
	return out, nil
}

func (r *Recorder) fault(stage string) error {
	if r.cfg.Fault == nil {
		return nil
	}
	return r.cfg.Fault(stage)
}

// readPending reads the rows this flush moves: this recorder's, and the
// orphans of others, oldest first.
func (r *Recorder) readPending(ctx context.Context) ([]pendingRow, error) {
	q, err := r.store.DB().QueryContext(ctx, `SELECT request_id, account_id, amount_micro, event, owner = $1
		FROM platform.gateway_pending_debits
		WHERE owner = $1 OR recorded_at < clock_timestamp() - make_interval(secs => $2)
		ORDER BY recorded_at, request_id LIMIT $3`, r.cfg.Owner, r.cfg.OrphanAfter.Seconds(), r.cfg.FlushBatch)
	if err != nil {
		return nil, fmt.Errorf("flush debits: read: %w", err)
	}
	defer q.Close()
	var rows []pendingRow
	for q.Next() {
		var row pendingRow
		var raw []byte
		if err := q.Scan(&row.id, &row.account, &row.amount, &raw, &row.own); err != nil {
			return nil, fmt.Errorf("flush debits: read: %w", err)
		}
		if err := json.Unmarshal(raw, &row.event); err != nil {
			return nil, fmt.Errorf("flush debits: debit %s: %w", row.id, err)
		}
		rows = append(rows, row)
	}
	return rows, q.Err()
}

// debited returns which of ids are in the index of debited requests: one
// probe of its primary key an id (the LATERAL with LIMIT keeps the planner
// from turning a few hundred ids into a scan of the whole table, which it
// chose for `request_id = ANY($1)` on a table of 50,000 rows: 37 ms
// instead of 1).
func debited(ctx context.Context, tx *stdsql.Tx, ids []string) (map[string]bool, error) {
	q, err := tx.QueryContext(ctx, `SELECT d.request_id FROM unnest($1::text[]) AS r(id),
		LATERAL (SELECT request_id FROM platform.gateway_debits WHERE request_id = r.id LIMIT 1) d`, ids)
	if err != nil {
		return nil, fmt.Errorf("flush debits: index: %w", err)
	}
	defer q.Close()
	seen := map[string]bool{}
	for q.Next() {
		var id string
		if err := q.Scan(&id); err != nil {
			return nil, fmt.Errorf("flush debits: index: %w", err)
		}
		seen[id] = true
	}
	return seen, q.Err()
}

// index records the appended debits' request ids (after the append: see
// eventstore.AppendTx); one that is there already means another flusher
// appended it meanwhile (errFlushRace).
func index(ctx context.Context, tx *stdsql.Tx, ds []*credits.Debited, stream string) error {
	ids, accounts, amounts, periods := make([]string, len(ds)), make([]string, len(ds)), make([]int64, len(ds)), make([]*string, len(ds))
	for i, d := range ds {
		ids[i], accounts[i], amounts[i] = d.RequestID, d.AccountID, int64(d.AmountMicro)
		if d.Period != nil {
			raw, err := json.Marshal(d.Period)
			if err != nil {
				return err
			}
			s := string(raw)
			periods[i] = &s
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO platform.gateway_debits (request_id, account_id, amount_micro, period, stream_id)
		SELECT r, a, m, p, $5 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::jsonb[]) AS t(r, a, m, p)
		ON CONFLICT (request_id) DO NOTHING`, ids, accounts, amounts, periods, stream)
	if err != nil {
		return fmt.Errorf("flush debits: index: %w", err)
	}
	if n, _ := res.RowsAffected(); n != int64(len(ds)) {
		return errFlushRace
	}
	return nil
}

// Run flushes until ctx ends: every FlushInterval while debits are being
// recorded (a Record wakes it), and at least every OrphanAfter / 2 for
// other processes' orphans, whose journals it recovers then too; with a
// journal, it spools meanwhile (spoolLoop). A failed flush is logged and
// retried. At the end it flushes once more (shutdown), bounded by 10
// seconds, and removes its journal when everything in it is spooled.
func (r *Recorder) Run(ctx context.Context) {
	idle := r.cfg.OrphanAfter / 2
	spooled := make(chan struct{})
	if r.journal != nil {
		go func() { defer close(spooled); r.spoolLoop(ctx) }()
	} else {
		close(spooled)
	}
	var recovered time.Time
	for {
		if time.Since(recovered) >= idle {
			recovered = time.Now()
			if err := r.recoverJournals(ctx); err != nil && ctx.Err() == nil {
				r.cfg.Logger.Warn("gateway credits: recovering a stopped process's debit journal failed; retrying", "err", err)
			}
		}
		for {
			out, err := r.Flush(ctx)
			if err != nil {
				if ctx.Err() == nil && !errors.Is(err, errFlushRace) {
					r.cfg.Logger.Warn("gateway credits: flushing debits failed; retrying", "err", err)
				}
				break
			}
			if out.Appended+out.Duplicates < r.cfg.FlushBatch {
				break
			}
		}
		if err := r.reconcile(ctx); err != nil && ctx.Err() == nil {
			r.cfg.Logger.Warn("gateway credits: reconciling unflushed debits failed", "err", err)
		}
		select {
		case <-ctx.Done():
			<-spooled
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			for {
				out, err := r.Flush(fctx)
				if err != nil || out.Appended+out.Duplicates == 0 {
					break
				}
			}
			r.closeJournal(fctx)
			cancel()
			return
		case <-r.kick:
			select { // gather what is recorded meanwhile into one append
			case <-ctx.Done():
			case <-time.After(r.cfg.FlushInterval):
			}
		case <-time.After(idle):
		}
	}
}

package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// RecorderConfig tunes the debit recorder; zero values take the defaults.
type RecorderConfig struct {
	// Owner names this recorder's rows and its debit stream; a new random
	// id when empty (one per process start).
	Owner string
	// FlushInterval spaces flushes (default 200 ms): debits recorded
	// meanwhile are appended together.
	FlushInterval time.Duration
	// FlushBatch bounds the debits of one flush (default 500).
	FlushBatch int
	// OrphanAfter is the age after which a pending row of another recorder
	// (a process that crashed, or stopped without flushing) is flushed by
	// this one (default 30 s).
	OrphanAfter time.Duration
	// Fault, for tests, runs at each stage of a flush's transaction
	// ("appended": the events are appended; "indexed": the request ids are
	// claimed; "deleted": the pending rows are deleted, before the commit);
	// an error aborts the transaction as a crash at that point would.
	Fault func(stage string) error
	// JournalDir, when set, is the base directory of the local debit
	// journal (see Record): a request's debit is written there and reaches
	// PostgreSQL off the request path. Empty: Record commits the debit's
	// row in PostgreSQL before it returns.
	JournalDir string
	// SpoolInterval gathers journaled debits into one INSERT (default
	// 2 ms after the first).
	SpoolInterval time.Duration
	// Logger reports flush failures (they are retried).
	Logger *slog.Logger
}

// Recorder is the debit write-ahead: Record makes a finished request's
// debit durable with one INSERT into platform.gateway_pending_debits
// before the response completes (concurrent Records' rows in one INSERT
// and one commit: a group, see group), and the flusher (Run) turns pending rows
// into credits.debited events in batches, off the request path. A flush
// appends the events, records their request ids in
// platform.gateway_debits and deletes the rows in one transaction: at
// every instant a recorded debit is a pending row or an event (never
// both: the transaction is atomic; never neither: the row is committed
// before Record returns and deleted only with its event), and a request
// id already in the index is deleted without an event, so a request is
// debited exactly once however often it is recorded. It is safe for
// concurrent use.
type Recorder struct {
	store *eventstore.Store
	clock kernel.Clock
	view  *projgateway.CreditsView // may be nil: no period stamps, no local view
	cfg   RecorderConfig
	kick  chan struct{}

	rows *group[pendingDebit] // concurrent Records' rows, inserted together (no journal)

	journal   *journal        // nil: none (or it could not be opened)
	queue     []*pendingDebit // journaled, not taken by the spooler yet (guarded by journal.mu)
	spoolKick chan struct{}   // a debit was journaled
	spoolMu   sync.Mutex      // one spool at a time
	unspooled []*pendingDebit // taken and not committed yet (a failed spool), under spoolMu
	segments  []string        // rotated segments whose lines are not all committed, under spoolMu

	flushMu sync.Mutex // one flush at a time in this process
	version int64      // the debit stream's version (this recorder is its only writer); -1: unknown

	mu        sync.Mutex
	local     map[string]localDebit    // this recorder's unflushed debits by request id
	byAccount map[string]credits.Micro // and their sum by account
	stats     *creditStats
}

type localDebit struct {
	account string
	amount  credits.Micro
	at      time.Time // when it was recorded (wall clock)
	spooled bool      // its row was committed in PostgreSQL
}

// NewRecorder returns a recorder over the store; view may be nil.
func NewRecorder(store *eventstore.Store, clock kernel.Clock, view *projgateway.CreditsView, cfg RecorderConfig) *Recorder {
	if cfg.Owner == "" {
		cfg.Owner = eventstore.NewULIDs(kernel.SystemClock{}).NewID()
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = 200 * time.Millisecond
	}
	if cfg.FlushBatch <= 0 {
		cfg.FlushBatch = 500
	}
	if cfg.OrphanAfter <= 0 {
		cfg.OrphanAfter = 30 * time.Second
	}
	if cfg.SpoolInterval <= 0 {
		cfg.SpoolInterval = 2 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Recorder{store: store, clock: clock, view: view, cfg: cfg, kick: make(chan struct{}, 1), version: -1,
		local: map[string]localDebit{}, byAccount: map[string]credits.Micro{}, stats: newCreditStats(),
		spoolKick: make(chan struct{}, 1)}
	r.rows = newGroup(func(p *pendingDebit) string { return p.d.RequestID }, r.insertAll)
	if cfg.JournalDir != "" {
		j, err := openJournal(cfg.JournalDir, cfg.Owner)
		if err != nil {
			cfg.Logger.Error("gateway credits: no debit journal; debits are committed on the request path", "err", err)
		} else {
			r.journal = j
		}
	}
	if view != nil {
		// Whoever flushed them (this process, or another taking them as
		// orphans), debits the view has applied are no longer unflushed.
		view.OnDebit(r.forget)
	}
	return r
}

// Owner is the recorder's id (its rows' owner, its debit stream's suffix).
func (r *Recorder) Owner() string { return r.cfg.Owner }

// Recorded is the outcome of Record.
type Recorded struct {
	Debit *credits.Debited
	// Duplicate: a debit with this request id was recorded before (pending
	// or in the ledger); nothing was recorded again.
	Duplicate bool
}

// Record makes the debit of a finished request durable: when it returns
// without error the debit will be in the ledger exactly once, whatever
// happens to this process. The chat routes call it before the response
// completes (before the last bytes of a stream), with what was delivered.
// The cost is computed from the model's current prices; the debit is
// stamped with the account's period that contains the request, as this
// process's view knows it.
//
// With a journal, the debit is one line written to this recorder's
// journal segment (one write(2), no wait for PostgreSQL or the disk): the
// process may crash at once and the line is still there, spooled into
// PostgreSQL by the spooler (Run, a few milliseconds later: its rows are
// committed with their WAL flush, then the segment is removed) or, after
// a crash, by the next recorder started on the same journal directory.
// Only a crash of the machine before the spool (its page cache lost) can
// lose a debit. A duplicate is then one this recorder has not flushed
// yet; another process's is dropped by the pending rows' key or the
// flush's index, so a request is still debited once. Without a journal
// (or when writing it fails), the row is committed in PostgreSQL before
// Record returns.
func (r *Recorder) Record(ctx context.Context, u credits.Usage) (Recorded, error) {
	var period *credits.Period
	if r.view != nil {
		a, _ := r.view.Account(u.AccountID)
		if p, ok := a.PeriodAt(u.At); ok {
			period = &p
		}
	}
	d, err := credits.NewDebit(u, period)
	if err != nil {
		return Recorded{}, err
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return Recorded{}, fmt.Errorf("record debit %s: %w", d.RequestID, err)
	}
	// The debit counts as unflushed from before its row commits: a flush
	// (and the view's forget) may follow the commit at once, before this
	// call would see it. It is taken back if no row was inserted.
	r.mu.Lock()
	_, pending := r.local[d.RequestID]
	if !pending {
		r.local[d.RequestID] = localDebit{account: d.AccountID, amount: d.AmountMicro, at: time.Now()}
		r.byAccount[d.AccountID] += d.AmountMicro
	}
	r.mu.Unlock()
	row := &pendingDebit{d: d, event: raw}
	if r.journal != nil {
		if pending {
			r.stats.duplicate()
			return Recorded{Debit: d, Duplicate: true}, nil
		}
		jerr := r.journal.Append(raw, func() { r.queue = append(r.queue, row) })
		if jerr == nil {
			r.stats.recorded(d)
			select {
			case r.spoolKick <- struct{}{}:
			default:
			}
			return Recorded{Debit: d}, nil
		}
		r.cfg.Logger.Error("gateway credits: journaling a debit failed; committing it on the request path", "request_id", d.RequestID, "err", jerr)
	}
	err = r.rows.do(ctx, row)
	if (err != nil || !row.inserted) && !pending {
		r.forget([]string{d.RequestID})
	}
	if err != nil {
		return Recorded{}, fmt.Errorf("record debit %s: %w", d.RequestID, err)
	}
	if !row.inserted {
		r.stats.duplicate()
		return Recorded{Debit: d, Duplicate: true}, nil
	}
	r.markSpooled([]*pendingDebit{row})
	r.stats.recorded(d)
	select {
	case r.kick <- struct{}{}:
	default:
	}
	return Recorded{Debit: d}, nil
}

// pendingDebit is one debit to insert into platform.gateway_pending_debits,
// and whether it was (false: its request id is pending already).
type pendingDebit struct {
	d        *credits.Debited
	event    []byte
	inserted bool
}

// insertAll inserts a group's rows (distinct request ids) in one
// statement, committed before any of their Record calls returns. The
// commit does not wait for its WAL flush (synchronous_commit off for this
// statement): once it returns, the row is in PostgreSQL, visible to every
// process, and survives any crash of Strata; only a crash of PostgreSQL
// itself (or its machine) can lose the debits of its last ~0.6 s
// (3 x wal_writer_delay). A flush per request cost 1-6 ms at the median
// on the request path (strata bench gateway); the target is that
// the gateway adds well under a millisecond.
func (r *Recorder) insertAll(ctx context.Context, ds []*pendingDebit) error {
	return r.insertRows(ctx, ds, false)
}

// insertRows inserts ds (distinct request ids) as this recorder's pending
// rows in one statement, its commit waiting for the WAL flush when
// durable, and sets each row's inserted.
func (r *Recorder) insertRows(ctx context.Context, ds []*pendingDebit, durable bool) error {
	async := `,
			(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`
	if durable {
		async = ""
	}
	ids, accounts, amounts, events := make([]string, len(ds)), make([]string, len(ds)), make([]int64, len(ds)), make([]string, len(ds))
	for i, p := range ds {
		ids[i], accounts[i], amounts[i], events[i] = p.d.RequestID, p.d.AccountID, int64(p.d.AmountMicro), string(p.event)
	}
	rows, err := r.store.DB().QueryContext(ctx, `INSERT INTO platform.gateway_pending_debits
		(request_id, account_id, owner, amount_micro, event)
		SELECT r.request_id, r.account_id, $3, r.amount_micro, r.event::jsonb
		FROM unnest($1::text[], $2::text[], $4::bigint[], $5::text[]) AS r(request_id, account_id, amount_micro, event)`+async+`
		ON CONFLICT (request_id) DO NOTHING RETURNING request_id`, ids, accounts, r.cfg.Owner, amounts, events)
	if err != nil {
		return err
	}
	defer rows.Close()
	byID := make(map[string]*pendingDebit, len(ds))
	for _, p := range ds {
		byID[p.d.RequestID] = p
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		if p, ok := byID[id]; ok {
			p.inserted = true
		}
	}
	return rows.Err()
}

// Unflushed is the sum of this recorder's debits of account that its
// flusher has not yet appended and shown in the view: what the view's
// balance does not count yet.
func (r *Recorder) Unflushed(account string) credits.Micro {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byAccount[account]
}

// forget drops flushed (or duplicate) debits from the local sums.
func (r *Recorder) forget(ids []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		d, ok := r.local[id]
		if !ok {
			continue
		}
		delete(r.local, id)
		if left := r.byAccount[d.account] - d.amount; left == 0 {
			delete(r.byAccount, d.account)
		} else {
			r.byAccount[d.account] = left
		}
	}
}

// reconcile forgets the local debits older than OrphanAfter whose rows
// are no longer pending: flushed by another process (the view applies
// them after its catch-up) or dropped as repeats of a debited request (no
// event will come for them).
func (r *Recorder) reconcile(ctx context.Context) error {
	cutoff := time.Now().Add(-r.cfg.OrphanAfter)
	var old []string
	r.mu.Lock()
	for id, d := range r.local {
		if d.spooled && d.at.Before(cutoff) {
			old = append(old, id)
		}
	}
	r.mu.Unlock()
	if len(old) == 0 {
		return nil
	}
	q, err := r.store.DB().QueryContext(ctx, `SELECT request_id FROM platform.gateway_pending_debits WHERE request_id = ANY($1)`, old)
	if err != nil {
		return fmt.Errorf("reconcile debits: %w", err)
	}
	defer q.Close()
	still := map[string]bool{}
	for q.Next() {
		var id string
		if err := q.Scan(&id); err != nil {
			return fmt.Errorf("reconcile debits: %w", err)
		}
		still[id] = true
	}
	if err := q.Err(); err != nil {
		return fmt.Errorf("reconcile debits: %w", err)
	}
	var gone []string
	for _, id := range old {
		if !still[id] {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 && r.view != nil {
		if err := r.view.CatchUp(ctx); err != nil {
			return err
		}
	}
	r.forget(gone)
	return nil
}

// Pending counts the debits recorded by every process and not yet flushed
// (those of this process not spooled yet included).
func (r *Recorder) Pending(ctx context.Context) (int64, error) {
	var n int64
	err := r.store.DB().QueryRowContext(ctx, `SELECT count(*) FROM platform.gateway_pending_debits`).Scan(&n)
	return n + r.unspooledCount(), err
}

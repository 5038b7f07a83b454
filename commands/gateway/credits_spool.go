package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
)

// spoolChunk bounds the debits of one spooling transaction.
const spoolChunk = 1000

// spool moves the journaled debits into the ledger: it takes the queue
// and rotates the journal's segment in one step, appends the debits not
// debited before to this recorder's debit stream and indexes them (the
// flush's transaction, committed with its WAL flush; no pending row is
// written), and then removes the segments they were read from. When that
// transaction fails, the debits are committed as pending rows instead
// (the flusher retries them); when that fails too, the debits and
// segments are kept for the next spool, and the segments synced to disk
// (they may wait a while). Without a journal it does nothing.
func (r *Recorder) spool(ctx context.Context) (Flushed, error) {
	var out Flushed
	if r.journal == nil {
		return out, nil
	}
	r.spoolMu.Lock()
	defer r.spoolMu.Unlock()
	var batch []*pendingDebit
	seg, rerr := r.journal.Rotate(func() { batch, r.queue = r.queue, nil })
	if rerr != nil {
		r.cfg.Logger.Warn("gateway credits: rotating the debit journal failed", "err", rerr)
	}
	r.unspooled = append(r.unspooled, batch...)
	if seg != "" {
		r.segments = append(r.segments, seg)
	}
	for len(r.unspooled) > 0 {
		chunk := r.unspooled[:min(len(r.unspooled), spoolChunk)]
		rows := make([]pendingRow, len(chunk))
		for i, p := range chunk {
			rows[i] = pendingRow{id: p.d.RequestID, account: p.d.AccountID, amount: int64(p.d.AmountMicro), event: *p.d, own: true}
		}
		r.flushMu.Lock()
		f, err := r.moveLocked(ctx, rows, false, false)
		if errors.Is(err, errFlushRace) {
			// Some were debited before (a commit whose answer was lost, a
			// journal recovered twice): look them up this time.
			f, err = r.moveLocked(ctx, rows, false, true)
		}
		r.flushMu.Unlock()
		if err != nil {
			// The ledger's transaction failed: commit them as pending rows
			// instead (every process sees them; the flusher moves them).
			if perr := r.insertRows(ctx, chunk, true); perr != nil {
				r.syncSegments()
				return out, fmt.Errorf("spool debits: %w", errors.Join(err, perr))
			}
			r.kickFlush()
		}
		out.Appended += f.Appended
		out.Duplicates += f.Duplicates
		r.markSpooled(chunk)
		r.unspooled = r.unspooled[len(chunk):]
	}
	r.unspooled = nil
	for _, s := range r.segments {
		if err := os.Remove(s); err != nil && !os.IsNotExist(err) {
			r.cfg.Logger.Warn("gateway credits: removing a spooled journal segment failed", "segment", s, "err", err)
		}
	}
	r.segments = nil
	return out, nil
}

// kickFlush wakes the flusher.
func (r *Recorder) kickFlush() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// syncSegments writes the unspooled segments to stable storage.
func (r *Recorder) syncSegments() {
	for _, s := range r.segments {
		if f, err := os.Open(s); err == nil {
			_ = f.Sync()
			f.Close()
		}
	}
	r.journal.Sync()
}

// markSpooled notes that rows are committed in PostgreSQL (reconcile may
// now look for them there).
func (r *Recorder) markSpooled(rows []*pendingDebit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range rows {
		if d, ok := r.local[p.d.RequestID]; ok {
			d.spooled = true
			r.local[p.d.RequestID] = d
		}
	}
}

// journaled reports whether this recorder holds the debit of requestID
// and has not committed it in PostgreSQL yet.
func (r *Recorder) journaled(requestID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.local[requestID]
	return ok && !d.spooled
}

// unspooledCount is the debits this recorder journaled and has not
// committed in PostgreSQL yet.
func (r *Recorder) unspooledCount() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for _, d := range r.local {
		if !d.spooled {
			n++
		}
	}
	return n
}

// spoolLoop spools a SpoolInterval after a debit is journaled (gathering
// those journaled meanwhile), retrying a failed spool with a growing wait
// (up to 5 s), until ctx ends.
func (r *Recorder) spoolLoop(ctx context.Context) {
	wait := time.Duration(0)
	for {
		var retry <-chan time.Time
		if wait > 0 {
			retry = time.After(wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-r.spoolKick:
			select {
			case <-ctx.Done():
			case <-time.After(r.cfg.SpoolInterval):
			}
		case <-retry:
		}
		if _, err := r.spool(ctx); err != nil {
			if ctx.Err() == nil {
				r.cfg.Logger.Warn("gateway credits: spooling journaled debits failed; retrying", "err", err)
			}
			wait = min(max(2*wait, 100*time.Millisecond), 5*time.Second)
			continue
		}
		wait = 0
	}
}

// recoverJournals spools the journals of recorders that are gone (their
// lock is free: the process crashed or stopped before its last spool)
// into PostgreSQL as this recorder's pending rows, and removes them. A
// journal that cannot be spooled now is left for a later call.
func (r *Recorder) recoverJournals(ctx context.Context) error {
	if r.journal == nil {
		return nil
	}
	orphans, err := orphanJournals(r.cfg.JournalDir, r.cfg.Owner)
	if err != nil {
		return err
	}
	var firstErr error
	for _, o := range orphans {
		n, err := r.recoverJournal(ctx, o)
		if err != nil {
			o.release()
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if err := o.remove(); err != nil {
			r.cfg.Logger.Warn("gateway credits: removing a recovered debit journal failed", "journal", o.dir, "err", err)
		}
		if n > 0 {
			r.cfg.Logger.Info("gateway credits: recovered the debits of a stopped process's journal", "owner", o.name(), "debits", n)
			select {
			case r.kick <- struct{}{}:
			default:
			}
		}
	}
	return firstErr
}

func (r *Recorder) recoverJournal(ctx context.Context, o orphanJournal) (int, error) {
	lines, bad, err := o.lines()
	if err != nil {
		return 0, err
	}
	if bad > 0 {
		r.cfg.Logger.Warn("gateway credits: a debit journal ends in a cut line (left out)", "journal", o.dir, "lines", bad)
	}
	seen := map[string]bool{}
	var rows []*pendingDebit
	for _, l := range lines {
		d := &credits.Debited{}
		if err := json.Unmarshal(l, d); err != nil || d.RequestID == "" || d.AccountID == "" {
			r.cfg.Logger.Warn("gateway credits: an unreadable line in a debit journal (left out)", "journal", o.dir, "err", err)
			continue
		}
		if seen[d.RequestID] {
			continue
		}
		seen[d.RequestID] = true
		rows = append(rows, &pendingDebit{d: d, event: l})
	}
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), spoolChunk)]
		if err := r.insertRows(ctx, chunk, true); err != nil {
			return 0, fmt.Errorf("recover debit journal %s: %w", o.dir, err)
		}
		rows = rows[len(chunk):]
	}
	return len(seen), nil
}

// closeJournal spools what is left and, when all of it is in PostgreSQL,
// removes this recorder's journal directory; else it is left locked until
// the process ends, for the next recorder to recover.
func (r *Recorder) closeJournal(ctx context.Context) {
	if r.journal == nil {
		return
	}
	if _, err := r.spool(ctx); err != nil {
		r.cfg.Logger.Warn("gateway credits: debits left in the journal at shutdown (recovered at the next start)", "err", err)
		r.journal.close()
		return
	}
	r.journal.removeIfEmpty()
}

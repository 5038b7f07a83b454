package projections

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// WaitFor blocks until every named projector's checkpoint has passed key (the
// Last key of an append), or ctx ends. It reads the checkpoints from the
// database, so it also sees projectors run by another process; this runner's
// progress signal only wakes it early. Concurrent waiters share each read
// (see checkpoints). A timeout is a kernel unavailable error: the write is
// stored, its read model is late. So is an event that a parked stream holds
// (see Partitioned): the projectors passed it without applying it.
func (r *Runner) WaitFor(ctx context.Context, key eventstore.Key, names ...string) error {
	for {
		wake := r.progress.Wait()
		if r.passedHere(key, names) {
			return r.notHeld(ctx, key, names)
		}
		vals, err := r.checkpoints.fresh(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return kernel.Unavailable("read model is not up to date yet; retry shortly", ctx.Err())
			}
			return fmt.Errorf("wait for projectors: %w", err)
		}
		if passed(vals, key, names) {
			return r.notHeld(ctx, key, names)
		}
		select {
		case <-ctx.Done():
			return kernel.Unavailable("read model is not up to date yet; retry shortly", ctx.Err())
		case <-wake:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// notHeld returns an unavailable error when the event at key belongs to a
// stream that one of the named projectors has parked at or before it: the
// write is stored but will not show until an operator retries or skips.
// With no stream parked anywhere (the guard's copy) it costs nothing.
func (r *Runner) notHeld(ctx context.Context, key eventstore.Key, names []string) error {
	if !r.guard.Any() {
		return nil
	}
	var projector string
	err := r.db.QueryRowContext(ctx, `SELECT p.projector FROM es.events e
		JOIN es.parked_streams p ON p.stream_id = e.stream_id
		WHERE e.position = $1 AND p.projector = ANY($2)
		  AND (e.transaction_id, e.position) >= (p.transaction_id, p.position) LIMIT 1`, key.Position, names).Scan(&projector)
	switch {
	case errors.Is(err, stdsql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("wait for projectors: parked check: %w", err)
	}
	return kernel.Unavailable("the change was recorded, but this resource is paused: an earlier change to it could not be applied to the "+
		projector+" read model, so it shows once an operator retries or skips that change; other resources are not affected", nil)
}

// passedHere reports whether this runner's own projectors have committed
// past key (their batches' transactions have ended), which needs no query;
// a projector run by another process is only seen through es.checkpoints.
func (r *Runner) passedHere(key eventstore.Key, names []string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range names {
		s, ok := r.states[n]
		if !ok || s.Processed.Less(key) {
			return false
		}
	}
	return true
}

// passed reports whether every named group's checkpoint is at or past key.
func passed(vals map[string]eventstore.Key, key eventstore.Key, names []string) bool {
	for _, n := range names {
		cp, ok := vals[n]
		if !ok || cp.Less(key) {
			return false
		}
	}
	return true
}

// WaitFor is Runner.WaitFor for callers without a runner (progress may be nil).
func WaitFor(ctx context.Context, db *stdsql.DB, progress *Signal, key eventstore.Key, names ...string) error {
	for {
		var wake <-chan struct{}
		if progress != nil {
			wake = progress.Wait()
		}
		var behind int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM unnest($1::text[]) AS n(name)
			LEFT JOIN es.checkpoints c ON c.consumer_group = n.name
			WHERE c.consumer_group IS NULL
			   OR (c.last_processed_transaction_id, c.offset_acked) < ($2::text::xid8, $3::bigint)`,
			names, fmt.Sprint(key.TransactionID), key.Position).Scan(&behind)
		if err != nil {
			if ctx.Err() != nil {
				return kernel.Unavailable("read model is not up to date yet; retry shortly", ctx.Err())
			}
			return fmt.Errorf("wait for projectors: %w", err)
		}
		if behind == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return kernel.Unavailable("read model is not up to date yet; retry shortly", ctx.Err())
		case <-wake:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

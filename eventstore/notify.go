package eventstore

import (
	"context"
	"time"
)

// NotifyChannel is the PostgreSQL channel on which the store announces commits.
const NotifyChannel = "strata_events"

// RunNotifier announces commits until ctx ends: after every commit made
// through InTx (and so Append) it calls local (to wake this process's
// consumers at once) and sends pg_notify on NotifyChannel for consumers in
// other processes. Bursts coalesce: at most one notification is in flight,
// and a commit during it causes exactly one more. The notification is sent in
// its own transaction after the commit, because a transaction that notifies
// holds a database-wide lock until its commit is flushed, which would
// serialise every append. If the process dies between a commit and its
// notification, consumers find the events at their next poll.
func (s *Store) RunNotifier(ctx context.Context, local func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		}
		if local != nil {
			local()
		}
		nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, _ = s.db.ExecContext(nctx, `SELECT pg_notify('`+NotifyChannel+`', '')`)
		cancel()
	}
}

// committed records that a transaction with events committed. It never blocks.
func (s *Store) committed() {
	select {
	case s.kick <- struct{}{}:
	default: // a notification is already pending; it covers this commit too
	}
}

package eventstore

import (
	"context"
	stdsql "database/sql"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// NotifyChannel is the PostgreSQL channel on which the store announces commits.
const NotifyChannel = "strata_events"

// maxNotifyPayload bounds the type list a notification carries (PostgreSQL
// allows 8,000 bytes); a longer list is sent as "" (every type).
const maxNotifyPayload = 7000

// RunNotifier announces commits until ctx ends, as RunNotifierTypes, with a
// local callback that does not look at the types.
func (s *Store) RunNotifier(ctx context.Context, local func()) {
	var typed func([]string)
	if local != nil {
		typed = func([]string) { local() }
	}
	s.RunNotifierTypes(ctx, typed)
}

// RunNotifierTypes announces commits until ctx ends: after every commit made
// through InTx (and so Append) it calls local with the event types committed
// since the last announcement (nil when they are not known: wake every
// consumer), to wake this process's consumers at once, and sends pg_notify
// on NotifyChannel for consumers in other processes, with the types as a
// comma-separated payload ("" for every type). A consumer that handles none
// of the types need not read. Bursts coalesce: at most one notification is
// in flight, and a commit during it causes exactly one more, carrying every
// type committed meanwhile. The notification is sent in its own transaction
// after the commit, because a transaction that notifies holds a
// database-wide lock until its commit is flushed, which would serialise
// every append. If the process dies between a commit and its notification,
// consumers find the events at their next poll.
func (s *Store) RunNotifierTypes(ctx context.Context, local func(types []string)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		}
		types, all := s.notes.drain()
		if local != nil {
			if all {
				local(nil)
			} else {
				local(types)
			}
		}
		payload := strings.Join(types, ",")
		if all || len(payload) > maxNotifyPayload {
			payload = ""
		}
		nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, _ = s.db.ExecContext(nctx, `SELECT pg_notify('`+NotifyChannel+`', $1)`, payload)
		cancel()
	}
}

// committed records that a transaction with events of types committed (nil:
// types not known). It never blocks.
func (s *Store) committed(types []string) {
	s.notes.committed(types)
	select {
	case s.kick <- struct{}{}:
	default: // a notification is already pending; it covers this commit too
	}
}

// maxOpenNotes bounds the transactions whose appended types are kept.
const maxOpenNotes = 4096

// notes keeps the event types of open transactions (by transaction) and
// those committed but not yet announced.
type notes struct {
	mu      sync.Mutex
	open    map[*stdsql.Tx][]string
	pending map[string]struct{}
	all     bool
}

// add notes the types of events appended in tx.
func (n *notes) add(tx *stdsql.Tx, events []kernel.Event) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.open == nil || len(n.open) >= maxOpenNotes {
		// Appends in transactions InTx did not open (RunInTx, BeginTx) are
		// never taken: forget them all rather than grow. A transaction of
		// InTx whose types were forgotten wakes every consumer (nil).
		n.open = map[*stdsql.Tx][]string{}
	}
	for _, e := range events {
		n.open[tx] = append(n.open[tx], e.EventType())
	}
}

// take forgets tx and returns the types appended in it (nil: none noted).
func (n *notes) take(tx *stdsql.Tx) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	types := n.open[tx]
	delete(n.open, tx)
	return types
}

func (n *notes) committed(types []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(types) == 0 {
		n.all = true
		return
	}
	if n.pending == nil {
		n.pending = map[string]struct{}{}
	}
	for _, t := range types {
		n.pending[t] = struct{}{}
	}
}

// drain returns the committed types not yet announced (sorted) and whether
// some commit's types were unknown.
func (n *notes) drain() ([]string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	types := make([]string, 0, len(n.pending))
	for t := range n.pending {
		types = append(types, t)
	}
	all := n.all
	n.pending, n.all = nil, false
	slices.Sort(types)
	return types, all
}

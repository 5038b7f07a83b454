// Package eventstore is Strata's event store: one PostgreSQL table (es.events)
// is the source of truth; appends are version-checked, all-or-nothing, and
// published through a Watermill publisher bound to the append's transaction.
package eventstore

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/strata-platform/strata/domain/kernel"
)

// Expected-version values with a special meaning for Append.
const (
	// NoStream: the stream must not exist yet.
	NoStream int64 = 0
	// AnyVersion: append at the end, whatever the version (no concurrency check).
	AnyVersion int64 = -1
)

// Store appends and reads events. It is safe for concurrent use.
type Store struct {
	db     *stdsql.DB
	reg    *Registry
	clock  kernel.Clock
	ids    kernel.IDs
	logger watermill.LoggerAdapter
	kick   chan struct{}
	notes  notes        // event types committed since the last notification
	group  *groupCommit // nil: every Append is its own transaction
	guard  atomic.Pointer[func(streamID string) error]
}

// SetGuard installs a check that every append runs first, with the stream's
// id: an error refuses the append before anything is written. The runner's
// guard refuses appends to streams a projector has parked
// (projections.ParkedGuard), so commands on them answer 503. nil removes it.
func (s *Store) SetGuard(guard func(streamID string) error) {
	if guard == nil {
		s.guard.Store(nil)
		return
	}
	s.guard.Store(&guard)
}

func (s *Store) guarded(stream Stream) error {
	if g := s.guard.Load(); g != nil {
		return (*g)(stream.ID)
	}
	return nil
}

// New returns a store over db (opened with the pgx stdlib driver) using the
// sealed registry reg. Appends are grouped by default (see SetGroupCommit).
func New(db *stdsql.DB, reg *Registry, clock kernel.Clock, ids kernel.IDs) *Store {
	return &Store{db: db, reg: reg, clock: clock, ids: ids, logger: watermill.NopLogger{}, kick: make(chan struct{}, 1),
		group: &groupCommit{maxAppends: DefaultGroupAppends, maxEvents: DefaultGroupEvents, parallel: groupParallel()}}
}

// DB returns the store's database handle.
func (s *Store) DB() *stdsql.DB { return s.db }

// Registry returns the store's event registry.
func (s *Store) Registry() *Registry { return s.reg }

// Appended describes a successful append.
type Appended struct {
	Stream      Stream
	FromVersion int64 // version of the first appended event
	ToVersion   int64 // version of the last appended event: the stream's new version
	Last        Key   // consumption key of the last appended event
	EventIDs    []string
}

// Append appends events to stream if it is at expected (NoStream, a version,
// or AnyVersion), in one transaction: either every event is stored and
// published, or none is. A version clash returns a kernel conflict error.
// Metadata comes from the context (WithMetadata).
//
// Concurrent appends to different streams at an explicit expected version
// share a transaction (group commit, see SetGroupCommit); each keeps its own
// outcome, and a caller whose context ends while it waits still gets the
// true outcome of its append.
func (s *Store) Append(ctx context.Context, stream Stream, expected int64, events ...kernel.Event) (Appended, error) {
	if !s.group.groupable(expected, len(events)) {
		return s.appendAlone(ctx, stream, expected, events...)
	}
	if err := checkAppend(stream, events); err != nil {
		return Appended{}, err
	}
	if err := s.guarded(stream); err != nil {
		return Appended{}, err
	}
	rows, msgs, err := s.encode(ctx, stream, events)
	if err != nil {
		return Appended{}, err
	}
	return s.submit(&pendingAppend{ctx: ctx, stream: stream, expected: expected, events: events,
		rows: rows, msgs: msgs, done: make(chan []*pendingAppend, 1)})
}

// appendAlone appends in a transaction of its own.
func (s *Store) appendAlone(ctx context.Context, stream Stream, expected int64, events ...kernel.Event) (Appended, error) {
	var out Appended
	err := s.InTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		out, err = s.AppendTx(ctx, tx, stream, expected, events...)
		return err
	})
	return out, err
}

// InTx runs fn in a READ COMMITTED transaction and commits it when fn returns
// nil; otherwise it rolls back and returns fn's error. After a commit it
// wakes the consumers (see RunNotifier): commands that append inside their
// own transaction should use InTx for that reason.
func (s *Store) InTx(ctx context.Context, fn func(tx *stdsql.Tx) error) error {
	return s.announced(func(wrap func(tx *stdsql.Tx) error) error {
		return RunInTx(ctx, s.db, nil, wrap)
	}, fn)
}

// InConnTx is InTx on a connection the caller holds (one that holds a
// session lock, say) with the caller's options (nil: READ COMMITTED).
func (s *Store) InConnTx(ctx context.Context, conn *stdsql.Conn, opts *stdsql.TxOptions, fn func(tx *stdsql.Tx) error) error {
	return s.announced(func(wrap func(tx *stdsql.Tx) error) error {
		tx, err := conn.BeginTx(ctx, opts)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		return finishTx(tx, wrap(tx))
	}, fn)
}

// announced runs fn through run and, after a commit, wakes the consumers
// for the event types fn appended.
func (s *Store) announced(run func(wrap func(tx *stdsql.Tx) error) error, fn func(tx *stdsql.Tx) error) error {
	var txp *stdsql.Tx
	err := run(func(tx *stdsql.Tx) error {
		txp = tx
		return fn(tx)
	})
	types := s.notes.take(txp)
	if err != nil {
		return err
	}
	s.committed(types)
	return nil
}

// RunInTx runs fn in a transaction of db with opts (nil: READ COMMITTED) and
// commits it when fn returns nil; otherwise it rolls back and returns fn's
// error. It announces nothing: appends go through Store.InTx.
func RunInTx(ctx context.Context, db *stdsql.DB, opts *stdsql.TxOptions, fn func(tx *stdsql.Tx) error) error {
	tx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	return finishTx(tx, fn(tx))
}

// finishTx commits tx when err is nil and rolls it back otherwise.
func finishTx(tx *stdsql.Tx, err error) error {
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// AppendTx appends inside the caller's transaction, so a command can claim
// unique values or append to several streams atomically. Its first write must
// be this call's version check (the transaction id then follows the stream's
// version order): claim unique values after appending, not before.
func (s *Store) AppendTx(ctx context.Context, tx *stdsql.Tx, stream Stream, expected int64, events ...kernel.Event) (Appended, error) {
	if err := checkAppend(stream, events); err != nil {
		return Appended{}, err
	}
	if err := s.guarded(stream); err != nil {
		return Appended{}, err
	}
	rows, msgs, err := s.encode(ctx, stream, events)
	if err != nil {
		return Appended{}, err
	}
	s.notes.add(tx, events)
	newVersion, txid, first, err := s.reserve(ctx, tx, stream, expected, len(events))
	if err != nil {
		return Appended{}, err
	}
	from := newVersion - int64(len(events)) + 1
	for i := range rows.versions {
		rows.versions[i] = from + int64(i)
	}
	if first > 0 {
		rows.positions = []int64{first}
	}
	out := Appended{Stream: stream, FromVersion: from, ToVersion: newVersion, EventIDs: rows.ulids,
		Last: Key{TransactionID: txid, Position: first}}
	pub, err := wsql.NewPublisher(tx, wsql.PublisherConfig{SchemaAdapter: SchemaAdapter{rows: rows}}, s.logger)
	if err != nil {
		return Appended{}, fmt.Errorf("append %s: publisher: %w", stream.ID, err)
	}
	if err := pub.Publish(Topic, msgs...); err != nil {
		if isUniqueViolation(err) {
			return Appended{}, kernel.Conflict(fmt.Sprintf("stream %s was changed concurrently", stream.ID), err)
		}
		return Appended{}, fmt.Errorf("append %s: %w", stream.ID, err)
	}
	if first == 0 { // the column default drew the positions, in row order
		if err := tx.QueryRowContext(ctx, `SELECT currval('es.events_position_seq')`).Scan(&out.Last.Position); err != nil {
			return Appended{}, fmt.Errorf("append %s: last position: %w", stream.ID, err)
		}
	}
	return out, nil
}

// checkAppend refuses an append with no events or no stream.
func checkAppend(stream Stream, events []kernel.Event) error {
	if len(events) == 0 {
		return kernel.Invalid("events", "min:1", "an append needs at least one event")
	}
	if stream.ID == "" || stream.Type == "" {
		return kernel.Invalid("stream", "required", "stream type and id are required")
	}
	return nil
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// Package eventstore is Strata's event store: one PostgreSQL table (es.events)
// is the source of truth; appends are version-checked, all-or-nothing, and
// published through a Watermill publisher bound to the append's transaction.
package eventstore

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
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
}

// New returns a store over db (opened with the pgx stdlib driver) using the
// sealed registry reg.
func New(db *stdsql.DB, reg *Registry, clock kernel.Clock, ids kernel.IDs) *Store {
	return &Store{db: db, reg: reg, clock: clock, ids: ids, logger: watermill.NopLogger{}, kick: make(chan struct{}, 1)}
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
func (s *Store) Append(ctx context.Context, stream Stream, expected int64, events ...kernel.Event) (Appended, error) {
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
func (s *Store) InTx(ctx context.Context, fn func(tx *stdsql.Tx) error) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	s.committed()
	return nil
}

// AppendTx appends inside the caller's transaction, so a command can claim
// unique values or append to several streams atomically. Its first write must
// be this call's version check (the transaction id then follows the stream's
// version order): claim unique values after appending, not before.
func (s *Store) AppendTx(ctx context.Context, tx *stdsql.Tx, stream Stream, expected int64, events ...kernel.Event) (Appended, error) {
	if len(events) == 0 {
		return Appended{}, kernel.Invalid("events", "min:1", "an append needs at least one event")
	}
	if stream.ID == "" || stream.Type == "" {
		return Appended{}, kernel.Invalid("stream", "required", "stream type and id are required")
	}
	msgs, err := s.messages(ctx, stream, events)
	if err != nil {
		return Appended{}, err
	}
	newVersion, txid, positions, err := s.reserve(ctx, tx, stream, expected, len(events))
	if err != nil {
		return Appended{}, err
	}
	from := newVersion - int64(len(events)) + 1
	out := Appended{Stream: stream, FromVersion: from, ToVersion: newVersion, EventIDs: make([]string, len(msgs))}
	for i, m := range msgs {
		m.Metadata.Set(mdPosition, strconv.FormatInt(positions[i], 10))
		m.Metadata.Set(mdStreamVersion, strconv.FormatInt(from+int64(i), 10))
		out.EventIDs[i] = m.UUID
	}
	out.Last = Key{TransactionID: txid, Position: positions[len(positions)-1]}
	pub, err := wsql.NewPublisher(tx, wsql.PublisherConfig{SchemaAdapter: SchemaAdapter{}}, s.logger)
	if err != nil {
		return Appended{}, fmt.Errorf("append %s: publisher: %w", stream.ID, err)
	}
	if err := pub.Publish(Topic, msgs...); err != nil {
		if isUniqueViolation(err) {
			return Appended{}, kernel.Conflict(fmt.Sprintf("stream %s was changed concurrently", stream.ID), err)
		}
		return Appended{}, fmt.Errorf("append %s: %w", stream.ID, err)
	}
	return out, nil
}

// messages encodes events as Watermill messages (without position and version).
func (s *Store) messages(ctx context.Context, stream Stream, events []kernel.Event) ([]*message.Message, error) {
	md, err := json.Marshal(MetadataFrom(ctx))
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	now := s.clock.Now()
	msgs := make([]*message.Message, len(events))
	for i, ev := range events {
		name := ev.EventType()
		version, ok := s.reg.Version(name)
		if !ok {
			return nil, fmt.Errorf("append %s: event type %q is not registered", stream.ID, name)
		}
		payload, err := json.Marshal(ev)
		if err != nil {
			return nil, fmt.Errorf("append %s: encode %s: %w", stream.ID, name, err)
		}
		at := now
		if d, ok := ev.(kernel.Dated); ok && !d.OccurredAt().IsZero() {
			at = d.OccurredAt()
		}
		m := message.NewMessage(s.ids.NewID(), payload)
		m.Metadata = message.Metadata{
			mdStreamType:    stream.Type,
			mdStreamID:      stream.ID,
			mdEventType:     name,
			mdSchemaVersion: strconv.Itoa(version),
			mdOccurredAt:    at.UTC().Format(time.RFC3339Nano),
			mdEventMetadata: string(md),
		}
		msgs[i] = m
	}
	return msgs, nil
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

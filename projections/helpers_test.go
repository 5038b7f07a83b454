package projections_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type ticked struct {
	N int `json:"n"`
}

func (ticked) EventType() string { return "test.ticked" }

type ignored struct{}

func (ignored) EventType() string { return "test.ignored" }

// counter is a deliberately non-idempotent projector: applying an event twice,
// skipping one or applying a stream out of order shows in its tables.
type counter struct {
	name string
	// failAt makes Apply fail once per listed position (transient failures).
	failAt map[int64]*atomic.Bool
	// onApply is called before each Apply (to stop a runner mid-batch).
	onApply func(e eventstore.Envelope)
}

func (c *counter) Name() string      { return c.name }
func (c *counter) Handles() []string { return []string{"test.ticked"} }

func (c *counter) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	if c.onApply != nil {
		c.onApply(e)
	}
	var last int64
	err := tx.QueryRowContext(ctx, `SELECT last_version FROM per_stream WHERE stream_id = $1`, e.StreamID).Scan(&last)
	if err != nil && err != stdsql.ErrNoRows {
		return err
	}
	if e.StreamVersion <= last { // a repeat, or a stream seen out of order
		if _, err := tx.ExecContext(ctx, `INSERT INTO violations (stream_id, got, want) VALUES ($1, $2, $3)`, e.StreamID, e.StreamVersion, last+1); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO per_stream (stream_id, events, last_version, total)
		VALUES ($1, 1, $2, $3)
		ON CONFLICT (stream_id) DO UPDATE SET events = per_stream.events + 1, last_version = $2, total = per_stream.total + $3`,
		e.StreamID, e.StreamVersion, e.Event.(*ticked).N)
	if err != nil {
		return err
	}
	if f, ok := c.failAt[e.Position]; ok && f.CompareAndSwap(false, true) {
		return fmt.Errorf("injected failure at %d", e.Position)
	}
	return nil
}

// createSchema creates the projector's read-model tables (a migration would in production).
func createSchema(t *testing.T, db *stdsql.DB, name string) {
	t.Helper()
	s := projections.SchemaName(name)
	_, err := db.Exec(fmt.Sprintf(`CREATE SCHEMA %[1]s;
		CREATE TABLE %[1]s.per_stream (stream_id text PRIMARY KEY, events int NOT NULL, last_version bigint NOT NULL, total bigint NOT NULL);
		CREATE TABLE %[1]s.violations (stream_id text NOT NULL, got bigint NOT NULL, want bigint NOT NULL)`, s))
	if err != nil {
		t.Fatal(err)
	}
}

func newRegistry(t *testing.T) *eventstore.Registry {
	t.Helper()
	reg := eventstore.NewRegistry()
	if err := reg.Register(
		eventstore.EventDef{Name: "test.ticked", Version: 1, New: func() kernel.Event { return &ticked{} }},
		eventstore.EventDef{Name: "test.ignored", Version: 1, New: func() kernel.Event { return &ignored{} }},
	); err != nil {
		t.Fatal(err)
	}
	for _, c := range projections.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	return reg
}

type env struct {
	db    *pgtest.Database
	reg   *eventstore.Registry
	store *eventstore.Store
	wake  *projections.Signal
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := pgtest.DB(t)
	reg := newRegistry(t)
	clock := kernel.SystemClock{}
	e := &env{db: db, reg: reg, store: eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock)), wake: projections.NewSignal()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	notifier := make(chan struct{})
	go func() { defer close(done); projections.Listen(ctx, db.URL, e.wake, quietLogger()) }()
	go func() { defer close(notifier); e.store.RunNotifier(ctx, nil) }()
	t.Cleanup(func() { cancel(); <-done; <-notifier })
	return e
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start runs a runner until the returned stop function is called.
func (e *env) start(t *testing.T, cfg projections.Config, ps ...projections.Projector) (*projections.Runner, func()) {
	t.Helper()
	r, err := projections.NewRunner(e.db.SQL, e.reg, e.wake, quietLogger(), cfg, ps...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return r, stop
}

// caughtUp waits until every named projector has passed the store's last event.
func (e *env) caughtUp(t *testing.T, names ...string) {
	t.Helper()
	var tx, pos int64
	if err := e.db.SQL.QueryRow(`SELECT transaction_id::text::bigint, position FROM es.events ORDER BY transaction_id DESC, position DESC LIMIT 1`).Scan(&tx, &pos); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := projections.WaitFor(ctx, e.db.SQL, nil, eventstore.Key{TransactionID: uint64(tx), Position: pos}, names...); err != nil {
		st, _ := projections.ReadStatus(context.Background(), e.db.SQL, names)
		t.Fatalf("projectors did not catch up: %v; status %+v", err, st)
	}
}

// checksum fingerprints every table of a projector's schema.
func checksum(t *testing.T, db *stdsql.DB, name string) string {
	t.Helper()
	s := projections.SchemaName(name)
	rows, err := db.Query(`SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, s)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var tn string
		if err := rows.Scan(&tn); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tn)
	}
	rows.Close()
	var parts []string
	for _, tn := range tables {
		var sum string
		q := fmt.Sprintf(`SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM %s.%s t`, s, tn)
		if err := db.QueryRow(q).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, tn+"="+sum)
	}
	return strings.Join(parts, ",")
}

func violations(t *testing.T, db *stdsql.DB, name string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + projections.SchemaName(name) + `.violations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// workload appends n events of test.ticked (and some ignored ones) over streams.
func (e *env) workload(t *testing.T, prefix string, streams, perStream int) {
	t.Helper()
	ctx := context.Background()
	for s := range streams {
		id := fmt.Sprintf("%s-%d", prefix, s)
		for v := 0; v < perStream; v += 2 {
			if _, err := e.store.Append(ctx, eventstore.Stream{Type: "test.counter", ID: id}, eventstore.AnyVersion,
				ticked{N: v + s}, ignored{}, ticked{N: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// exactlyOnce checks that the projector counted every test.ticked event of
// every stream exactly once.
func exactlyOnce(t *testing.T, db *stdsql.DB, name string) {
	t.Helper()
	exactlyOnceUpTo(t, db, name, 1<<62)
}

// exactlyOnceUpTo checks the counts against the events up to a checkpoint
// position (consumption order is position order in a serial workload).
func exactlyOnceUpTo(t *testing.T, db *stdsql.DB, name string, upTo int64) {
	t.Helper()
	var wrong int
	q := `SELECT count(*) FROM (SELECT stream_id, count(*) AS n, sum((payload->>'n')::bigint) AS total FROM es.events
		WHERE event_type = 'test.ticked' AND position <= $1 GROUP BY stream_id) want
		FULL JOIN ` + projections.SchemaName(name) + `.per_stream got USING (stream_id)
		WHERE got.events IS DISTINCT FROM want.n OR got.total IS DISTINCT FROM want.total`
	if err := db.QueryRow(q, upTo).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Fatalf("%s: %d streams counted wrongly (an event skipped or applied twice)", name, wrong)
	}
	if n := violations(t, db, name); n != 0 {
		t.Fatalf("%s: %d events seen out of stream order or repeated", name, n)
	}
}

// batchCounter is the counter applied a batch at a time: the live runner
// buffers a batch's events and calls ApplyBatch before the batch commits.
type batchCounter struct {
	*counter
	batches atomic.Int64
}

func (b *batchCounter) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	b.batches.Add(1)
	for _, e := range events {
		if err := b.counter.Apply(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

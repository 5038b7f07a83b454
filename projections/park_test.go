package projections_test

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// poisonN is the tick value the partitioned counter cannot apply (until cured).
const poisonN = 666

// partitioned is the counter as a Partitioned projector that fails, with a
// PostgreSQL data error, on every event whose value is poisonN.
type partitioned struct {
	*counter
	cured atomic.Bool
}

func (p *partitioned) PartitionedByStream() {}

func (p *partitioned) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	if e.Event.(*ticked).N == poisonN && !p.cured.Load() {
		var x int
		return tx.QueryRowContext(ctx, `SELECT 1 / 0`).Scan(&x) // 22012 division_by_zero, as a bad value would
	}
	return p.counter.Apply(ctx, tx, e)
}

// partitionedBatch applies a batch at a time, so a failure names no event.
type partitionedBatch struct{ *partitioned }

func (b partitionedBatch) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	for _, e := range events {
		if err := b.partitioned.Apply(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

func tick(t *testing.T, e *env, stream string, ns ...int) {
	t.Helper()
	for _, n := range ns {
		if _, err := e.store.Append(context.Background(), eventstore.Stream{Type: "test.counter", ID: stream}, eventstore.AnyVersion, ticked{N: n}); err != nil {
			t.Fatalf("append to %s: %v", stream, err)
		}
	}
}

// counted returns how many events the projector applied for stream.
func counted(t *testing.T, db *stdsql.DB, name, stream string) int {
	t.Helper()
	var n int
	err := db.QueryRow(`SELECT events FROM `+projections.SchemaName(name)+`.per_stream WHERE stream_id = $1`, stream).Scan(&n)
	if err != nil && !errors.Is(err, stdsql.ErrNoRows) {
		t.Fatal(err)
	}
	return n
}

func waitCounted(t *testing.T, db *stdsql.DB, name, stream string, want int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if counted(t, db, name, stream) == want {
			return
		}
	}
	t.Fatalf("%s: stream %s has %d events applied, want %d", name, stream, counted(t, db, name, stream), want)
}

func waitParked(t *testing.T, db *stdsql.DB, name string, want int) []projections.Parked {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ps, err := projections.ListParked(context.Background(), db, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == want {
			return ps
		}
	}
	t.Fatalf("%s: parked streams never became %d", name, want)
	return nil
}

// TestPoisonEventParksOnlyItsStream: one stream's event that cannot be
// applied parks that stream (its later events wait, in order); every other
// stream is applied, appends to the parked stream are refused as
// unavailable, the projector is not reported failing, and a retry after the
// cause is fixed applies the held events in order and releases the stream.
func TestPoisonEventParksOnlyItsStream(t *testing.T) {
	t.Parallel()
	for _, batched := range []bool{false, true} {
		t.Run(fmt.Sprintf("batched=%v", batched), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			name := fmt.Sprintf("test.parking_%v.v1", batched)
			createSchema(t, e.db.SQL, name)
			pc := &partitioned{counter: &counter{name: name}}
			var p projections.Projector = pc
			if batched {
				p = partitionedBatch{pc}
			}
			r, stop := e.start(t, projections.Config{BatchSize: 50, RetryMin: 20 * time.Millisecond}, p)
			defer stop()
			e.store.SetGuard(r.Guard().Check)

			tick(t, e, "good-1", 1, 2)
			tick(t, e, "sick", 1, 2, poisonN, 4, 5)
			tick(t, e, "good-2", 1, 2, 3)
			waitCounted(t, e.db.SQL, name, "good-1", 2)
			waitCounted(t, e.db.SQL, name, "good-2", 3)
			ps := waitParked(t, e.db.SQL, name, 1)
			if ps[0].StreamID != "sick" || ps[0].EventType != "test.ticked" || !strings.Contains(ps[0].Error, "division by zero") {
				t.Fatalf("parked = %+v", ps[0])
			}
			if n := counted(t, e.db.SQL, name, "sick"); n != 2 {
				t.Fatalf("sick stream applied %d events before its poison, want 2", n)
			}
			// Other streams keep being applied after the park.
			tick(t, e, "good-1", 3)
			waitCounted(t, e.db.SQL, name, "good-1", 3)
			if stalled := r.Stalled(); len(stalled) != 0 {
				t.Fatalf("projector reported stalled %v: a parked stream must not stop it", stalled)
			}
			if got := r.Guard().Count()[name]; got != 1 {
				t.Fatalf("guard counts %d parked streams, want 1", got)
			}
			_, err := e.store.Append(context.Background(), eventstore.Stream{Type: "test.counter", ID: "sick"}, eventstore.AnyVersion, ticked{N: 6})
			if !errors.Is(err, kernel.ErrUnavailable) {
				t.Fatalf("append to the parked stream: %v, want unavailable", err)
			}

			// The operator fixes the cause and retries: the held events apply in order.
			e.caughtUp(t, name)
			pc.cured.Store(true)
			res, err := projections.Retry(context.Background(), e.store, p, "sick")
			if err != nil {
				t.Fatal(err)
			}
			if res.Parked != nil || res.Applied != 3 {
				t.Fatalf("retry = %+v, want 3 applied and released", res)
			}
			if err := r.Guard().Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
			tick(t, e, "sick", 6)
			e.caughtUp(t, name)
			exactlyOnce(t, e.db.SQL, name)
		})
	}
}

// TestSkipRecordsWhoAndGoesOn: skipping the parked event records who skipped
// what as an event, applies the stream's later events, and a rebuild leaves
// the skipped event out as the live run did.
func TestSkipRecordsWhoAndGoesOn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name := "test.skipping.v1"
	createSchema(t, e.db.SQL, name)
	p := &partitioned{counter: &counter{name: name}}
	r, stop := e.start(t, projections.Config{BatchSize: 50, RetryMin: 20 * time.Millisecond}, p)
	defer stop()
	e.store.SetGuard(r.Guard().Check)
	tick(t, e, "sick", 1, poisonN, 3)
	tick(t, e, "good", 1)
	ps := waitParked(t, e.db.SQL, name, 1)
	e.caughtUp(t, name) // the held events are behind the checkpoint

	// A retry without a fix leaves it parked where it was, counting the try.
	res, err := projections.Retry(context.Background(), e.store, p, "sick")
	if err != nil {
		t.Fatal(err)
	}
	if res.Parked == nil || res.Parked.EventID != ps[0].EventID || res.Parked.Retries != 1 {
		t.Fatalf("retry without a fix = %+v", res)
	}
	rec, res, err := projections.Skip(context.Background(), e.store, p, "sick", "ops@example.com", "bad import")
	if err != nil {
		t.Fatal(err)
	}
	if res.Parked != nil || res.Applied != 1 || rec.EventID != ps[0].EventID {
		t.Fatalf("skip = %+v, %+v", rec, res)
	}
	ops, err := e.store.Load(context.Background(), projections.OpsStream(name).ID, eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 1 || ops[0].Type != projections.EventSkippedType || ops[0].Metadata.Actor != "ops@example.com" {
		t.Fatalf("ops stream = %+v", ops)
	}
	if got := ops[0].Event.(*projections.EventSkipped); got.Reason != "bad import" || got.EventID != ps[0].EventID || got.Actor != "ops@example.com" {
		t.Fatalf("skip event = %+v", got)
	}
	if _, err := projections.Retry(context.Background(), e.store, p, "sick"); !errors.Is(err, projections.ErrNotParked) {
		t.Fatalf("retry of a released stream: %v, want ErrNotParked", err)
	}
	if err := r.Guard().Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	tick(t, e, "sick", 4)
	e.caughtUp(t, name)
	if n := counted(t, e.db.SQL, name, "sick"); n != 3 {
		t.Fatalf("sick stream applied %d events, want 3 (the skipped one left out)", n)
	}
	live := checksum(t, e.db.SQL, name)
	rb := projections.Rebuilder{DB: e.db.SQL, Registry: e.reg, BatchSize: 2}
	if _, err := rb.Rebuild(context.Background(), p); err != nil {
		t.Fatalf("rebuild with a skipped event: %v", err)
	}
	if got := checksum(t, e.db.SQL, name); got != live {
		t.Fatalf("rebuild differs from live:\n live %s\n rebuilt %s", live, got)
	}
}

// envelopeCounter counts events per stream from their envelopes only.
type envelopeCounter struct{ name string }

func (c envelopeCounter) Name() string      { return c.name }
func (c envelopeCounter) Handles() []string { return []string{"test.ticked"} }
func (c envelopeCounter) EnvelopeOnly()     {}
func (c envelopeCounter) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	if e.Event != nil || e.Payload != nil {
		return fmt.Errorf("an envelope-only projector was shipped a payload")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO per_stream (stream_id, events, last_version, total) VALUES ($1, 1, $2, 0)
		ON CONFLICT (stream_id) DO UPDATE SET events = per_stream.events + 1, last_version = $2`, e.StreamID, e.StreamVersion)
	return err
}

// TestUndecodablePayloadParksOrIsNotRead: an event whose payload no longer
// decodes (written below every check) parks its stream for a partitioned
// projector, and an envelope-only projector (the store's catalog) counts it
// without reading its payload, so neither stops.
func TestUndecodablePayloadParksOrIsNotRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	part, env := "test.decode_parking.v1", "test.decode_envelope.v1"
	createSchema(t, e.db.SQL, part)
	createSchema(t, e.db.SQL, env)
	_, stop := e.start(t, projections.Config{BatchSize: 50, RetryMin: 20 * time.Millisecond},
		&partitioned{counter: &counter{name: part}}, envelopeCounter{name: env})
	defer stop()
	tick(t, e, "fine", 1)
	if _, err := e.db.SQL.Exec(`INSERT INTO es.events (event_id, stream_type, stream_id, stream_version, event_type, schema_version, payload, metadata, occurred_at)
		VALUES (gen_random_uuid(), 'test.counter', 'broken', 1, 'test.ticked', 1, '{"n": "not a number"}', '{}', now()),
		       (gen_random_uuid(), 'test.counter', 'broken', 2, 'test.ticked', 1, '{"n": 7}', '{}', now())`); err != nil {
		t.Fatal(err)
	}
	tick(t, e, "fine", 2)
	e.caughtUp(t, part, env)
	ps := waitParked(t, e.db.SQL, part, 1)
	if ps[0].StreamID != "broken" || !strings.Contains(ps[0].Error, "decode") {
		t.Fatalf("parked = %+v", ps[0])
	}
	if n := counted(t, e.db.SQL, part, "fine"); n != 2 {
		t.Fatalf("the partitioned projector applied %d events of the fine stream, want 2", n)
	}
	if n := counted(t, e.db.SQL, env, "broken"); n != 2 {
		t.Fatalf("the envelope-only projector counted %d events of the broken stream, want 2", n)
	}
	st, err := projections.ReadStatus(context.Background(), e.db.SQL, []string{part, env})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.State == projections.StateFailing {
			t.Fatalf("%s is failing: %s", s.Name, s.LastError)
		}
	}
	// A retry gets past nothing; a skip goes on after the undecodable event.
	p := &partitioned{counter: &counter{name: part}}
	if res, err := projections.Retry(context.Background(), e.store, p, "broken"); err != nil || res.Parked == nil {
		t.Fatalf("retry of an undecodable event: %+v, %v; want still parked", res, err)
	}
	if _, res, err := projections.Skip(context.Background(), e.store, p, "broken", "ops", "a hand-written row"); err != nil || res.Parked != nil || res.Applied != 1 {
		t.Fatalf("skip: %+v, %v; want the next event applied and the stream released", res, err)
	}
	if n := counted(t, e.db.SQL, part, "broken"); n != 1 {
		t.Fatalf("after the skip the broken stream has %d events applied, want 1", n)
	}
	rb := projections.Rebuilder{DB: e.db.SQL, Registry: e.reg}
	if _, err := rb.Rebuild(context.Background(), p); err != nil {
		t.Fatalf("rebuild past a skipped undecodable event: %v", err)
	}
	if _, err := rb.Rebuild(context.Background(), envelopeCounter{name: env}); err != nil {
		t.Fatalf("rebuild of the envelope-only projector: %v", err)
	}
}

// TestRecoversWhenAnotherProcessAppliedTheEvent: a projector that failed at
// an event in one process reports running again once that event is applied
// by the same projector in another process, without waiting for a new event
// (a process whose peer did the work used to stay "failing").
func TestRecoversWhenAnotherProcessAppliedTheEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	name := "test.two_processes.v1"
	createSchema(t, e.db.SQL, name)
	e.workload(t, "two", 3, 4)
	var target int64
	if err := e.db.SQL.QueryRow(`SELECT min(position) FROM es.events WHERE event_type = 'test.ticked'`).Scan(&target); err != nil {
		t.Fatal(err)
	}
	failing := &counter{name: name, failAt: map[int64]*atomic.Bool{target: {}}}
	// Process A fails once at the first event and then waits its backoff.
	a, stopA := e.start(t, projections.Config{RetryMin: 3 * time.Second}, failing)
	defer stopA()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && len(a.Stalled()) == 0; time.Sleep(5 * time.Millisecond) {
	}
	if len(a.Stalled()) != 1 {
		t.Fatal("process A never failed")
	}
	// Process B applies everything meanwhile.
	_, stopB := e.start(t, projections.Config{}, &counter{name: name})
	e.caughtUp(t, name)
	stopB()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && len(a.Stalled()) != 0; time.Sleep(20 * time.Millisecond) {
	}
	if s := a.Stalled(); len(s) != 0 {
		t.Fatalf("process A still reports %v failing after process B applied the event", s)
	}
	exactlyOnce(t, e.db.SQL, name)
}

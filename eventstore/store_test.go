package eventstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type noted struct {
	Text string    `json:"text"`
	At   time.Time `json:"at,omitzero"`
}

func (noted) EventType() string       { return "test.noted" }
func (n noted) OccurredAt() time.Time { return n.At }

func newStore(t *testing.T) *eventstore.Store {
	t.Helper()
	return newStoreFor(t, pgtest.DB(t))
}

func newStoreFor(t testing.TB, db *pgtest.Database) *eventstore.Store {
	t.Helper()
	reg := eventstore.NewRegistry()
	if err := reg.Register(eventstore.EventDef{Name: "test.noted", Version: 1, New: func() kernel.Event { return &noted{} }}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	return eventstore.New(db.SQL, reg, kernel.SystemClock{}, eventstore.NewULIDs(kernel.SystemClock{}))
}

// Test 1: 50 goroutines append to one stream at the same expected version:
// exactly one succeeds, the others get the conflict error, no gap.
func TestConcurrentAppendsAtSameVersionOneWins(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	stream := eventstore.Stream{Type: "test.note", ID: "note-1"}
	if _, err := s.Append(ctx, stream, eventstore.NoStream, noted{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	const writers = 50
	var wg sync.WaitGroup
	errs := make([]error, writers)
	start := make(chan struct{})
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = s.Append(ctx, stream, 1, noted{Text: fmt.Sprint("writer ", i)}, noted{Text: "second event"})
		}()
	}
	close(start)
	wg.Wait()
	wins := 0
	for i, err := range errs {
		switch {
		case err == nil:
			wins++
		case errors.Is(err, kernel.ErrConflict):
		default:
			t.Errorf("writer %d: want conflict, got %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d writers succeeded, want exactly 1", wins)
	}
	events, err := s.Load(ctx, stream.ID, eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 {
		t.Fatalf("stream has %d events, want 3", len(events))
	}
	for i, e := range events {
		if e.StreamVersion != int64(i+1) {
			t.Fatalf("event %d has version %d: gap or disorder", i, e.StreamVersion)
		}
	}
}

func TestAppendVersionRules(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	stream := eventstore.Stream{Type: "test.note", ID: "note-rules"}
	cases := []struct {
		name     string
		stream   eventstore.Stream
		expected int64
		wantErr  error
		version  int64
	}{
		{"expected version on a missing stream", stream, 3, kernel.ErrConflict, 0},
		{"create", stream, eventstore.NoStream, nil, 1},
		{"create twice", stream, eventstore.NoStream, kernel.ErrConflict, 1},
		{"stale version", eventstore.Stream{Type: stream.Type, ID: stream.ID}, 5, kernel.ErrConflict, 1},
		{"wrong stream type", eventstore.Stream{Type: "other", ID: stream.ID}, 1, kernel.ErrConflict, 1},
		{"right version", stream, 1, nil, 2},
		{"any version", stream, eventstore.AnyVersion, nil, 3},
		{"invalid expected", stream, -7, kernel.ErrInvalid, 3},
	}
	for _, c := range cases {
		_, err := s.Append(ctx, c.stream, c.expected, noted{Text: c.name})
		if c.wantErr == nil && err != nil || c.wantErr != nil && !errors.Is(err, c.wantErr) {
			t.Fatalf("%s: err = %v, want %v", c.name, err, c.wantErr)
		}
		v, err := s.Version(ctx, stream.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v != c.version {
			t.Fatalf("%s: version = %d, want %d", c.name, v, c.version)
		}
	}
	all, err := s.Load(ctx, stream.ID, eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Fatalf("%d events stored, want 3: a failed append left something behind", len(all))
	}
}

func TestAppendIsAllOrNothing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	stream := eventstore.Stream{Type: "test.note", ID: "atomic"}
	_, err := s.Append(ctx, stream, eventstore.NoStream, noted{Text: "ok"}, unregistered{})
	if err == nil {
		t.Fatal("append with an unregistered event type succeeded")
	}
	if v, _ := s.Version(ctx, stream.ID); v != 0 {
		t.Fatalf("stream version %d after a failed append, want 0", v)
	}
}

type unregistered struct{}

func (unregistered) EventType() string { return "test.unregistered" }

func TestLoadTemporalBounds(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	stream := eventstore.Stream{Type: "test.note", ID: "temporal"}
	jan := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mar := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Append(ctx, stream, eventstore.NoStream, noted{Text: "jan", At: jan}, noted{Text: "mar", At: mar}); err != nil {
		t.Fatal(err)
	}
	first, err := s.Load(ctx, stream.ID, eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	knownAt := first[1].RecordedAt
	time.Sleep(5 * time.Millisecond)
	if _, err := s.Append(ctx, stream, 2, noted{Text: "feb, recorded late", At: jan.AddDate(0, 1, 0)}); err != nil {
		t.Fatal(err)
	}
	texts := func(es []eventstore.Envelope) (out []string) {
		for _, e := range es {
			out = append(out, e.Event.(*noted).Text)
		}
		return out
	}
	cases := []struct {
		name string
		opts eventstore.LoadOptions
		want string
	}{
		{"whole", eventstore.LoadOptions{}, "[jan mar feb, recorded late]"},
		{"up to version 1", eventstore.LoadOptions{UpToVersion: 1}, "[jan]"},
		{"after version 1", eventstore.LoadOptions{AfterVersion: 1}, "[mar feb, recorded late]"},
		{"as of mid february", eventstore.LoadOptions{AsOf: jan.AddDate(0, 1, 14)}, "[jan feb, recorded late]"},
		{"as known before the late record", eventstore.LoadOptions{AsKnownAt: knownAt}, "[jan mar]"},
	}
	for _, c := range cases {
		got, err := s.Load(ctx, stream.ID, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(texts(got)) != c.want {
			t.Errorf("%s: got %v, want %s", c.name, texts(got), c.want)
		}
	}
	if !first[0].OccurredAt.Equal(jan) {
		t.Errorf("occurred_at = %v, want the event's business time %v", first[0].OccurredAt, jan)
	}
}

func TestMetadataTravelsWithEvents(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	md := eventstore.Metadata{Actor: "user-1", Tenant: "org-9", CorrelationID: "c-1", CausationID: "e-0", RequestID: "req-7"}
	ctx := eventstore.WithMetadata(context.Background(), md)
	res, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: "md"}, eventstore.NoStream, noted{Text: "x"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "md", eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Metadata != md {
		t.Fatalf("metadata = %+v, want %+v", got[0].Metadata, md)
	}
	if got[0].EventID != res.EventIDs[0] || got[0].Position != res.Last.Position || got[0].TransactionID != res.Last.TransactionID {
		t.Fatalf("stored envelope %+v does not match append result %+v", got[0], res)
	}
	var payload map[string]any
	if err := json.Unmarshal(got[0].Payload, &payload); err != nil || payload["text"] != "x" {
		t.Fatalf("payload = %s (%v)", got[0].Payload, err)
	}
}

func TestBulkAppendReportsItsLastKeyAndKeepsOrder(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	evs := make([]kernel.Event, 250)
	for i := range evs {
		evs[i] = noted{Text: fmt.Sprint(i)}
	}
	res, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: "bulk"}, eventstore.NoStream, evs...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "bulk", eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 || res.FromVersion != 1 || res.ToVersion != 250 || len(res.EventIDs) != 250 {
		t.Fatalf("append result %+v, %d events stored", res, len(got))
	}
	for i, e := range got {
		if e.Event.(*noted).Text != fmt.Sprint(i) || e.EventID != res.EventIDs[i] || (i > 0 && e.Position <= got[i-1].Position) {
			t.Fatalf("event %d out of order: %+v", i, e)
		}
	}
	if last := got[len(got)-1]; res.Last != last.Key() {
		t.Fatalf("Last = %+v, want the key of the last stored event %+v", res.Last, last.Key())
	}
}

// A long stream is decoded on every CPU: every event, in order, with its
// metadata.
func TestLongStreamLoadsDecodedInOrder(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	md := eventstore.Metadata{Actor: "user-2", Tenant: "org-1"}
	ctx := eventstore.WithMetadata(context.Background(), md)
	const n = 3001 // above the parallel decoding threshold, not a multiple of the workers
	evs := make([]kernel.Event, n)
	for i := range evs {
		evs[i] = noted{Text: fmt.Sprint(i)}
	}
	if _, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: "long"}, eventstore.NoStream, evs...); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "long", eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("%d events loaded, want %d", len(got), n)
	}
	for i, e := range got {
		if e.StreamVersion != int64(i+1) || e.Event.(*noted).Text != fmt.Sprint(i) || e.Metadata != md {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
}

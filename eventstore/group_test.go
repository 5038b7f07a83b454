package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// groupCase is one concurrent append of TestGroupCommitKeepsEachOutcome.
type groupCase struct {
	stream   string
	expected int64
	events   int
	conflict bool
}

// Concurrent appends share transactions (group commit), yet each keeps its
// own outcome: right versions, its own metadata, a conflict only for the
// appends whose version check fails, and consumption keys that match what a
// consumer reads.
func TestGroupCommitKeepsEachOutcome(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.SetGroupCommit(64, 4096, 1) // one group at a time: the others queue behind it
	ctx := context.Background()
	var cases []groupCase
	for i := range 40 {
		id := fmt.Sprintf("existing-%d", i)
		if _, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: id}, eventstore.NoStream, noted{Text: "one"}); err != nil {
			t.Fatal(err)
		}
		switch i % 4 {
		case 0, 1:
			cases = append(cases, groupCase{stream: id, expected: 1, events: 1 + i%3})
		case 2:
			cases = append(cases, groupCase{stream: id, expected: 3, conflict: true, events: 1})
		default:
			cases = append(cases, groupCase{stream: id, expected: eventstore.NoStream, conflict: true, events: 2})
		}
	}
	for i := range 40 {
		cases = append(cases, groupCase{stream: fmt.Sprintf("new-%d", i), expected: eventstore.NoStream, events: 1 + i%2})
	}
	before, _ := s.GroupStats()
	results := make([]eventstore.Appended, len(cases))
	errs := make([]error, len(cases))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			evs := make([]kernel.Event, c.events)
			for k := range evs {
				evs[k] = noted{Text: fmt.Sprintf("case %d event %d", i, k)}
			}
			actx := eventstore.WithMetadata(ctx, eventstore.Metadata{RequestID: fmt.Sprint("req-", i)})
			results[i], errs[i] = s.Append(actx, eventstore.Stream{Type: "test.note", ID: c.stream}, c.expected, evs...)
		}()
	}
	close(start)
	wg.Wait()
	batches, appends := s.GroupStats()
	if batches-before >= int64(len(cases)) {
		t.Fatalf("%d appends took %d transactions: nothing was grouped", len(cases), batches-before)
	}
	t.Logf("%d appends in %d group commits (%d appends counted)", len(cases), batches-before, appends)

	keys := map[string]eventstore.Key{} // event id -> key its append reported
	for i, c := range cases {
		if c.conflict {
			if !errors.Is(errs[i], kernel.ErrConflict) {
				t.Errorf("case %d (%s at %d): want a conflict, got %v", i, c.stream, c.expected, errs[i])
			}
			continue
		}
		if errs[i] != nil {
			t.Fatalf("case %d (%s at %d): %v", i, c.stream, c.expected, errs[i])
		}
		r := results[i]
		if r.FromVersion != c.expected+1 || r.ToVersion != c.expected+int64(c.events) || len(r.EventIDs) != c.events {
			t.Errorf("case %d: versions %d..%d with %d ids, want %d..%d", i, r.FromVersion, r.ToVersion, len(r.EventIDs), c.expected+1, c.expected+int64(c.events))
		}
		keys[r.EventIDs[len(r.EventIDs)-1]] = r.Last
		evs, err := s.Load(ctx, c.stream, eventstore.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != int(r.ToVersion) {
			t.Fatalf("case %d: stream %s holds %d events, want %d", i, c.stream, len(evs), r.ToVersion)
		}
		for k, e := range evs[c.expected:] {
			if e.StreamVersion != c.expected+int64(k)+1 || e.EventID != r.EventIDs[k] {
				t.Errorf("case %d: event %d is %s v%d, want %s v%d", i, k, e.EventID, e.StreamVersion, r.EventIDs[k], c.expected+int64(k)+1)
			}
			if e.Metadata.RequestID != fmt.Sprint("req-", i) {
				t.Errorf("case %d: event %d carries request id %q", i, k, e.Metadata.RequestID)
			}
			if want := fmt.Sprintf("case %d event %d", i, k); e.Event.(*noted).Text != want {
				t.Errorf("case %d: event %d reads %q, want %q", i, k, e.Event.(*noted).Text, want)
			}
		}
	}
	for _, c := range cases { // a failed append left its stream as it was
		if !c.conflict {
			continue
		}
		v, err := s.Version(ctx, c.stream)
		if err != nil || v != 1 {
			t.Errorf("stream %s after a refused append: version %d, %v; want 1", c.stream, v, err)
		}
	}
	found := 0
	err := s.ReadAll(ctx, eventstore.Filter{}, func(e eventstore.Envelope) error {
		if k, ok := keys[e.EventID]; ok {
			found++
			if k != e.Key() {
				t.Errorf("event %s: append reported key %+v, the store holds %+v", e.EventID, k, e.Key())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found != len(keys) {
		t.Fatalf("found %d of %d appended last events", found, len(keys))
	}
}

// An append that fails for a reason other than its version check makes its
// group fail; every member is then appended alone, so the others still
// succeed and only the bad one reports its error.
func TestGroupCommitIsolatesAFailingAppend(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	s := newStoreFor(t, db)
	s.SetGroupCommit(64, 4096, 1)
	ctx := context.Background()
	bad := eventstore.Stream{Type: "test.note", ID: "at-the-limit"}
	if _, err := s.Append(ctx, bad, eventstore.NoStream, noted{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	// The stream's version is at the column's limit: one more overflows it.
	const limit = 2147483647
	if _, err := db.SQL.ExecContext(ctx, `UPDATE es.streams SET version = $1 WHERE stream_id = $2`, limit, bad.ID); err != nil {
		t.Fatal(err)
	}
	const good = 30
	errs := make([]error, good+1)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range good + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if i == good {
				_, errs[i] = s.Append(ctx, bad, limit, noted{Text: "overflow"})
				return
			}
			_, errs[i] = s.Append(ctx, eventstore.Stream{Type: "test.note", ID: fmt.Sprint("good-", i)}, eventstore.NoStream, noted{Text: "fine"})
		}()
	}
	close(start)
	wg.Wait()
	for i := range good {
		if errs[i] != nil {
			t.Errorf("good append %d failed with the bad one: %v", i, errs[i])
		}
		if v, err := s.Version(ctx, fmt.Sprint("good-", i)); err != nil || v != 1 {
			t.Errorf("good-%d: version %d, %v", i, v, err)
		}
	}
	if errs[good] == nil || errors.Is(errs[good], kernel.ErrConflict) {
		t.Fatalf("the overflowing append: want a database error, got %v", errs[good])
	}
}

// A caller whose context has ended before its group runs writes nothing.
func TestGroupCommitSkipsAnAbandonedAppend(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: "abandoned"}, eventstore.NoStream, noted{Text: "x"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if v, err := s.Version(context.Background(), "abandoned"); err != nil || v != 0 {
		t.Fatalf("abandoned stream: version %d, %v; want nothing written", v, err)
	}
}

// Appends to a few hot streams queue behind each other (a group holds one
// append per stream, four at most here): every caller gets its own outcome,
// exactly one winner per stream and version, never a success it did not
// have.
func TestGroupCommitLeaderWaitsForItsOwnAppend(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.SetGroupCommit(4, 4096, 2)
	ctx := context.Background()
	const streams, writers = 3, 40
	for k := range streams {
		if _, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: fmt.Sprint("hot-", k)}, eventstore.NoStream, noted{Text: "first"}); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 5 {
		errs := make([]error, writers)
		results := make([]eventstore.Appended, writers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				stream := eventstore.Stream{Type: "test.note", ID: fmt.Sprint("hot-", i%streams)}
				results[i], errs[i] = s.Append(ctx, stream, int64(round+1), noted{Text: fmt.Sprint("round ", round, " writer ", i)})
			}()
		}
		close(start)
		wg.Wait()
		wins := make([]int, streams)
		for i, err := range errs {
			switch {
			case err == nil:
				if results[i].ToVersion != int64(round+2) || len(results[i].EventIDs) != 1 {
					t.Fatalf("round %d writer %d: success without its append: %+v", round, i, results[i])
				}
				wins[i%streams]++
			case errors.Is(err, kernel.ErrConflict):
			default:
				t.Fatalf("round %d writer %d: %v", round, i, err)
			}
		}
		for k, w := range wins {
			if w != 1 {
				t.Fatalf("round %d: stream hot-%d had %d winners, want 1", round, k, w)
			}
			if v, err := s.Version(ctx, fmt.Sprint("hot-", k)); err != nil || v != int64(round+2) {
				t.Fatalf("round %d: hot-%d at version %d, %v", round, k, v, err)
			}
		}
	}
}

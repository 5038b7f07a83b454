package eventstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
)

// A consumer's read decodes every row on its own: rows of one append share
// their metadata, rows of the next append get theirs, and the payload of a
// type the consumer does not handle is not shipped.
func TestReadAfterDecodesEveryRowsOwnColumns(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	want := map[string]eventstore.Metadata{}
	for i, md := range []eventstore.Metadata{{Actor: "ana", RequestID: "r1"}, {Actor: "ben", Tenant: "t2"}, {}} {
		id := fmt.Sprint("note-", i)
		want[id] = md
		mctx := eventstore.WithMetadata(ctx, md)
		if _, err := s.Append(mctx, eventstore.Stream{Type: "test.note", ID: id}, eventstore.NoStream,
			noted{Text: id + "a"}, noted{Text: id + "b"}); err != nil {
			t.Fatal(err)
		}
	}
	page := readAll(t, s, nil, 6)
	seen := map[string]bool{}
	for i, e := range page {
		if e.Metadata != want[e.StreamID] {
			t.Errorf("event %d of %s: metadata %+v, want %+v", i, e.StreamID, e.Metadata, want[e.StreamID])
		}
		if e.Type != "test.noted" || e.StreamType != "test.note" || len(e.EventID) != 26 || seen[e.EventID] {
			t.Errorf("event %d: type %q, stream type %q, id %q (seen before: %v)", i, e.Type, e.StreamType, e.EventID, seen[e.EventID])
		}
		seen[e.EventID] = true
		if wantText := fmt.Sprintf(`{"text": "%s%c"}`, e.StreamID, 'a'+rune(e.StreamVersion-1)); string(e.Payload) != wantText {
			t.Errorf("event %d: payload %s, want %s", i, e.Payload, wantText)
		}
	}
	page = readAll(t, s, []string{"test.other"}, 6)
	for _, e := range page {
		if e.Payload != nil {
			t.Errorf("event %s of a type not handled came with payload %s", e.EventID, e.Payload)
		}
	}
}

// readAll reads the store from the start as a consumer does, waiting for
// want events: a consumer sees events below the cluster's transaction
// horizon, which a transaction of another test's database can hold back.
func readAll(t *testing.T, s *eventstore.Store, handles []string, want int) []eventstore.Envelope {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		page, err := eventstore.ReadAfter(context.Background(), s.DB(), eventstore.Key{}, 100, handles)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) >= want || time.Now().After(deadline) {
			if len(page) != want {
				t.Fatalf("read %d events, want %d", len(page), want)
			}
			return page
		}
		time.Sleep(10 * time.Millisecond)
	}
}

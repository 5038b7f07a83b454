package eventstore_test

import (
	"context"
	"fmt"
	"testing"

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
	page, err := eventstore.ReadAfter(ctx, s.DB(), eventstore.Key{}, 100, nil)
	if err != nil || len(page) != 6 {
		t.Fatalf("read %d events, %v; want 6", len(page), err)
	}
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
	page, err = eventstore.ReadAfter(ctx, s.DB(), eventstore.Key{}, 100, []string{"test.other"})
	if err != nil || len(page) != 6 {
		t.Fatalf("read %d events, %v; want 6", len(page), err)
	}
	for _, e := range page {
		if e.Payload != nil {
			t.Errorf("event %s of a type not handled came with payload %s", e.EventID, e.Payload)
		}
	}
}

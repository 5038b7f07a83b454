package eventstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// BenchmarkReadAfter100 reads one consumer batch of 100 events (the default
// batch size) through the same scan as the live consumers.
func BenchmarkReadAfter100(b *testing.B) {
	s := newStoreFor(b, pgtest.DB(b))
	ctx := context.Background()
	for i := range 20 {
		evs := make([]noted, 50)
		var list []any
		for j := range evs {
			list = append(list, noted{Text: fmt.Sprint("event ", i, j)})
		}
		_ = list
		if _, err := s.Append(ctx, eventstore.Stream{Type: "test.note", ID: fmt.Sprint("s", i)}, eventstore.NoStream,
			noted{Text: "a"}, noted{Text: "b"}, noted{Text: "c"}, noted{Text: "d"}, noted{Text: "e"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		page, err := eventstore.ReadAfter(ctx, s.DB(), eventstore.Key{}, 100, nil)
		if err != nil || len(page) != 100 {
			b.Fatal(err, len(page))
		}
	}
}

package catalog_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections/catalog"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// ApplyBatch counts exactly what Apply, event by event, counts: events and
// the latest position and time per event type, streams (first versions)
// and events per stream type, on top of what the tables held.
func TestApplyBatchCountsAsApplyDoes(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	var events []eventstore.Envelope
	for i := range 60 {
		events = append(events, eventstore.Envelope{Position: int64(i + 1), Type: fmt.Sprintf("test.e%d", i%4),
			StreamType: fmt.Sprintf("test.s%d", i%3), StreamVersion: int64(1 + i/10),
			RecordedAt: base.Add(time.Duration((i*37)%60) * time.Second)})
	}
	p := catalog.New(nil)
	read := func(db *stdsql.DB) string {
		t.Helper()
		var out string
		err := db.QueryRow(`SELECT
			(SELECT string_agg(event_type || ':' || events || ':' || last_position || ':' || last_recorded_at, ',' ORDER BY event_type)
				FROM rm_eventstore_catalog_v1.event_types) || ' | ' ||
			(SELECT string_agg(stream_type || ':' || streams || ':' || events, ',' ORDER BY stream_type)
				FROM rm_eventstore_catalog_v1.stream_types)`).Scan(&out)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run := func(db *stdsql.DB, apply func(context.Context, *stdsql.Tx) error) {
		t.Helper()
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`SET LOCAL search_path TO rm_eventstore_catalog_v1`); err != nil {
			t.Fatal(err)
		}
		if err := apply(context.Background(), tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	one, batch := pgtest.DB(t), pgtest.DB(t)
	for _, half := range [][]eventstore.Envelope{events[:25], events[25:]} {
		run(one.SQL, func(ctx context.Context, tx *stdsql.Tx) error {
			for _, e := range half {
				if err := p.Apply(ctx, tx, e); err != nil {
					return err
				}
			}
			return nil
		})
		run(batch.SQL, func(ctx context.Context, tx *stdsql.Tx) error { return p.ApplyBatch(ctx, tx, half) })
	}
	got, want := read(batch.SQL), read(one.SQL)
	if got != want || want == "" {
		t.Errorf("batched:\n%s\none by one:\n%s", got, want)
	}
}

package gateway

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// The spooler moves fresh journal lines without looking them up in the
// index of debited requests; a line that is there already makes the
// index's insert come out short, and the whole transaction rolls back
// (errFlushRace) with nothing appended, so the caller moves the rows
// again with the lookup, which drops it as a duplicate.
func TestAnUncheckedMoveOfADebitedRequestAppendsNothing(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range credits.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	r := NewRecorder(store, clock, nil, RecorderConfig{Owner: "move"})
	row := func(id string) pendingRow {
		return pendingRow{id: id, account: "acc", amount: 7, own: true,
			event: credits.Debited{AccountID: "acc", RequestID: id, Model: "m", AmountMicro: 7, Status: "completed", At: clock.Now()}}
	}
	ctx := context.Background()
	debits := func() int {
		var n int
		if err := db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	if out, err := r.moveLocked(ctx, []pendingRow{row("req-1")}, false, false); err != nil || out.Appended != 1 {
		t.Fatalf("first move: %+v %v", out, err)
	}
	if _, err := r.moveLocked(ctx, []pendingRow{row("req-2"), row("req-1")}, false, false); !errors.Is(err, errFlushRace) {
		t.Fatalf("an unchecked move of a debited request: %v, want errFlushRace", err)
	}
	if n := debits(); n != 1 {
		t.Fatalf("%d debits after the refused move, want 1 (nothing of it committed)", n)
	}
	out, err := r.moveLocked(ctx, []pendingRow{row("req-2"), row("req-1")}, false, true)
	if err != nil || out.Appended != 1 || out.Duplicates != 1 {
		t.Fatalf("checked move: %+v %v, want req-2 appended and req-1 a duplicate", out, err)
	}
	if n := debits(); n != 2 {
		t.Fatalf("%d debits, want 2", n)
	}
}

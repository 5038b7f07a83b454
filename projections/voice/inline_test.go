package voice_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	projvoice "github.com/strata-platform/strata/projections/voice"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Inline writes a message's row in the appending transaction; the live
// projector applying the same events later (an older status after a newer
// inline one) changes nothing, and the transaction's search_path is as it
// was.
func TestInlineMessagesAndTheProjectorAgree(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	req := &voice.MessageRequested{MessageID: "01a21e9c-bf14-7121-9d30-22c5dfe8c306", Tenant: "org", Direction: voice.Outbound,
		Line: "+14155550100", Party: "p", Segments: 2, Encoding: "GSM-7", Characters: 158, At: at}
	sent := &voice.MessageStatusChanged{MessageID: req.MessageID, Seq: 2, Status: voice.MsgSent, ProviderID: "x", At: at}
	delivered := &voice.MessageStatusChanged{MessageID: req.MessageID, Seq: 3, Status: voice.MsgDelivered, At: at}
	inline := func(evs ...kernel.Event) {
		t.Helper()
		tx, err := db.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var before, after string
		_ = tx.QueryRowContext(ctx, `SELECT current_setting('search_path')`).Scan(&before)
		if err := projvoice.Inline(ctx, tx, evs); err != nil {
			t.Fatal(err)
		}
		_ = tx.QueryRowContext(ctx, `SELECT current_setting('search_path')`).Scan(&after)
		if before != after {
			t.Fatalf("search_path %q became %q", before, after)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	status := func() (string, int) {
		var s string
		var seq int
		if err := db.SQL.QueryRow(`SELECT status, seq FROM rm_voice_v1.messages WHERE message_id = $1`, req.MessageID).Scan(&s, &seq); err != nil {
			t.Fatal(err)
		}
		return s, seq
	}
	inline(req, &voice.CallRequested{CallID: "ignored"}) // not a message event: left to the projector
	inline(sent)
	inline(delivered)
	if s, seq := status(); s != voice.MsgDelivered || seq != 3 {
		t.Fatalf("after inline: %s #%d", s, seq)
	}
	var calls int
	_ = db.SQL.QueryRow(`SELECT count(*) FROM rm_voice_v1.calls`).Scan(&calls)
	if calls != 0 {
		t.Fatal("inline wrote a call")
	}
	// The live projector catches up with the same events.
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('search_path', 'rm_voice_v1, public', true)`); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []kernel.Event{req, sent, delivered} {
		if err := (projvoice.Projector{}).Apply(ctx, tx, eventstore.Envelope{Event: ev}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if s, seq := status(); s != voice.MsgDelivered || seq != 3 {
		t.Fatalf("the projector moved the message back: %s #%d", s, seq)
	}
}

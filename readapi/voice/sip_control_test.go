package voice_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Two processes on one database: the call's SIP dialog lives in the one
// that placed it; a hangup that reaches the other is carried out by the
// first (over PostgreSQL's NOTIFY) and answered when its end is recorded.
func TestSIPHangupFromAnotherProcess(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_answer_wait_bye.xml"})
	c := sw.dial(t, false, "")
	sw.waitStatus(t, c.ID, voice.StatusInProgress)

	api := sw.Platform
	keys, err := shred.New(api.Master.Derive("subject keys"), 0)
	if err != nil {
		t.Fatal(err)
	}
	store := eventstore.New(api.DB, api.Reg, api.Clock, eventstore.NewULIDs(api.Clock))
	other := cmd.New(store, api.Clock, slog.New(slog.DiscardHandler), cmd.Config{Keys: keys, IndexKey: api.Master.Derive("voice party index")})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go other.RunControl(ctx)
	actor := cmd.Actor{Tenant: sw.u.Org, User: sw.u.ID}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err = other.Hangup(ctx, actor, c.ID)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // until the other process listens
	}
	if err != nil {
		t.Fatalf("hangup from the other process: %v", err)
	}
	got := sw.waitStatus(t, c.ID, voice.StatusCompleted)
	if str(got.Reason) != "local_hangup" {
		t.Fatalf("ended: %+v", got)
	}
	if err := other.Hangup(ctx, actor, c.ID); err == nil {
		t.Fatal("a second hangup of an ended call succeeded")
	}
}

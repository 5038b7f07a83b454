package sip

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

func TestDialAnsweredRemoteHangup(t *testing.T) {
	t.Parallel()
	s := startSipp(t, "uas_answer_bye.xml", "", 1)
	p := newTestProvider(t, s.addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-answer-bye", From: "15550001111", To: "15550002222"})
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"ended 0 remote_hangup completed",
	)
	if err := c.Hangup(context.Background()); err != telephony.ErrCallOver {
		t.Errorf("Hangup after the end = %v, want ErrCallOver", err)
	}
	s.wait(10 * time.Second)
}

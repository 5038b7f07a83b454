package sip

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

func TestInboundDTMF(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:5060") // no outbound requests here
	rec := newRecorder()
	inbound := make(chan telephony.Inbound, 1)
	played := make(chan time.Duration, 1)
	p.Receive(func(ctx context.Context, in telephony.Inbound) {
		inbound <- in
		if err := in.Answer(ctx, false, rec.report); err != nil {
			t.Errorf("Answer: %v", err)
			return
		}
		start := time.Now()
		if err := in.Play(ctx, make([]int16, 5*160)); err != nil {
			t.Errorf("Play: %v", err)
		}
		played <- time.Since(start)
	})
	s := sipptest.Start(t, "uac_dtmf.xml", p.Addr().String(), sipptest.Options{Vars: inboundVars})
	in := <-inbound
	if in.From != "15550003333" || in.To != "15550009999" || in.ProviderCallID == "" {
		t.Errorf("Inbound From %q To %q ProviderCallID %q", in.From, in.To, in.ProviderCallID)
	}
	got := rec.check(t,
		"digit 0 rfc2833 digit=1",
		"digit 0 rfc2833 digit=#",
		"ended 0 remote_hangup completed",
	)
	if got[0].ProviderCallID != in.ProviderCallID {
		t.Errorf("ProviderCallID %q, Inbound said %q", got[0].ProviderCallID, in.ProviderCallID)
	}
	if d := <-played; d < 80*time.Millisecond {
		t.Errorf("Play of 5 packets took %v, want >= 80ms (20 ms pacing)", d)
	}
	if err := in.Call.Hangup(context.Background()); err != telephony.ErrCallOver {
		t.Errorf("Hangup after the end = %v, want ErrCallOver", err)
	}
	s.Wait(10 * time.Second)
}

func TestInboundLocalHangup(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:5060")
	rec := newRecorder()
	calls := make(chan telephony.Call, 1)
	p.Receive(func(ctx context.Context, in telephony.Inbound) {
		if err := in.Answer(ctx, true, rec.report); err != nil {
			t.Errorf("Answer: %v", err)
		}
		calls <- in.Call
	})
	s := sipptest.Start(t, "uac_wait_bye.xml", p.Addr().String(), sipptest.Options{Vars: inboundVars})
	c := <-calls
	time.Sleep(100 * time.Millisecond) // let the ACK arrive
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatalf("Hangup: %v", err)
	}
	got := rec.check(t, "ended 0 local_hangup completed")
	if r := got[0].Recording; r == nil || r.Samples != 0 || len(r.WAV) != 44 {
		t.Errorf("recording of a silent call = %+v, want an empty WAV", r)
	}
	s.Wait(10 * time.Second)
}

func TestInboundReject(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:5060")
	done := make(chan error, 1)
	p.Receive(func(ctx context.Context, in telephony.Inbound) {
		err := in.Reject(ctx, 486, "Busy Here")
		if err == nil {
			if err2 := in.Answer(ctx, false, nil); err2 != telephony.ErrCallOver {
				err = err2
			}
		}
		done <- err
	})
	s := sipptest.Start(t, "uac_rejected.xml", p.Addr().String(), sipptest.Options{Vars: inboundVars})
	if err := <-done; err != nil {
		t.Fatalf("Reject, then Answer: %v", err)
	}
	s.Wait(10 * time.Second)
}

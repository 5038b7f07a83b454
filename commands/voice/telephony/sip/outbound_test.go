package sip

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/zaf/g711"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

func TestDialAnsweredRemoteHangup(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_answer_bye.xml", "", sipptest.Options{Vars: with(outboundVars, "call_id", "call-answer-bye")})
	p := newTestProvider(t, s.Addr)
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
	s.Wait(10 * time.Second)
}

func TestDialAnsweredLocalHangup(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_answer_wait_bye.xml", "", sipptest.Options{})
	p := newTestProvider(t, s.Addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-local-hangup"})
	rec.until(t, telephony.Answered, 10*time.Second)
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatalf("Hangup: %v", err)
	}
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"ended 0 local_hangup completed",
	)
	if err := c.Hangup(context.Background()); err != telephony.ErrCallOver {
		t.Errorf("second Hangup = %v, want ErrCallOver", err)
	}
	s.Wait(10 * time.Second)
}

func TestDialRejected(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code, reason string
		want         string
	}{
		{"486", "Busy Here", "ended 486 sip_486 busy"},
		{"600", "Busy Everywhere", "ended 600 sip_600 busy"},
		{"603", "Decline", "ended 603 sip_603 busy"},
		{"480", "Temporarily Unavailable", "ended 480 sip_480 no-answer"},
		{"503", "Service Unavailable", "ended 503 sip_503 failed"},
		{"404", "Not Found", "ended 404 sip_404 failed"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			s := sipptest.Start(t, "uas_reject.xml", "", sipptest.Options{Vars: with(nil, "status", tc.code, "reason", tc.reason)})
			p := newTestProvider(t, s.Addr)
			c, rec := dial(t, p, telephony.CallRequest{CallID: "call-" + tc.code})
			rec.check(t, "dialing 100 trying", "ringing 180 ringing", tc.want)
			if err := c.Hangup(context.Background()); err != telephony.ErrCallOver {
				t.Errorf("Hangup after the end = %v, want ErrCallOver", err)
			}
			s.Wait(10 * time.Second)
		})
	}
}

func TestDialRingTimeout(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_ring_cancel.xml", "", sipptest.Options{})
	p := newTestProvider(t, s.Addr)
	start := time.Now()
	_, rec := dial(t, p, telephony.CallRequest{CallID: "call-ring-timeout", RingTimeout: 700 * time.Millisecond})
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"ended 487 ring_timeout no-answer",
	)
	if d := time.Since(start); d < 700*time.Millisecond {
		t.Errorf("ended after %v, before the ring timeout", d)
	}
	s.Wait(10 * time.Second)
}

func TestDialCallerCancel(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_ring_cancel.xml", "", sipptest.Options{})
	p := newTestProvider(t, s.Addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-cancel"})
	rec.until(t, telephony.Ringing, 10*time.Second)
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatalf("Hangup while ringing: %v", err)
	}
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"ended 487 caller_cancel canceled",
	)
	s.Wait(10 * time.Second)
}

func TestDialRecording(t *testing.T) {
	t.Parallel()
	sipptest.Require(t)
	pkts, err := sipptest.PCAP(sipptest.PCAPDir + "/g711a.pcap")
	if err != nil {
		t.Fatal(err)
	}
	var want []int16
	for i, pk := range pkts {
		if pk.PayloadType != ptPCMA {
			t.Fatalf("packet %d has payload type %d", i, pk.PayloadType)
		}
		for _, b := range pk.Payload {
			want = append(want, g711.DecodeAlawFrame(b))
		}
	}
	frame := len(pkts[0].Payload) // one packet's samples: the tolerance

	s := sipptest.Start(t, "uas_record.xml", "", sipptest.Options{})
	p := newTestProvider(t, s.Addr)
	_, rec := dial(t, p, telephony.CallRequest{CallID: "call-record", Record: true})
	got := rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"ended 0 remote_hangup completed",
	)
	r := got[len(got)-1].Recording
	if r == nil {
		t.Fatal("Ended has no recording")
	}
	t.Logf("recording: %d samples (%v) %s; pcap: %d samples", r.Samples, r.Duration(), r.Codec, len(want))
	if r.Codec != "PCMA" || r.SampleRate != 8000 {
		t.Errorf("recording codec %q rate %d, want PCMA 8000", r.Codec, r.SampleRate)
	}
	if d := r.Samples - len(want); d < -frame || d > frame {
		t.Errorf("recording has %d samples (%v), the pcap %d (%v): off by more than one packet",
			r.Samples, r.Duration(), len(want), time.Duration(len(want))*time.Second/8000)
	}
	if len(r.WAV) != 44+2*r.Samples || string(r.WAV[:4]) != "RIFF" || string(r.WAV[8:16]) != "WAVEfmt " || string(r.WAV[36:40]) != "data" {
		t.Fatalf("bad WAV header/size: %d bytes for %d samples", len(r.WAV), r.Samples)
	}
	if binary.LittleEndian.Uint16(r.WAV[22:]) != 1 || binary.LittleEndian.Uint32(r.WAV[24:]) != 8000 || binary.LittleEndian.Uint16(r.WAV[34:]) != 16 {
		t.Errorf("WAV is not 8000 Hz mono 16-bit")
	}
	if r.Samples == len(want) {
		for i, w := range want {
			if g := int16(binary.LittleEndian.Uint16(r.WAV[44+2*i:])); g != w {
				t.Fatalf("sample %d = %d, want %d (decoded from the pcap)", i, g, w)
			}
		}
	}
	s.Wait(15 * time.Second)
}

func TestColdTransfer(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_cold_transfer.xml", "", sipptest.Options{Vars: transferVars})
	p := newTestProvider(t, s.Addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-cold"})
	rec.until(t, telephony.Answered, 10*time.Second)
	if err := c.Transfer(context.Background(), "15550004444", false); err != nil {
		t.Fatalf("Transfer: %v", err)
	}
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"transferred 200 cold_transfer target=15550004444",
		"ended 0 transferred completed",
	)
	s.Wait(10 * time.Second)
}

func TestWarmTransfer(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_warm_transfer.xml", "", sipptest.Options{Calls: 2, Vars: transferVars})
	p := newTestProvider(t, s.Addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-warm"})
	rec.until(t, telephony.Answered, 10*time.Second)
	if err := c.Transfer(context.Background(), "15550004444", true); err != nil {
		t.Fatalf("Transfer: %v", err)
	}
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"held 200 hold",
		"transferred 200 warm_transfer target=15550004444",
		"ended 0 transferred completed",
	)
	s.Wait(10 * time.Second)
}

func TestWarmTransferTargetBusy(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_warm_transfer_fail.xml", "", sipptest.Options{Calls: 2, Vars: transferVars})
	p := newTestProvider(t, s.Addr)
	c, rec := dial(t, p, telephony.CallRequest{CallID: "call-warm-busy"})
	rec.until(t, telephony.Answered, 10*time.Second)
	err := c.Transfer(context.Background(), "15550004444", true)
	if !errors.Is(err, telephony.ErrTransfer) {
		t.Fatalf("Transfer to a busy target = %v, want ErrTransfer", err)
	}
	rec.until(t, telephony.Resumed, 10*time.Second)
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatalf("Hangup: %v", err)
	}
	rec.check(t,
		"dialing 100 trying",
		"ringing 180 ringing",
		"answered 200 answered",
		"held 200 hold",
		"resumed 200 resume",
		"ended 0 local_hangup completed",
	)
	s.Wait(10 * time.Second)
}

package sip

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

func TestSendSMS(t *testing.T) {
	t.Parallel()
	s := startSipp(t, "uas_message.xml", "", 1, "status", "200", "reason", "OK")
	p := newTestProvider(t, s.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := p.SendSMS(ctx, telephony.SMSRequest{MessageID: "m1", From: "15550001111", To: "15550002222", Body: "hello from strata"})
	if err != nil {
		t.Fatalf("SendSMS: %v", err)
	}
	if res.Status != "sent" || res.ProviderID == "" {
		t.Errorf("SendSMS = %+v, want Status sent and a ProviderID", res)
	}
	s.wait(10 * time.Second)
}

func TestSendSMSRejected(t *testing.T) {
	t.Parallel()
	s := startSipp(t, "uas_message.xml", "", 1, "status", "403", "reason", "Forbidden")
	p := newTestProvider(t, s.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := p.SendSMS(ctx, telephony.SMSRequest{From: "15550001111", To: "15550002222", Body: "hello from strata"})
	if !errors.Is(err, telephony.ErrRejected) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("SendSMS = %v, want ErrRejected with 403", err)
	}
	s.wait(10 * time.Second)
}

func TestSendSMSNoAnswer(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:"+itoa(freePorts(t, 1)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := p.SendSMS(ctx, telephony.SMSRequest{From: "1", To: "2", Body: "x"}); err == nil || errors.Is(err, telephony.ErrRejected) {
		t.Fatalf("SendSMS to nothing = %v, want a (non-rejection) error", err)
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	s := startSipp(t, "uas_options.xml", "", 1)
	p := newTestProvider(t, s.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	s.wait(10 * time.Second)
}

func TestPingNothing(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:"+itoa(freePorts(t, 1)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := p.Ping(ctx); err == nil {
		t.Fatal("Ping with nothing listening succeeded")
	}
}

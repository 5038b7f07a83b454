package sip

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

func TestSendSMS(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_message.xml", "", sipptest.Options{Vars: with(outboundVars, "status", "200", "reason", "OK")})
	p := newTestProvider(t, s.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := p.SendSMS(ctx, telephony.SMSRequest{MessageID: "m1", From: "15550001111", To: "15550002222", Body: "hello from strata"})
	if err != nil {
		t.Fatalf("SendSMS: %v", err)
	}
	if res.Status != "sent" || res.ProviderID == "" {
		t.Errorf("SendSMS = %+v, want Status sent and a ProviderID", res)
	}
	s.Wait(10 * time.Second)
}

func TestSendSMSRejected(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_message.xml", "", sipptest.Options{Vars: with(outboundVars, "status", "403", "reason", "Forbidden")})
	p := newTestProvider(t, s.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := p.SendSMS(ctx, telephony.SMSRequest{From: "15550001111", To: "15550002222", Body: "hello from strata"})
	if !errors.Is(err, telephony.ErrRejected) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("SendSMS = %v, want ErrRejected with 403", err)
	}
	s.Wait(10 * time.Second)
}

func TestSendSMSNoAnswer(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:"+strconv.Itoa(sipptest.FreePorts(t, 1)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := p.SendSMS(ctx, telephony.SMSRequest{From: "1", To: "2", Body: "x"}); err == nil || errors.Is(err, telephony.ErrRejected) {
		t.Fatalf("SendSMS to nothing = %v, want a (non-rejection) error", err)
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	s := sipptest.Start(t, "uas_options.xml", "", sipptest.Options{})
	p := newTestProvider(t, s.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	s.Wait(10 * time.Second)
}

func TestPingNothing(t *testing.T) {
	t.Parallel()
	p := newTestProvider(t, "127.0.0.1:"+strconv.Itoa(sipptest.FreePorts(t, 1)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := p.Ping(ctx); err == nil {
		t.Fatal("Ping with nothing listening succeeded")
	}
}

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

// Inbound MESSAGEs from a SIPp UAC: the handler's answer decides ours;
// no handler is 480, a body other than text/plain 415 (the handler not
// called).
func TestReceiveSMS(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		handler     bool
		err         error
		contentType string
		status      string
		called      bool
	}{
		{"accepted", true, nil, "text/plain;charset=UTF-8", "200", true},
		{"handler error", true, errors.New("store down"), "text/plain", "500", true},
		{"no handler", false, nil, "text/plain", "480", false},
		{"not text", true, nil, "application/vnd.3gpp.sms", "415", false},
		{"another charset", true, nil, "text/plain; charset=ISO-8859-1", "415", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newTestProvider(t, "127.0.0.1:5060")
			got := make(chan telephony.InboundSMS, 2)
			if tc.handler {
				p.ReceiveSMS(func(ctx context.Context, m telephony.InboundSMS) error {
					if _, ok := ctx.Deadline(); !ok {
						t.Error("the handler's context has no deadline")
					}
					got <- m
					return tc.err
				})
			}
			s := sipptest.Start(t, "uac_message.xml", p.Addr().String(), sipptest.Options{Vars: map[string]string{
				"from": "+15550003333", "to": "+14155550100", "content_type": tc.contentType,
				"body": "Hello from SIPp, STOP to opt out", "status": tc.status}})
			s.Wait(10 * time.Second)
			select {
			case m := <-got:
				if !tc.called {
					t.Fatalf("handler called: %+v", m)
				}
				if m.From != "+15550003333" || m.To != "+14155550100" || m.Body != "Hello from SIPp, STOP to opt out" || !strings.HasSuffix(m.ProviderID, "@127.0.0.1/1") {
					t.Errorf("InboundSMS %+v", m)
				}
			default:
				if tc.called {
					t.Fatal("handler not called")
				}
			}
			if len(got) != 0 {
				t.Errorf("handler called more than once")
			}
		})
	}
}

// One adapter's SendSMS reaches another's ReceiveSMS: the body arrives as
// sent (UTF-8), the sender's ProviderID is the receiver's Call-ID; a body
// that is not UTF-8 is refused 400.
func TestReceiveSMSFromAnotherAdapter(t *testing.T) {
	t.Parallel()
	b := newTestProvider(t, "127.0.0.1:9")
	a := newTestProvider(t, b.Addr().String())
	got := make(chan telephony.InboundSMS, 1)
	b.ReceiveSMS(func(ctx context.Context, m telephony.InboundSMS) error {
		got <- m
		return nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := "Grüße aus Zürich 👋\nzweite Zeile"
	res, err := a.SendSMS(ctx, telephony.SMSRequest{From: "+15550001111", To: "+14155550100", Body: body})
	if err != nil || res.Status != "sent" {
		t.Fatalf("SendSMS = %+v, %v", res, err)
	}
	m := <-got
	if m.Body != body || m.From != "+15550001111" || m.To != "+14155550100" || !strings.HasPrefix(m.ProviderID, res.ProviderID+"/") {
		t.Errorf("InboundSMS %+v; sent %q as %s", m, body, res.ProviderID)
	}
	_, err = a.SendSMS(ctx, telephony.SMSRequest{From: "+15550001111", To: "+14155550100", Body: "caf\xe9"})
	if !errors.Is(err, telephony.ErrRejected) || !strings.Contains(err.Error(), "400") || len(got) != 0 {
		t.Fatalf("Latin-1 body: %v, want ErrRejected 400 and no handler call", err)
	}
}

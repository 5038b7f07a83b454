package voice_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

type smsJSON struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	Segments   int    `json:"segments"`
	Encoding   string `json:"encoding"`
	Characters int    `json:"characters"`
}

// An SMS goes out as a SIP MESSAGE; the trunk's 200 makes it sent. Its
// segments are counted exactly and its status callbacks (queued, sent)
// arrive in order, signed.
func TestSIPSMSSentWithCallbacks(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_message.xml", Sipp: sipptest.Options{Vars: map[string]string{
		"to": regexp.QuoteMeta(sipCallee), "status": "200", "reason": "OK"}}})
	r := newReceiver(t)
	body := strings.Repeat("a", 155) + "€{}" // 155 + 3 escape pairs = 161 septets: two segments of 153
	var m smsJSON
	if st, raw := sw.do(t, sw.u, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee,
		"body": body, "status_callback_url": r.URL}, &m); st != 201 || m.Status != "sent" || m.Segments != 2 || m.Encoding != "GSM-7" ||
		m.Characters != 158 {
		t.Fatalf("send: %d %s", st, raw)
	}
	var sec struct {
		Secret string `json:"secret"`
	}
	sw.do(t, sw.u, "GET", "/api/v1/callbacks/signing-secret", nil, &sec)
	eventually(t, 15*time.Second, func() (bool, string) {
		return len(r.deliveries()) >= 2, "callbacks not delivered yet"
	})
	got := r.deliveries()
	if len(got) != 2 {
		t.Fatalf("deliveries: %+v", got)
	}
	for i, want := range []string{"queued", "sent"} {
		d := got[i]
		if d.Seq != i+1 || d.Payload.Status != want || d.Payload.Type != "message.status" || d.Payload.MessageID != m.ID ||
			d.Payload.Segments != 2 || str(d.Payload.To) != sipCallee {
			t.Errorf("callback %d: %+v", i, d.Payload)
		}
		if err := outbound.Verify(sec.Secret, d.Sig, d.Body, 5*time.Minute, sw.Platform.Clock.Now()); err != nil {
			t.Errorf("callback %d signature: %v", i, err)
		}
	}
	var use struct {
		SMSSegments int `json:"sms_segments"`
	}
	sw.do(t, sw.u, "GET", "/api/v1/billing/usage", nil, &use)
	if use.SMSSegments != 2 {
		t.Fatalf("usage counts %d segments", use.SMSSegments)
	}
}

// The trunk refuses the MESSAGE (403): the message failed, said at once.
func TestSIPSMSRefusedByTheTrunk(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_message.xml", Sipp: sipptest.Options{Vars: map[string]string{
		"to": regexp.QuoteMeta(sipCallee), "status": "403", "reason": "Forbidden"}}})
	var m smsJSON
	if st, raw := sw.do(t, sw.u, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee,
		"body": "héllo ☃"}, &m); st != 201 || m.Status != "failed" || m.Encoding != "UCS-2" || m.Segments != 1 {
		t.Fatalf("send: %d %s", st, raw)
	}
	// Not the provider's health: a refusal counts no failure for the breaker.
	if st, last := sw.Svc.Breaker().State(); st != "closed" || last != "" {
		t.Fatalf("breaker after a refusal: %s %q", st, last)
	}
}

// An inbound STOP puts the sender on the do-not-call list (calls and SMS
// to them are then refused with 451); START takes them off.
func TestSIPInboundStopAndStart(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{})
	sw.prov.ReceiveSMS(func(ctx context.Context, m telephony.InboundSMS) error {
		_, err := sw.Svc.Receive(ctx, m.To, m.From, m.Body, m.ProviderID)
		return err
	})
	send := func(body string) {
		t.Helper()
		p := sipptest.Start(t, "uac_message.xml", sw.prov.Addr().String(), sipptest.Options{Vars: map[string]string{
			"to": sipLine, "from": sipCaller, "content_type": "text/plain;charset=UTF-8", "body": body, "status": "200"}})
		if !p.Wait(10 * time.Second) {
			t.Fatalf("MESSAGE %q not answered 200:\n%s", body, p.Logs())
		}
	}
	listed := func() bool {
		var d struct {
			Listed bool   `json:"listed"`
			Source string `json:"source"`
		}
		sw.do(t, sw.u, "GET", "/api/v1/compliance/dnc?phone="+strings.ReplaceAll(sipCaller, "+", "%2B"), nil, &d)
		return d.Listed && d.Source == "stop"
	}
	send("Stop")
	if !listed() {
		t.Fatal("STOP did not list the sender")
	}
	sw.wantError(t, sw.u, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCaller, "body": "hi"},
		451, "do_not_call", "to_number")
	sw.wantError(t, sw.u, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": sipCaller},
		451, "do_not_call", "to_number")
	send("START")
	if listed() {
		t.Fatal("START did not take the sender off")
	}
	send("stop sending me these please") // not a keyword
	if listed() {
		t.Fatal("a sentence containing stop listed the sender")
	}
}

// The trunk does not answer the health ping (SIP OPTIONS): the breaker
// opens and calls and SMS answer 503 circuit_open until it answers again.
func TestSIPBreakerOpenOnAFailedPing(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{}) // the trunk points at a port nobody listens on
	if err := sw.Svc.Ping(context.Background(), 500*time.Millisecond); err == nil {
		t.Fatal("a ping to nothing answered")
	}
	sw.wantError(t, sw.u, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": sipCallee},
		503, "circuit_open", "")
	sw.wantError(t, sw.u, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee, "body": "hi"},
		503, "circuit_open", "")
	// The compliance checks still come first.
	sw.do(t, sw.u, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": sipCallee}, nil)
	sw.wantError(t, sw.u, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee, "body": "hi"},
		451, "do_not_call", "to_number")
}

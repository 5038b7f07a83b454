package twilio_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/twilio"
)

// Twilio's messaging webhook: a signed form posted to InboundSMSURL goes
// to the ReceiveSMS handler and is answered with empty TwiML; a bad
// signature is 403, a refusal 500.
func TestInboundSMSWebhook(t *testing.T) {
	var handler http.Handler
	ours := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	defer ours.Close()
	hook := ours.URL + "/api/v1/providers/twilio/sms"
	p, err := twilio.New(twilio.Config{BaseURL: "https://api.twilio.com", AccountSID: accountSID, AuthToken: authToken,
		StatusCallbackURL: ours.URL + "/api/v1/providers/twilio/status", InboundSMSURL: hook,
		Client: outbound.New(outbound.Config{})})
	if err != nil {
		t.Fatal(err)
	}
	handler = p.SMSHandler()
	var got []telephony.InboundSMS
	refuse := false
	p.ReceiveSMS(func(_ context.Context, m telephony.InboundSMS) error {
		if refuse {
			return errors.New("not now")
		}
		got = append(got, m)
		return nil
	})
	form := url.Values{"AccountSid": {accountSID}, "MessageSid": {"SM1234"}, "From": {"+15550003333"}, "To": {"+14155550100"},
		"Body": {"STOP"}, "NumMedia": {"0"}}
	post := func(sig string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, hook, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Twilio-Signature", sig)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(twilioSign(authToken, hook, form)); code != 200 || !strings.Contains(body, "<Response></Response>") {
		t.Fatalf("signed message: %d %s", code, body)
	}
	if len(got) != 1 || got[0] != (telephony.InboundSMS{ProviderID: "SM1234", From: "+15550003333", To: "+14155550100", Body: "STOP"}) {
		t.Fatalf("handed over: %+v", got)
	}
	if code, _ := post(twilioSign("wrong-token", hook, form)); code != 403 {
		t.Fatalf("bad signature: %d", code)
	}
	refuse = true
	if code, _ := post(twilioSign(authToken, hook, form)); code != 500 {
		t.Fatalf("refused message: %d", code)
	}
}

package voice_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/xml"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/twilio"
	"github.com/strata-platform/strata/domain/voice"
)

// The voice service's IVR driven through the Twilio adapter: the test
// plays Twilio, posting signed voice webhooks to the surface's
// /api/v1/providers/twilio/voice and reading the TwiML answers.

const twToken = "tw_token"

type twDoc struct {
	Verbs []struct {
		XMLName  xml.Name
		Attrs    []xml.Attr `xml:",any,attr"`
		Text     string     `xml:",chardata"`
		Children []struct {
			XMLName xml.Name
			Text    string `xml:",chardata"`
		} `xml:",any"`
	} `xml:",any"`
}

func (d twDoc) names() string {
	var n []string
	for _, v := range d.Verbs {
		n = append(n, v.XMLName.Local)
	}
	return strings.Join(n, " ")
}

func twSign(u string, form url.Values) string {
	var keys []string
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := hmac.New(sha1.New, []byte(twToken))
	io.WriteString(m, u)
	for _, k := range keys {
		for _, v := range form[k] {
			io.WriteString(m, k+v)
		}
	}
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func TestTwilioInboundIVR(t *testing.T) {
	t.Parallel()
	// The REST API refuses to start recordings: the call ends without one.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		io.WriteString(w, `{"code":21220,"message":"Invalid call state"}`)
	}))
	t.Cleanup(api.Close)
	// Twilio reaches us at a public URL (a proxy in front of the surface).
	const public = "https://voice.example.test/api/v1/providers/twilio"
	prov, err := twilio.New(twilio.Config{BaseURL: api.URL, AccountSID: "AC1", AuthToken: twToken,
		StatusCallbackURL: public + "/status", VoiceURL: public + "/voice", AudioURL: public + "/audio",
		Client: outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}}), Logger: slog.New(slog.DiscardHandler),
		GatherTimeout: time.Second, ReplyWait: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w := start(t, options{Provider: prov, Handlers: map[string]http.Handler{
		"twilio/voice": prov.VoiceHandler(), "twilio/status": prov.StatusHandler()}})
	u := w.user(t, "tia@example.com")
	lineID := w.ownNumber(t, u, sipLine)
	if st, raw := w.do(t, u, "PUT", "/api/v1/numbers/"+lineID+"/config", map[string]any{"routing": map[string]any{
		"type": "ivr", "menu": map[string]any{"1": map[string]any{"action": "hangup"}}}}, nil); st != 200 {
		t.Fatalf("configure: %d %s", st, raw)
	}
	prov.Receive(func(ctx context.Context, in telephony.Inbound) { w.Svc.Inbound(ctx, in) })

	const sid = "CA0000000000000000000000000000abcd"
	post := func(publicURL string, kv ...string) twDoc {
		t.Helper()
		form := url.Values{"AccountSid": {"AC1"}, "CallSid": {sid}, "From": {sipCaller}, "To": {sipLine},
			"CallStatus": {"ringing"}, "Direction": {"inbound"}}
		for i := 0; i+1 < len(kv); i += 2 {
			form.Set(kv[i], kv[i+1])
		}
		local := w.URL + strings.TrimPrefix(publicURL, "https://voice.example.test")
		req, _ := http.NewRequest("POST", local, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Twilio-Signature", twSign(publicURL, form))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var d twDoc
		if resp.StatusCode != 200 || xml.Unmarshal(b, &d) != nil {
			t.Fatalf("POST %s: %d %s", publicURL, resp.StatusCode, b)
		}
		return d
	}
	d := post(public + "/voice")
	if d.names() != "Gather Redirect" || len(d.Verbs[0].Children) != 1 || d.Verbs[0].Children[0].XMLName.Local != "Play" {
		t.Fatalf("first TwiML: %+v", d)
	}
	var action string
	for _, a := range d.Verbs[0].Attrs {
		if a.Name.Local == "action" {
			action = a.Value
		}
	}
	// Key 1 of the menu hangs up.
	if d = post(action, "CallStatus", "in-progress", "Digits", "1"); d.names() != "Hangup" {
		t.Fatalf("after 1: %+v", d)
	}
	var logs struct {
		Items []callJSON `json:"items"`
		Total int        `json:"total"`
	}
	eventually(t, 15*time.Second, func() (bool, string) {
		w.do(t, u, "GET", "/api/v1/calls/logs", nil, &logs)
		return logs.Total == 1 && voice.Terminal(logs.Items[0].Status), "no ended call in the logs yet"
	})
	c := logs.Items[0]
	if c.Direction != voice.Inbound || str(c.From) != sipCaller || c.Provider != "twilio" || str(c.ProviderCallID) != sid {
		t.Errorf("inbound call: %+v", c)
	}
	s := (&sipWorld{world: w}).stream(t, c.ID)
	s.want(t, "call_requested", "call_ringing", "call_answered", "call_routed", "call_digit_received", "call_routed", "call_ended")
	if d := event[*voice.CallDigitReceived](t, s); d.Digit != "1" {
		t.Errorf("digit %+v", d)
	}
	if end := event[*voice.CallEnded](t, s); end.Status != voice.StatusCompleted || end.Reason != "local_hangup" {
		t.Errorf("ended: %+v", end)
	}
}

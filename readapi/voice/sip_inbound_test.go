package voice_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
	"github.com/strata-platform/strata/domain/voice"
)

// Inbound calls: a SIPp UAC calls the adapter's listen address at the
// tenant's number; the adapter hands the call to the service's Inbound.

// receive routes the adapter's inbound calls to the service and returns
// the SIP Call-IDs it saw.
func (sw *sipWorld) receive() <-chan string {
	ids := make(chan string, 4)
	sw.prov.Receive(func(ctx context.Context, in telephony.Inbound) {
		ids <- in.ProviderCallID
		sw.Svc.Inbound(ctx, in)
	})
	return ids
}

// inboundCall waits for the one call of the tenant's logs and for its
// end.
func (sw *sipWorld) inboundCall(t *testing.T) callJSON {
	t.Helper()
	var logs struct {
		Items []callJSON `json:"items"`
		Total int        `json:"total"`
	}
	eventually(t, 15*time.Second, func() (bool, string) {
		sw.do(t, sw.u, "GET", "/api/v1/calls/logs", nil, &logs)
		return logs.Total == 1 && voice.Terminal(logs.Items[0].Status), "no ended call in the logs yet"
	})
	c := logs.Items[0]
	if c.Direction != voice.Inbound || str(c.From) != sipCaller || str(c.To) != sipLine || c.Provider != "sip" {
		t.Errorf("inbound call: %+v", c)
	}
	return c
}

func inboundVars(kv ...string) map[string]string {
	v := map[string]string{"from": sipCaller, "to": sipLine}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = kv[i+1]
	}
	return v
}

// An IVR whose key 1 hangs up: the caller hears the prompt, presses 1
// (RFC 2833) and we BYE.
func TestSIPInboundIVR(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{})
	if st, raw := sw.do(t, sw.u, "PUT", "/api/v1/numbers/"+sw.lineID+"/config", map[string]any{"routing": map[string]any{
		"type": "ivr", "menu": map[string]any{"1": map[string]any{"action": "hangup"}, "2": map[string]any{"action": "voicemail"}}}}, nil); st != 200 {
		t.Fatalf("configure: %d %s", st, raw)
	}
	sw.receive()
	sipp := sipptest.Start(t, "uac_ivr.xml", sw.prov.Addr().String(), sipptest.Options{Vars: inboundVars("digit", "1")})
	c := sw.inboundCall(t)
	sipp.Wait(10 * time.Second)
	s := sw.stream(t, c.ID)
	// The caller sent keys, no audio: no (empty) recording is stored.
	s.want(t, "call_requested", "call_ringing", "call_answered", "call_routed", "call_digit_received", "call_routed",
		"call_ended")
	var routes []string
	for _, e := range s.all {
		if r, ok := e.Event.(*voice.CallRouted); ok {
			routes = append(routes, r.Route+":"+r.Digit)
		}
	}
	if d := event[*voice.CallDigitReceived](t, s); d.Digit != "1" || len(routes) != 2 || routes[0] != "ivr:" || routes[1] != "hangup:1" {
		t.Errorf("digit %+v, routes %v", d, routes)
	}
	if end := event[*voice.CallEnded](t, s); end.Status != voice.StatusCompleted || end.Reason != "local_hangup" || end.Seq != 4 {
		t.Errorf("ended: %+v", end)
	}
	if got := sw.getCall(t, c.ID); got.Status != voice.StatusCompleted || str(got.Reason) != "local_hangup" || got.Duration < 1 || got.AnsweredAt == nil {
		t.Errorf("GET call: %+v", got)
	}
	var recs struct {
		Total int `json:"total"`
	}
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/calls/"+c.ID+"/recordings", nil, &recs); st != 200 || recs.Total != 0 {
		t.Errorf("recordings of a call with no audio: %d %s", st, raw)
	}
}

// No routing: voicemail. The caller talks (g711a.pcap, PCMA) and hangs
// up; the recording and the voicemail hold what they said.
func TestSIPInboundVoicemail(t *testing.T) {
	t.Parallel()
	sipptest.Require(t)
	pkts, err := sipptest.PCAP(sipptest.PCAPDir + "/g711a.pcap")
	if err != nil {
		t.Fatal(err)
	}
	sw := startSIP(t, sipConfig{})
	sw.receive()
	sipp := sipptest.Start(t, "uac_voicemail.xml", sw.prov.Addr().String(), sipptest.Options{Vars: inboundVars()})
	c := sw.inboundCall(t)
	sipp.Wait(15 * time.Second)
	s := sw.stream(t, c.ID)
	s.want(t, "call_requested", "call_ringing", "call_answered", "call_routed", "call_ended", "call_recording_stored", "voicemail_left")
	if r := event[*voice.CallRouted](t, s); r.Route != voice.RouteVoicemail {
		t.Errorf("routed: %+v", r)
	}
	if end := event[*voice.CallEnded](t, s); end.Status != voice.StatusCompleted || end.Reason != "remote_hangup" || end.Duration < 7 {
		t.Errorf("ended: %+v", end)
	}
	stored := event[*voice.CallRecordingStored](t, s)
	samples := checkRecording(t, sw, c.ID, stored, "PCMA", sipptest.AudioSamples(pkts), len(pkts[0].Payload))
	vm := event[*voice.VoicemailLeft](t, s)
	if vm.RecordingID != stored.RecordingID || vm.DurationMS != samples*1000/8000 || vm.VoicemailID == "" {
		t.Errorf("voicemail_left %+v; recording %s of %d samples", vm, stored.RecordingID, samples)
	}
}

// The call's SIP Call-ID is kept: GET /api/v1/calls/{id} shows it as
// provider_call_id, as for outbound calls.
func TestSIPInboundProviderCallID(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{})
	ids := sw.receive()
	sipp := sipptest.Start(t, "uac_dtmf.xml", sw.prov.Addr().String(), sipptest.Options{Vars: inboundVars()})
	c := sw.inboundCall(t)
	sipp.Wait(10 * time.Second)
	want := <-ids
	if str(c.ProviderCallID) != want {
		t.Errorf("provider_call_id %s, want the INVITE's Call-ID %s", str(c.ProviderCallID), want)
	}
}

// A caller who hangs up as soon as they are answered still had an
// answered call: completed, not failed (the service records the answer
// while the adapter already reports the caller's BYE). A caller who hangs
// up before saying anything leaves no voicemail (no empty message); a
// queued call is not recorded.
func TestSIPInboundCallerHangsUpAtOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		routing map[string]any
		events  []string
	}{
		{"voicemail", nil, []string{"call_requested", "call_ringing", "call_answered", "call_routed", "call_ended"}},
		{"queue", map[string]any{"type": "queue", "target_id": "support"}, []string{"call_requested", "call_ringing", "call_answered", "call_routed", "call_ended"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sw := startSIP(t, sipConfig{})
			if tc.routing != nil {
				if st, raw := sw.do(t, sw.u, "PUT", "/api/v1/numbers/"+sw.lineID+"/config", map[string]any{"routing": tc.routing}, nil); st != 200 {
					t.Fatalf("configure: %d %s", st, raw)
				}
			}
			sw.receive()
			sipp := sipptest.Start(t, "uac_bye.xml", sw.prov.Addr().String(), sipptest.Options{Vars: inboundVars("talk_ms", "1")})
			c := sw.inboundCall(t)
			sipp.Wait(10 * time.Second)
			if c.Status != voice.StatusCompleted || c.AnsweredAt == nil || str(c.Reason) != "remote_hangup" {
				t.Errorf("GET call: status %s answered_at %s reason %s", c.Status, str(c.AnsweredAt), str(c.Reason))
			}
			sw.stream(t, c.ID).want(t, tc.events...)
		})
	}
}

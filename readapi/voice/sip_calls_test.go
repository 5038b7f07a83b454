package voice_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/zaf/g711"

	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
	"github.com/strata-platform/strata/domain/voice"
)

// Outbound calls through the API, the SIP adapter and a SIPp UAS.

// The far end answers and hangs up after 200 ms; the receiver answers the
// third callback 500 once: its retry (the same event, a second attempt)
// comes before the fourth.
func TestSIPCallAnsweredFarEndHangup(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_answer_bye.xml", Sipp: sipptest.Options{Vars: outboundVars()}})
	r := newReceiver(t, 3)
	c := sw.dial(t, false, r.URL)
	sw.checkCallbacks(t, r, c, []int{3},
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusInProgress, "answered"}, step{voice.StatusCompleted, "remote_hangup"})
	sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_answered", "call_ended")
	got := sw.getCall(t, c.ID)
	if got.Status != voice.StatusCompleted || got.Sequence != 5 || str(got.Reason) != "remote_hangup" || got.Duration < 1 ||
		got.AnsweredAt == nil || got.EndedAt == nil || got.ProviderCallID == nil {
		t.Errorf("GET call: %+v", got)
	}
	if d := r.deliveries(); *d[len(d)-1].Payload.Duration != got.Duration {
		t.Errorf("completed callback duration %d, call %d", *d[len(d)-1].Payload.Duration, got.Duration)
	}
	sw.sipp.Wait(10 * time.Second)
}

// The far end answers and waits; POST hangup sends our BYE and answers
// the completed call.
func TestSIPCallOurHangup(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_answer_wait_bye.xml"})
	r := newReceiver(t)
	c := sw.dial(t, false, r.URL)
	sw.waitStatus(t, c.ID, voice.StatusInProgress)
	time.Sleep(1100 * time.Millisecond) // a billed second
	if got := sw.post(t, c.ID, "hangup", nil); got.Status != voice.StatusCompleted || str(got.Reason) != "local_hangup" || got.Duration < 2 {
		t.Errorf("POST hangup answered %+v, want completed local_hangup, 2 s or more", got)
	}
	sw.checkCallbacks(t, r, c, nil,
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusInProgress, "answered"}, step{voice.StatusCompleted, "local_hangup"})
	sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_answered", "call_ended")
	sw.wantError(t, sw.u, "POST", "/api/v1/calls/"+c.ID+"/hangup", nil, 409, "conflict", "")
	sw.sipp.Wait(10 * time.Second)
}

// Final responses to the INVITE: 486 is busy, 503 failed (the SIP code
// kept), each after ringing.
func TestSIPCallRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code, reason, status string
	}{
		{"486", "Busy Here", voice.StatusBusy},
		{"503", "Service Unavailable", voice.StatusFailed},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			sw := startSIP(t, sipConfig{Scenario: "uas_reject.xml", Sipp: sipptest.Options{Vars: map[string]string{"status": tc.code, "reason": tc.reason}}})
			r := newReceiver(t)
			c := sw.dial(t, false, r.URL)
			ds := sw.checkCallbacks(t, r, c, nil,
				step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
				step{tc.status, "sip_" + tc.code})
			if p := ds[len(ds)-1].Payload; p.SIPCode != atoi(tc.code) || p.Duration == nil || *p.Duration != 0 {
				t.Errorf("final callback %s", ds[len(ds)-1].Body)
			}
			sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_ended")
			got := sw.getCall(t, c.ID)
			if got.Status != tc.status || num(got.SIPCode) != atoi(tc.code) || str(got.Reason) != "sip_"+tc.code || got.Duration != 0 || got.AnsweredAt != nil {
				t.Errorf("GET call: %+v", got)
			}
			sw.sipp.Wait(10 * time.Second)
		})
	}
}

// Nobody answers within the adapter's ring timeout: CANCEL, 487,
// no-answer.
func TestSIPCallNoAnswer(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_ring_cancel.xml", RingTimeout: time.Second})
	r := newReceiver(t)
	c := sw.dial(t, false, r.URL)
	sw.checkCallbacks(t, r, c, nil,
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusNoAnswer, "ring_timeout"})
	sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_ended")
	if got := sw.getCall(t, c.ID); got.Status != voice.StatusNoAnswer || num(got.SIPCode) != 487 || got.Duration != 0 {
		t.Errorf("GET call: %+v", got)
	}
	sw.sipp.Wait(10 * time.Second)
}

// POST hangup while it rings: CANCEL, 487, canceled.
func TestSIPCallCallerCancel(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_ring_cancel.xml"})
	r := newReceiver(t)
	c := sw.dial(t, false, r.URL)
	sw.waitStatus(t, c.ID, voice.StatusRinging)
	if got := sw.post(t, c.ID, "hangup", nil); got.Status != voice.StatusCanceled || str(got.Reason) != "caller_cancel" {
		t.Errorf("POST hangup while ringing answered %+v, want canceled caller_cancel", got)
	}
	sw.checkCallbacks(t, r, c, nil,
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusCanceled, "caller_cancel"})
	sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_ended")
	if got := sw.getCall(t, c.ID); num(got.SIPCode) != 487 || got.AnsweredAt != nil {
		t.Errorf("GET call: %+v", got)
	}
	sw.sipp.Wait(10 * time.Second)
}

// POST transfer (warm): the far end is held, the target answers our
// consultation call, the far end is REFERred to it with Replaces and hangs
// up on us.
func TestSIPCallWarmTransfer(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_warm_transfer.xml", Sipp: sipptest.Options{Calls: 2, Vars: outboundVars()}})
	r := newReceiver(t, 5)
	c := sw.dial(t, false, r.URL)
	sw.waitStatus(t, c.ID, voice.StatusInProgress)
	sw.post(t, c.ID, "transfer", map[string]any{"target_number": sipTarget, "transfer_type": "warm"})
	ds := sw.checkCallbacks(t, r, c, []int{5},
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusInProgress, "answered"}, step{voice.StatusInProgress, "held"},
		step{voice.StatusInProgress, "transferred_warm"}, step{voice.StatusCompleted, "transferred"})
	if p := ds[len(ds)-3].Payload; p.OnHold == nil || !*p.OnHold {
		t.Errorf("held callback: %s", ds[len(ds)-3].Body)
	}
	s := sw.stream(t, c.ID)
	s.want(t, "call_requested", "call_dialing", "call_ringing", "call_answered", "call_held", "call_transferred", "call_ended")
	if tr := event[*voice.CallTransferred](t, s); tr.TransferType != "warm" || tr.Seq != 6 {
		t.Errorf("transferred: %+v", tr)
	}
	if got := sw.getCall(t, c.ID); got.Status != voice.StatusCompleted || !got.Transferred || got.OnHold || str(got.Reason) != "transferred" {
		t.Errorf("GET call: %+v", got)
	}
	sw.sipp.Wait(10 * time.Second)
}

// The answer to a successful POST transfer shows the call transferred
// (as the answer to a hangup shows it ended).
func TestSIPCallTransferAnswerShowsTheTransfer(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_warm_transfer.xml", Sipp: sipptest.Options{Calls: 2, Vars: outboundVars()}})
	c := sw.dial(t, false, "")
	sw.waitStatus(t, c.ID, voice.StatusInProgress)
	if got := sw.post(t, c.ID, "transfer", map[string]any{"target_number": sipTarget, "transfer_type": "warm"}); !got.Transferred || got.OnHold {
		t.Errorf("POST transfer answered transferred %t on_hold %t, want the call transferred, off hold", got.Transferred, got.OnHold)
	}
	sw.sipp.Wait(10 * time.Second)
}

// POST transfer (warm) to a busy target: 409, the far end is resumed and
// the call goes on until we hang up.
func TestSIPCallWarmTransferTargetBusy(t *testing.T) {
	t.Parallel()
	sw := startSIP(t, sipConfig{Scenario: "uas_warm_transfer_fail.xml", Sipp: sipptest.Options{Calls: 2, Vars: outboundVars()}})
	r := newReceiver(t)
	c := sw.dial(t, false, r.URL)
	sw.waitStatus(t, c.ID, voice.StatusInProgress)
	sw.wantError(t, sw.u, "POST", "/api/v1/calls/"+c.ID+"/transfer", map[string]any{"target_number": sipTarget, "transfer_type": "warm"}, 409, "conflict", "")
	eventually(t, 5*time.Second, func() (bool, string) {
		got := sw.getCall(t, c.ID)
		return got.Status == voice.StatusInProgress && !got.OnHold && !got.Transferred && got.Sequence == 6,
			fmt.Sprintf("after the failed transfer: status %s on_hold %t transferred %t sequence %d, want in-progress, resumed", got.Status, got.OnHold, got.Transferred, got.Sequence)
	})
	sw.post(t, c.ID, "hangup", nil)
	ds := sw.checkCallbacks(t, r, c, nil,
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusInProgress, "answered"}, step{voice.StatusInProgress, "held"},
		step{voice.StatusInProgress, "resumed"}, step{voice.StatusCompleted, "local_hangup"})
	if p := ds[5].Payload; p.OnHold == nil || *p.OnHold {
		t.Errorf("resumed callback: %s", ds[5].Body)
	}
	sw.stream(t, c.ID).want(t, "call_requested", "call_dialing", "call_ringing", "call_answered", "call_held", "call_resumed", "call_ended")
	sw.sipp.Wait(10 * time.Second)
}

// A recorded call: the far end plays g711a.pcap (PCMA); the recording the
// API lists and serves holds the capture's samples.
func TestSIPCallRecording(t *testing.T) {
	t.Parallel()
	sipptest.Require(t)
	pkts, err := sipptest.PCAP(sipptest.PCAPDir + "/g711a.pcap")
	if err != nil {
		t.Fatal(err)
	}
	var want []int16
	for _, p := range pkts {
		for _, b := range p.Payload {
			want = append(want, g711.DecodeAlawFrame(b))
		}
	}
	frame := len(pkts[0].Payload) // one packet: the tolerance

	sw := startSIP(t, sipConfig{Scenario: "uas_record.xml"})
	r := newReceiver(t)
	c := sw.dial(t, true, r.URL)
	sw.checkCallbacks(t, r, c, nil,
		step{voice.StatusQueued, ""}, step{voice.StatusInitiated, "trying"}, step{voice.StatusRinging, "ringing"},
		step{voice.StatusInProgress, "answered"}, step{voice.StatusCompleted, "remote_hangup"})
	s := sw.stream(t, c.ID)
	s.want(t, "call_requested", "call_dialing", "call_ringing", "call_answered", "call_ended", "call_recording_stored")
	stored := event[*voice.CallRecordingStored](t, s)
	if got := sw.getCall(t, c.ID); got.Status != voice.StatusCompleted || !got.Record || got.Duration < 7 {
		t.Errorf("GET call: %+v", got)
	}
	samples := checkRecording(t, sw, c.ID, stored, "PCMA", len(want), frame)
	if wav := fetchWAV(t, sw, c.ID, stored.RecordingID); samples == len(want) {
		for i, w := range want {
			if g := int16(binary.LittleEndian.Uint16(wav[44+2*i:])); g != w {
				t.Fatalf("sample %d = %d, want %d (decoded from the pcap)", i, g, w)
			}
		}
	}
	sw.sipp.Wait(15 * time.Second)
}

// checkRecording checks GET /api/v1/calls/{id}/recordings (one recording:
// stored) and the WAV it serves against wantSamples (within tol); it
// returns the recording's samples.
func checkRecording(t *testing.T, sw *sipWorld, callID string, stored *voice.CallRecordingStored, codec string, wantSamples, tol int) int {
	t.Helper()
	var list struct {
		Items []struct {
			ID              string  `json:"id"`
			DurationSeconds float64 `json:"duration_seconds"`
			Samples         int     `json:"samples"`
			SampleRate      int     `json:"sample_rate"`
			Codec           string  `json:"codec"`
			Format          string  `json:"format"`
			Bytes           int     `json:"bytes"`
			URL             string  `json:"url"`
		} `json:"items"`
		Total int `json:"total"`
	}
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/calls/"+callID+"/recordings", nil, &list); st != 200 || list.Total != 1 {
		t.Fatalf("GET recordings: %d %s", st, raw)
	}
	rec := list.Items[0]
	t.Logf("recording: %d samples, %.3f s, %s; the caller sent %d samples (%.3f s)", rec.Samples, rec.DurationSeconds, rec.Codec,
		wantSamples, float64(wantSamples)/8000)
	if rec.ID != stored.RecordingID || rec.Samples != stored.Samples || rec.SampleRate != 8000 || rec.Codec != codec ||
		rec.Format != "audio/wav" || rec.Bytes != 44+2*rec.Samples || rec.URL != "/api/v1/calls/"+callID+"/recordings/"+rec.ID {
		t.Errorf("recording %+v, stored %+v", rec, stored)
	}
	if rec.DurationSeconds != float64(rec.Samples)/8000 {
		t.Errorf("duration_seconds %v for %d samples", rec.DurationSeconds, rec.Samples)
	}
	if d := rec.Samples - wantSamples; d < -tol || d > tol {
		t.Errorf("recording has %d samples, the caller sent %d: off by more than %d", rec.Samples, wantSamples, tol)
	}
	wav := fetchWAV(t, sw, callID, rec.ID)
	if len(wav) != 44+2*rec.Samples || string(wav[:4]) != "RIFF" || string(wav[8:16]) != "WAVEfmt " || string(wav[36:40]) != "data" ||
		int(binary.LittleEndian.Uint32(wav[40:])) != 2*rec.Samples || binary.LittleEndian.Uint32(wav[24:]) != 8000 ||
		binary.LittleEndian.Uint16(wav[22:]) != 1 || binary.LittleEndian.Uint16(wav[34:]) != 16 {
		t.Fatalf("WAV: %d bytes for %d samples; header % x", len(wav), rec.Samples, wav[:min(len(wav), 44)])
	}
	return rec.Samples
}

func fetchWAV(t *testing.T, sw *sipWorld, callID, recID string) []byte {
	t.Helper()
	st, wav := sw.do(t, sw.u, "GET", "/api/v1/calls/"+callID+"/recordings/"+recID, nil, nil)
	if st != 200 {
		t.Fatalf("GET recording file: %d %s", st, wav)
	}
	return wav
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

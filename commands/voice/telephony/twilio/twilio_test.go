package twilio_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/twilio"
)

const (
	accountSID = "AC0123456789abcdef0123456789abcdef"
	authToken  = "tok_5ecret"
	ourNumber  = "+15550001000"
)

// twilioSign computes X-Twilio-Signature independently of the adapter:
// base64(HMAC-SHA1(token, url + sorted name+value pairs)).
func twilioSign(token, u string, form url.Values) string {
	var keys []string
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := u
	for _, k := range keys {
		for _, v := range form[k] {
			s += k + v
		}
	}
	m := hmac.New(sha1.New, []byte(token))
	io.WriteString(m, s)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func TestSignatureKnownVector(t *testing.T) {
	// Twilio's security documentation: auth token 12345, this URL and these
	// POST parameters. The docs have printed two versions of the example;
	// "GvWf1cFY/Q7PnoempGyD5oXAezc=" is the signature for Caller and From
	// +14158675310, and "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" for +12349013030
	// (both checked with openssl dgst -sha1 -hmac 12345).
	u := "https://mycompany.com/myapp.php?foo=1&bar=2"
	for number, want := range map[string]string{
		"+14158675310": "GvWf1cFY/Q7PnoempGyD5oXAezc=",
		"+12349013030": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
	} {
		params := url.Values{
			"CallSid": {"CA1234567890ABCDE"},
			"Caller":  {number},
			"Digits":  {"1234"},
			"From":    {number},
			"To":      {"+18005551212"},
		}
		if got := twilio.Signature("12345", u, params); got != want {
			t.Errorf("%s: Signature = %q, want %q", number, got, want)
		}
		if got := twilioSign("12345", u, params); got != want {
			t.Errorf("%s: test signer = %q, want %q", number, got, want)
		}
	}
}

// fakeTwilio speaks the parts of Twilio's REST API the adapter uses.
type fakeTwilio struct {
	t   *testing.T
	srv *httptest.Server
	wav []byte

	mu       sync.Mutex
	n        int
	calls    map[string]url.Values // sid → create form
	updates  map[string][]url.Values
	messages []url.Values
	wavGets  int
	// beforeAnswer, when set, runs before Calls.json answers (a callback
	// that overtakes the API's answer).
	beforeAnswer func(sid string, form url.Values)
}

func newFakeTwilio(t *testing.T) *fakeTwilio {
	f := &fakeTwilio{t: t, calls: map[string]url.Values{}, updates: map[string][]url.Values{}, wav: makeWAV(16000)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func twilioError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": msg, "more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", code), "status": status})
}

func (f *fakeTwilio) serve(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := r.BasicAuth()
	if !ok || user != accountSID || pass != authToken {
		twilioError(w, 401, 20003, "Authenticate")
		return
	}
	prefix := "/2010-04-01/Accounts/" + accountSID
	if r.Method == http.MethodGet && r.URL.Path == prefix+".json" {
		writeJSON(w, 200, map[string]any{"sid": accountSID, "status": "active"})
		return
	}
	if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, prefix+"/Recordings/") && strings.HasSuffix(r.URL.Path, ".wav") {
		f.mu.Lock()
		f.wavGets++
		f.mu.Unlock()
		w.Header().Set("Content-Type", "audio/x-wav")
		w.Write(f.wav)
		return
	}
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		twilioError(w, 400, 0, "bad content type "+ct)
		return
	}
	if err := r.ParseForm(); err != nil {
		twilioError(w, 400, 0, err.Error())
		return
	}
	form := r.PostForm
	switch {
	case r.URL.Path == prefix+"/Calls.json":
		for _, k := range []string{"To", "From", "Twiml", "StatusCallback", "Timeout"} {
			if form.Get(k) == "" {
				twilioError(w, 400, 21205, "missing "+k)
				return
			}
		}
		if !slices.Equal(form["StatusCallbackEvent"], []string{"initiated", "ringing", "answered", "completed"}) || form.Get("StatusCallbackMethod") != "POST" {
			twilioError(w, 400, 21626, "bad StatusCallbackEvent")
			return
		}
		if form.Get("To") == "+15005550001" { // Twilio's magic invalid number
			twilioError(w, 400, 21217, "Phone number does not appear to be valid")
			return
		}
		f.mu.Lock()
		f.n++
		sid := fmt.Sprintf("CA%032d", f.n)
		f.calls[sid] = form
		hook := f.beforeAnswer
		f.mu.Unlock()
		if hook != nil {
			hook(sid, form)
		}
		writeJSON(w, 201, map[string]any{"sid": sid, "status": "queued", "to": form.Get("To"), "from": form.Get("From")})
	case strings.HasPrefix(r.URL.Path, prefix+"/Calls/"):
		sid := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, prefix+"/Calls/"), ".json")
		f.mu.Lock()
		_, known := f.calls[sid]
		if known {
			f.updates[sid] = append(f.updates[sid], form)
		}
		f.mu.Unlock()
		if !known {
			twilioError(w, 404, 20404, "The requested resource was not found")
			return
		}
		writeJSON(w, 200, map[string]any{"sid": sid, "status": "in-progress"})
	case r.URL.Path == prefix+"/Messages.json":
		if form.Get("To") == "+15005550001" {
			twilioError(w, 400, 21211, "The 'To' number +15005550001 is not a valid phone number.")
			return
		}
		f.mu.Lock()
		f.messages = append(f.messages, form)
		f.n++
		sid := fmt.Sprintf("SM%032d", f.n)
		f.mu.Unlock()
		writeJSON(w, 201, map[string]any{"sid": sid, "status": "queued"})
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeTwilio) call(sid string) url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[sid]
}

func (f *fakeTwilio) updatesOf(sid string) []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.updates[sid]...)
}

func (f *fakeTwilio) message(i int) url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.messages[i]
}

func (f *fakeTwilio) recordingGets() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wavGets
}

// callback posts a signed status callback for sid to the URL the call
// was created with, as Twilio does.
func (f *fakeTwilio) callback(sid string, params url.Values) int {
	f.t.Helper()
	f.mu.Lock()
	cb := f.calls[sid].Get("StatusCallback")
	f.mu.Unlock()
	return postSigned(f.t, cb, authToken, sid, params)
}

func postSigned(t *testing.T, cb, token, sid string, params url.Values) int {
	t.Helper()
	form := url.Values{"AccountSid": {accountSID}, "CallSid": {sid}, "ApiVersion": {"2010-04-01"}}
	for k, v := range params {
		form[k] = v
	}
	req, _ := http.NewRequest(http.MethodPost, cb, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Twilio-Signature", twilioSign(token, cb, form))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func status(s string, kv ...string) url.Values {
	v := url.Values{"CallStatus": {s}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// makeWAV is a 16-bit 8 kHz mono WAV of n samples.
func makeWAV(n int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("RIFF")
	binary.Write(&b, le, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	binary.Write(&b, le, uint32(16))
	binary.Write(&b, le, uint16(1))    // PCM
	binary.Write(&b, le, uint16(1))    // mono
	binary.Write(&b, le, uint32(8000)) // rate
	binary.Write(&b, le, uint32(16000))
	binary.Write(&b, le, uint16(2))
	binary.Write(&b, le, uint16(16))
	b.WriteString("data")
	binary.Write(&b, le, uint32(2*n))
	b.Write(make([]byte, 2*n))
	return b.Bytes()
}

type harness struct {
	t    *testing.T
	tw   *fakeTwilio
	p    *twilio.Provider
	hook string // StatusCallbackURL
}

func newHarness(t *testing.T, mod func(*twilio.Config)) *harness {
	h := &harness{t: t, tw: newFakeTwilio(t)}
	var handler http.Handler
	ours := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(ours.Close)
	h.hook = ours.URL + "/voice/twilio/status"
	cfg := twilio.Config{
		BaseURL: h.tw.srv.URL, AccountSID: accountSID, AuthToken: authToken, StatusCallbackURL: h.hook,
		Client: outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: []string{"127.0.0.1"}}}),
	}
	if mod != nil {
		mod(&cfg)
	}
	p, err := twilio.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	handler = p.StatusHandler()
	return h
}

type reports chan telephony.Progress

func (r reports) report(p telephony.Progress) { r <- p }

func (r reports) next(t *testing.T, kind telephony.Kind) telephony.Progress {
	t.Helper()
	select {
	case p := <-r:
		if p.Kind != kind {
			t.Fatalf("report %+v, want %s", p, kind)
		}
		return p
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s report", kind)
	}
	return telephony.Progress{}
}

func (r reports) none(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case p := <-r:
		t.Fatalf("unexpected report %+v", p)
	case <-time.After(d):
	}
}

func (h *harness) dial(req telephony.CallRequest) (telephony.Call, reports, string) {
	h.t.Helper()
	rep := make(reports, 32)
	if req.From == "" {
		req.From, req.To = ourNumber, "+15557654321"
	}
	c, err := h.p.Dial(context.Background(), req, rep.report)
	if err != nil {
		h.t.Fatal(err)
	}
	d := rep.next(h.t, telephony.Dialing)
	if !strings.HasPrefix(d.ProviderCallID, "CA") {
		h.t.Fatalf("Dialing without the sid: %+v", d)
	}
	return c, rep, d.ProviderCallID
}

func TestDialRequestAndProgress(t *testing.T) {
	h := newHarness(t, nil)
	c, rep, sid := h.dial(telephony.CallRequest{CallID: "call-1", From: ourNumber, To: "+15557654321", RingTimeout: 20 * time.Second})
	form := h.tw.call(sid)
	if form.Get("To") != "+15557654321" || form.Get("From") != ourNumber || form.Get("Timeout") != "20" {
		t.Fatalf("form %v", form)
	}
	if tw := form.Get("Twiml"); tw != `<Response><Pause length="14400"/></Response>` {
		t.Fatalf("Twiml %q", tw)
	}
	if cb := form.Get("StatusCallback"); !strings.HasPrefix(cb, h.hook+"?strata_call=") {
		t.Fatalf("StatusCallback %q", cb)
	}
	if form.Get("Record") != "" {
		t.Fatalf("Record set on a call that did not ask")
	}

	ts := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	stamp := func(d time.Duration) string { return ts.Add(d).Format(time.RFC1123Z) }
	mustOK := func(code int) {
		t.Helper()
		if code/100 != 2 {
			t.Fatalf("callback answered %d", code)
		}
	}
	mustOK(h.tw.callback(sid, status("initiated", "Timestamp", stamp(0)))) // Dialing already reported
	mustOK(h.tw.callback(sid, status("ringing", "Timestamp", stamp(time.Second))))
	r := rep.next(t, telephony.Ringing)
	if !r.At.Equal(ts.Add(time.Second)) || r.ProviderCallID != sid {
		t.Fatalf("Ringing %+v", r)
	}
	mustOK(h.tw.callback(sid, status("ringing", "Timestamp", stamp(time.Second)))) // Twilio's retry
	mustOK(h.tw.callback(sid, status("in-progress", "Timestamp", stamp(5*time.Second), "SipResponseCode", "200")))
	a := rep.next(t, telephony.Answered)
	if a.SIPCode != 200 {
		t.Fatalf("Answered %+v", a)
	}
	mustOK(h.tw.callback(sid, status("ringing"))) // late, overtaken
	mustOK(h.tw.callback(sid, status("completed", "Timestamp", stamp(47*time.Second), "CallDuration", "42", "SipResponseCode", "200")))
	e := rep.next(t, telephony.Ended)
	if e.Outcome != telephony.Completed || e.Reason != "remote_hangup" || e.SIPCode != 200 || e.Recording != nil {
		t.Fatalf("Ended %+v", e)
	}
	mustOK(h.tw.callback(sid, status("completed", "CallDuration", "42")))
	mustOK(h.tw.callback(sid, status("failed")))
	rep.none(t, 100*time.Millisecond)
	if err := c.Hangup(context.Background()); !errors.Is(err, telephony.ErrCallOver) {
		t.Fatalf("Hangup after the end: %v", err)
	}
}

func TestEndings(t *testing.T) {
	for _, tc := range []struct {
		status, sip string
		ring        bool
		outcome     telephony.Outcome
		reason      string
		code        int
	}{
		{"busy", "486", true, telephony.Busy, "sip_486", 486},
		{"busy", "", false, telephony.Busy, "busy", 0},
		{"no-answer", "487", true, telephony.NoAnswer, "sip_487", 487},
		{"no-answer", "", true, telephony.NoAnswer, "ring_timeout", 0},
		{"failed", "404", false, telephony.Failed, "sip_404", 404},
		{"failed", "", false, telephony.Failed, "provider_failed", 0},
		{"canceled", "", true, telephony.Canceled, "caller_cancel", 0},
	} {
		t.Run(tc.status+tc.sip, func(t *testing.T) {
			h := newHarness(t, nil)
			_, rep, sid := h.dial(telephony.CallRequest{})
			if tc.ring {
				h.tw.callback(sid, status("ringing"))
				rep.next(t, telephony.Ringing)
			}
			h.tw.callback(sid, status(tc.status, "SipResponseCode", tc.sip))
			e := rep.next(t, telephony.Ended)
			if e.Outcome != tc.outcome || e.Reason != tc.reason || e.SIPCode != tc.code {
				t.Fatalf("Ended %+v", e)
			}
			h.tw.callback(sid, status("completed"))
			rep.none(t, 50*time.Millisecond)
		})
	}
}

// A completed callback whose answered one was lost still reports the
// answer (at the end less the duration) before the end.
func TestCompletedImpliesAnswered(t *testing.T) {
	h := newHarness(t, nil)
	_, rep, sid := h.dial(telephony.CallRequest{})
	end := time.Date(2026, 3, 1, 10, 1, 0, 0, time.UTC)
	h.tw.callback(sid, status("completed", "CallDuration", "30", "Timestamp", end.Format(time.RFC1123Z)))
	a := rep.next(t, telephony.Answered)
	if !a.At.Equal(end.Add(-30 * time.Second)) {
		t.Fatalf("Answered at %v", a.At)
	}
	if e := rep.next(t, telephony.Ended); e.Outcome != telephony.Completed {
		t.Fatalf("Ended %+v", e)
	}
}

// A callback that reaches us before Twilio's answer to the create: one
// Dialing, then Ringing, in order.
func TestCallbackBeforeCreateAnswer(t *testing.T) {
	h := newHarness(t, nil)
	h.tw.beforeAnswer = func(sid string, form url.Values) {
		if code := postSigned(t, form.Get("StatusCallback"), authToken, sid, status("ringing")); code/100 != 2 {
			t.Errorf("callback answered %d", code)
		}
	}
	_, rep, sid := h.dial(telephony.CallRequest{})
	rep.next(t, telephony.Ringing)
	h.tw.callback(sid, status("in-progress"))
	rep.next(t, telephony.Answered)
}

func TestStatusCallbackSignature(t *testing.T) {
	h := newHarness(t, nil)
	_, rep, sid := h.dial(telephony.CallRequest{})
	cb := h.tw.call(sid).Get("StatusCallback")
	for name, code := range map[string]int{
		"wrong token": postSigned(t, cb, "not-the-token", sid, status("ringing")),
		// Signed for another URL (the query naming another call).
		"wrong url": func() int {
			form := url.Values{"AccountSid": {accountSID}, "CallSid": {sid}, "CallStatus": {"ringing"}}
			req, _ := http.NewRequest(http.MethodPost, cb, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Twilio-Signature", twilioSign(authToken, h.hook+"?strata_call=other", form))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}(),
		"unsigned": func() int {
			resp, err := http.PostForm(cb, url.Values{"CallSid": {sid}, "CallStatus": {"ringing"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}(),
	} {
		if code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, code)
		}
	}
	rep.none(t, 100*time.Millisecond)
	if code := h.tw.callback(sid, status("ringing")); code/100 != 2 {
		t.Fatalf("signed callback answered %d", code)
	}
	rep.next(t, telephony.Ringing)
}

func TestRecording(t *testing.T) {
	for _, recordingFirst := range []bool{false, true} {
		t.Run(fmt.Sprint("recordingFirst=", recordingFirst), func(t *testing.T) {
			h := newHarness(t, nil)
			_, rep, sid := h.dial(telephony.CallRequest{Record: true})
			form := h.tw.call(sid)
			if form.Get("Record") != "true" || form.Get("RecordingStatusCallback") != form.Get("StatusCallback") ||
				form.Get("RecordingStatusCallbackMethod") != "POST" {
				t.Fatalf("form %v", form)
			}
			h.tw.callback(sid, status("in-progress"))
			rep.next(t, telephony.Answered)
			recording := url.Values{"RecordingSid": {"RE1"}, "RecordingStatus": {"completed"}, "RecordingDuration": {"2"},
				"RecordingUrl": {h.tw.srv.URL + "/2010-04-01/Accounts/" + accountSID + "/Recordings/RE1"}}
			if recordingFirst {
				h.tw.callback(sid, recording)
				rep.none(t, 100*time.Millisecond)
				h.tw.callback(sid, status("completed", "CallDuration", "2"))
			} else {
				h.tw.callback(sid, status("completed", "CallDuration", "2"))
				rep.none(t, 100*time.Millisecond) // Ended waits for the recording
				h.tw.callback(sid, recording)
			}
			e := rep.next(t, telephony.Ended)
			if e.Recording == nil || e.Recording.SampleRate != 8000 || e.Recording.Samples != 16000 ||
				e.Recording.Duration() != 2*time.Second || !bytes.Equal(e.Recording.WAV, h.tw.wav) {
				t.Fatalf("Ended %+v (recording %+v)", e, e.Recording)
			}
			h.tw.callback(sid, recording)
			rep.none(t, 50*time.Millisecond)
			if h.tw.recordingGets() != 1 {
				t.Fatalf("fetched the recording %d times", h.tw.recordingGets())
			}
		})
	}
}

func TestRecordingThatNeverComes(t *testing.T) {
	h := newHarness(t, func(c *twilio.Config) { c.RecordingWait = 150 * time.Millisecond })
	_, rep, sid := h.dial(telephony.CallRequest{Record: true})
	h.tw.callback(sid, status("in-progress"))
	rep.next(t, telephony.Answered)
	h.tw.callback(sid, status("completed"))
	if e := rep.next(t, telephony.Ended); e.Recording != nil || e.Outcome != telephony.Completed {
		t.Fatalf("Ended %+v", e)
	}
	// An unanswered recorded call ends at once, without a recording.
	_, rep, sid = h.dial(telephony.CallRequest{Record: true})
	h.tw.callback(sid, status("no-answer"))
	if e := rep.next(t, telephony.Ended); e.Recording != nil || e.Outcome != telephony.NoAnswer {
		t.Fatalf("Ended %+v", e)
	}
}

func TestHangup(t *testing.T) {
	h := newHarness(t, nil)
	c, rep, sid := h.dial(telephony.CallRequest{})
	h.tw.callback(sid, status("ringing"))
	rep.next(t, telephony.Ringing)
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if u := h.tw.updatesOf(sid); len(u) != 1 || u[0].Get("Status") != "canceled" {
		t.Fatalf("updates %v", u)
	}
	h.tw.callback(sid, status("canceled"))
	if e := rep.next(t, telephony.Ended); e.Outcome != telephony.Canceled || e.Reason != "local_hangup" {
		t.Fatalf("Ended %+v", e)
	}

	c, rep, sid = h.dial(telephony.CallRequest{})
	h.tw.callback(sid, status("in-progress"))
	rep.next(t, telephony.Answered)
	if err := c.Hangup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if u := h.tw.updatesOf(sid); len(u) != 1 || u[0].Get("Status") != "completed" {
		t.Fatalf("updates %v", u)
	}
	h.tw.callback(sid, status("completed", "CallDuration", "3"))
	if e := rep.next(t, telephony.Ended); e.Outcome != telephony.Completed || e.Reason != "local_hangup" {
		t.Fatalf("Ended %+v", e)
	}
}

func TestTransfer(t *testing.T) {
	h := newHarness(t, nil)
	c, rep, sid := h.dial(telephony.CallRequest{})
	if err := c.Transfer(context.Background(), "+15559990000", false); !errors.Is(err, telephony.ErrTransfer) {
		t.Fatalf("transfer before the answer: %v", err)
	}
	h.tw.callback(sid, status("in-progress"))
	rep.next(t, telephony.Answered)
	if err := c.Transfer(context.Background(), "+15559990000", true); !errors.Is(err, telephony.ErrTransfer) {
		t.Fatalf("warm transfer: %v", err)
	}
	if err := c.Transfer(context.Background(), "+15559990000", false); err != nil {
		t.Fatal(err)
	}
	u := h.tw.updatesOf(sid)
	if len(u) != 1 || u[0].Get("Twiml") != `<Response><Dial callerId="`+ourNumber+`">+15559990000</Dial></Response>` {
		t.Fatalf("updates %v", u)
	}
	if tr := rep.next(t, telephony.Transferred); tr.Target != "+15559990000" {
		t.Fatalf("Transferred %+v", tr)
	}
	// TwiML injection through the target is escaped.
	if err := c.Transfer(context.Background(), "</Dial><Play>x</Play>", false); err != nil {
		t.Fatal(err)
	}
	if tw := h.tw.updatesOf(sid)[1].Get("Twiml"); strings.Contains(tw, "<Play>") {
		t.Fatalf("unescaped target: %s", tw)
	}
}

func TestDialRejected(t *testing.T) {
	h := newHarness(t, nil)
	rep := make(reports, 4)
	_, err := h.p.Dial(context.Background(), telephony.CallRequest{From: ourNumber, To: "+15005550001"}, rep.report)
	var apiErr *twilio.APIError
	if !errors.Is(err, telephony.ErrRejected) || !errors.As(err, &apiErr) || apiErr.Code != 21217 {
		t.Fatalf("err = %v", err)
	}
	rep.none(t, 50*time.Millisecond)
}

func TestSendSMS(t *testing.T) {
	h := newHarness(t, nil)
	res, err := h.p.SendSMS(context.Background(), telephony.SMSRequest{MessageID: "m1", From: ourNumber, To: "+15557654321",
		Body: "hello", MediaURLs: []string{"https://cdn.example/a.png", "https://cdn.example/b.png"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.ProviderID, "SM") || res.Status != "queued" {
		t.Fatalf("result %+v", res)
	}
	m := h.tw.message(0)
	if m.Get("Body") != "hello" || m.Get("To") != "+15557654321" || m.Get("From") != ourNumber ||
		len(m["MediaUrl"]) != 2 || m.Get("StatusCallback") != h.hook {
		t.Fatalf("form %v", m)
	}
	_, err = h.p.SendSMS(context.Background(), telephony.SMSRequest{From: ourNumber, To: "+15005550001", Body: "x"})
	if !errors.Is(err, telephony.ErrRejected) || !strings.Contains(err.Error(), "21211") || !strings.Contains(err.Error(), "not a valid phone number") {
		t.Fatalf("err = %v", err)
	}
}

func TestMessageStatusCallback(t *testing.T) {
	got := make(chan twilio.MessageStatus, 1)
	h := newHarness(t, func(c *twilio.Config) { c.OnMessageStatus = func(m twilio.MessageStatus) { got <- m } })
	form := url.Values{"AccountSid": {accountSID}, "MessageSid": {"SM1"}, "MessageStatus": {"delivered"}}
	req, _ := http.NewRequest(http.MethodPost, h.hook, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Twilio-Signature", twilioSign(authToken, h.hook, form))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if m := <-got; m.ProviderID != "SM1" || m.Status != "delivered" {
		t.Fatalf("status %+v", m)
	}
}

func TestPing(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.p.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	bad, err := twilio.New(twilio.Config{BaseURL: h.tw.srv.URL, AccountSID: accountSID, AuthToken: "wrong",
		Client: outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), "20003") {
		t.Fatalf("Ping with a wrong token: %v", err)
	}
}

// Without an allowance the outbound client refuses the loopback fake: the
// adapter does go through it.
func TestUsesOutboundClient(t *testing.T) {
	tw := newFakeTwilio(t)
	p, err := twilio.New(twilio.Config{BaseURL: tw.srv.URL, AccountSID: accountSID, AuthToken: authToken,
		Client: outbound.New(outbound.Config{})})
	if err != nil {
		t.Fatal(err)
	}
	var ref *outbound.Refused
	if err := p.Ping(context.Background()); !errors.As(err, &ref) || ref.Rule != "loopback" {
		t.Fatalf("Ping: %v", err)
	}
}

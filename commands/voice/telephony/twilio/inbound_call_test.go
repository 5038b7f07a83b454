package twilio_test

import (
	"context"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/twilio"
)

// twiml is a parsed TwiML document.
type twiml struct {
	XMLName xml.Name `xml:"Response"`
	Verbs   []node   `xml:",any"`
}

type node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []node     `xml:",any"`
}

func (n node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (t twiml) names() []string {
	var out []string
	for _, v := range t.Verbs {
		out = append(out, v.XMLName.Local)
	}
	return out
}

// inHarness hosts the adapter's webhooks on a real HTTP server and plays
// Twilio: it signs and posts webhooks and reads the TwiML answers.
type inHarness struct {
	t      *testing.T
	p      *twilio.Provider
	voice  string // VoiceURL
	status string // StatusCallbackURL

	mu         sync.Mutex
	recStarts  []url.Values
	recStartOK bool
	api        *httptest.Server
}

func newInHarness(t *testing.T, mod func(*twilio.Config)) *inHarness {
	h := &inHarness{t: t, recStartOK: true}
	// The REST API, for the recordings of inbound calls.
	h.api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prefix := "/2010-04-01/Accounts/" + accountSID
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/Recordings.json") && strings.HasPrefix(r.URL.Path, prefix+"/Calls/"):
			r.ParseForm()
			h.mu.Lock()
			h.recStarts = append(h.recStarts, r.PostForm)
			ok := h.recStartOK
			h.mu.Unlock()
			if !ok {
				twilioError(w, 400, 21220, "Invalid call state for recording")
				return
			}
			writeJSON(w, 201, map[string]any{"sid": "RE0001", "status": "in-progress"})
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, prefix+"/Recordings/"):
			w.Header().Set("Content-Type", "audio/x-wav")
			w.Write(makeWAV(8000))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(h.api.Close)
	mux := http.NewServeMux()
	ours := httptest.NewServer(mux)
	t.Cleanup(ours.Close)
	h.voice, h.status = ours.URL+"/api/v1/providers/twilio/voice", ours.URL+"/api/v1/providers/twilio/status"
	cfg := twilio.Config{BaseURL: h.api.URL, AccountSID: accountSID, AuthToken: authToken,
		StatusCallbackURL: h.status, VoiceURL: h.voice, AudioURL: ours.URL + "/api/v1/providers/twilio/audio",
		Client:        outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: []string{"127.0.0.1"}}}),
		GatherTimeout: time.Second, AnswerWait: 2 * time.Second, ReplyWait: time.Second, Settle: 50 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	p, err := twilio.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	mux.Handle("/api/v1/providers/twilio/voice", p.VoiceHandler())
	mux.Handle("/api/v1/providers/twilio/status", p.StatusHandler())
	mux.Handle("/api/v1/providers/twilio/audio/", p.AudioHandler())
	return h
}

// post signs form for target and posts it: the status and, on 200, the
// TwiML.
func (h *inHarness) post(target, sig string, form url.Values) (int, twiml) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if sig == "" {
		sig = twilioSign(authToken, target, form)
	}
	req.Header.Set("X-Twilio-Signature", sig)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var doc twiml
	if resp.StatusCode == http.StatusOK {
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/xml") {
			h.t.Fatalf("TwiML content type %q", ct)
		}
		if err := xml.Unmarshal(b, &doc); err != nil {
			h.t.Fatalf("TwiML %q: %v", b, err)
		}
	}
	return resp.StatusCode, doc
}

func callForm(sid, from string, kv ...string) url.Values {
	f := url.Values{"AccountSid": {accountSID}, "CallSid": {sid}, "From": {from}, "To": {ourNumber},
		"CallStatus": {"ringing"}, "Direction": {"inbound"}, "ApiVersion": {"2010-04-01"}}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

// arrive posts the voice webhook of a new call and wants 200.
func (h *inHarness) arrive(sid, from string) twiml {
	h.t.Helper()
	code, doc := h.post(h.voice, "", callForm(sid, from))
	if code != http.StatusOK {
		h.t.Fatalf("voice webhook: HTTP %d", code)
	}
	return doc
}

// gather checks doc is <Gather> then <Redirect> to the same action and
// returns the Gather.
func (h *inHarness) gather(doc twiml) node {
	h.t.Helper()
	if n := doc.names(); len(n) != 2 || n[0] != "Gather" || n[1] != "Redirect" {
		h.t.Fatalf("TwiML verbs %v, want [Gather Redirect]", n)
	}
	g := doc.Verbs[0]
	action := g.attr("action")
	if !strings.HasPrefix(action, h.voice+"?strata_call=") || doc.Verbs[1].Text != action {
		h.t.Fatalf("Gather action %q, Redirect %q", action, doc.Verbs[1].Text)
	}
	if g.attr("input") != "dtmf" || g.attr("numDigits") != "1" || g.attr("timeout") != "1" || g.attr("method") != "POST" {
		h.t.Fatalf("Gather attributes %v", g.Attrs)
	}
	return g
}

// fetchWAV gets a <Play> URL and checks it is the 8 kHz 16-bit mono WAV
// of samples samples.
func (h *inHarness) fetchWAV(u string, samples int) {
	h.t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "audio/wav" {
		h.t.Fatalf("GET %s: HTTP %d %s", u, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	le := binary.LittleEndian
	if len(b) < 44 || string(b[0:4]) != "RIFF" || string(b[8:16]) != "WAVEfmt " || string(b[36:40]) != "data" {
		h.t.Fatalf("not a WAV: % x", b[:min(len(b), 44)])
	}
	if le.Uint32(b[4:]) != uint32(len(b)-8) || le.Uint16(b[20:]) != 1 || le.Uint16(b[22:]) != 1 ||
		le.Uint32(b[24:]) != 8000 || le.Uint32(b[28:]) != 16000 || le.Uint16(b[32:]) != 2 || le.Uint16(b[34:]) != 16 {
		h.t.Fatalf("WAV header % x", b[:44])
	}
	if n := le.Uint32(b[40:]); int(n) != 2*samples || len(b) != 44+2*samples {
		h.t.Fatalf("WAV data %d bytes (file %d), want %d", n, len(b), 2*samples)
	}
}

func tone(ms int) []int16 {
	out := make([]int16, 8*ms)
	for i := range out {
		out[i] = int16(12000 * math.Sin(2*math.Pi*440*float64(i)/8000))
	}
	return out
}

// ivr mimics the voice service's IVR: answer, play a prompt, wait for a
// key; "1" plays another prompt and waits again, "9" hangs up, "0"
// transfers. Every report also goes to the reports channel.
type ivr struct {
	reports reports
	ctxDone chan struct{}
	errs    chan error
	record  bool
}

func newIVR() *ivr {
	return &ivr{reports: make(reports, 64), ctxDone: make(chan struct{}), errs: make(chan error, 8)}
}

func (v *ivr) handle(ctx context.Context, in telephony.Inbound) {
	defer func() {
		<-ctx.Done()
		close(v.ctxDone)
	}()
	if in.From == "+15550009999" {
		if err := in.Reject(ctx, 486, "Busy Here"); err != nil {
			v.errs <- err
		}
		return
	}
	if in.From == "+15550008888" {
		return // never answers
	}
	digits := make(chan string, 16)
	if err := in.Answer(ctx, v.record, func(p telephony.Progress) {
		if p.Kind == telephony.Digit {
			digits <- p.Digit
		}
		v.reports <- p
	}); err != nil {
		v.errs <- err
		return
	}
	if err := in.Play(ctx, tone(200)); err != nil {
		v.errs <- err
		return
	}
	for {
		select {
		case d := <-digits:
			switch d {
			case "1":
				if err := in.Play(ctx, tone(300)); err != nil {
					v.errs <- err
					return
				}
			case "9":
				if err := in.Call.Hangup(ctx); err != nil {
					v.errs <- err
				}
				return
			case "0":
				if err := in.Call.Transfer(ctx, "+15550007777", false); err != nil {
					v.errs <- err
				}
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

func TestInboundIVR(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	h.p.Receive(v.handle)
	const sid = "CA00000000000000000000000000000001"

	doc := h.arrive(sid, "+15551234567")
	g := h.gather(doc)
	if len(g.Children) != 1 || g.Children[0].XMLName.Local != "Play" {
		t.Fatalf("Gather children %+v, want one Play", g.Children)
	}
	play := strings.TrimSpace(g.Children[0].Text)
	h.fetchWAV(play, 1600)
	action := g.attr("action")

	// A key: the handler's report sees it, and its next prompt is the answer.
	code, doc := h.post(action, "", callForm(sid, "+15551234567", "CallStatus", "in-progress", "Digits", "1"))
	if code != 200 {
		t.Fatalf("action: HTTP %d", code)
	}
	if d := v.reports.next(t, telephony.Digit); d.Digit != "1" || d.ProviderCallID != sid {
		t.Fatalf("digit report %+v", d)
	}
	g = h.gather(doc)
	if len(g.Children) != 1 || g.Children[0].XMLName.Local != "Play" {
		t.Fatalf("after 1: Gather children %+v, want one Play", g.Children)
	}
	second := strings.TrimSpace(g.Children[0].Text)
	if second == play {
		t.Fatal("the second prompt has the first one's URL")
	}
	h.fetchWAV(second, 2400)

	// Silence: Twilio follows the Redirect; nothing to play, gather again.
	code, doc = h.post(action, "", callForm(sid, "+15551234567", "CallStatus", "in-progress"))
	if code != 200 {
		t.Fatalf("redirect: HTTP %d", code)
	}
	if g = h.gather(doc); len(g.Children) != 0 {
		t.Fatalf("an empty poll answered %+v", g.Children)
	}

	// 9 hangs up: <Hangup/>, and Ended at once.
	code, doc = h.post(action, "", callForm(sid, "+15551234567", "CallStatus", "in-progress", "Digits", "9"))
	if code != 200 {
		t.Fatalf("action 9: HTTP %d", code)
	}
	if n := doc.names(); len(n) != 1 || n[0] != "Hangup" {
		t.Fatalf("after 9: verbs %v, want [Hangup]", n)
	}
	v.reports.next(t, telephony.Digit)
	if e := v.reports.next(t, telephony.Ended); e.Outcome != telephony.Completed || e.Reason != "local_hangup" {
		t.Fatalf("end %+v", e)
	}
	select {
	case <-v.ctxDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context did not end with the call")
	}
	// The call is over: its action is refused, its status callback ignored.
	if code, _ := h.post(action, "", callForm(sid, "+15551234567", "Digits", "1")); code != http.StatusNotFound {
		t.Fatalf("action after the end: HTTP %d, want 404", code)
	}
	if code := postSigned(t, h.status, authToken, sid, status("completed", "CallDuration", "7")); code != http.StatusNoContent {
		t.Fatalf("status after the end: HTTP %d", code)
	}
	v.reports.none(t, 200*time.Millisecond)
	select {
	case err := <-v.errs:
		t.Fatalf("handler error: %v", err)
	default:
	}
}

func TestInboundReject(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	h.p.Receive(v.handle)
	doc := h.arrive("CA00000000000000000000000000000002", "+15550009999")
	if n := doc.names(); len(n) != 1 || n[0] != "Reject" || doc.Verbs[0].attr("reason") != "busy" {
		t.Fatalf("TwiML %+v, want <Reject reason=\"busy\"/>", doc.Verbs)
	}
	<-v.ctxDone
	select {
	case err := <-v.errs:
		t.Fatalf("Reject: %v", err)
	default:
	}
}

func TestInboundNeverAnswered(t *testing.T) {
	h := newInHarness(t, func(c *twilio.Config) { c.AnswerWait = 300 * time.Millisecond })
	v := newIVR()
	h.p.Receive(v.handle)
	start := time.Now()
	doc := h.arrive("CA00000000000000000000000000000003", "+15550008888")
	if n := doc.names(); len(n) != 1 || n[0] != "Reject" || doc.Verbs[0].attr("reason") != "rejected" {
		t.Fatalf("TwiML %+v, want <Reject reason=\"rejected\"/>", doc.Verbs)
	}
	if el := time.Since(start); el < 250*time.Millisecond || el > 3*time.Second {
		t.Fatalf("answered after %v", el)
	}
	<-v.ctxDone
}

func TestInboundWebhookChecks(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	h.p.Receive(v.handle)
	const sid = "CA00000000000000000000000000000004"
	form := callForm(sid, "+15551234567")
	// A bad signature (signed with another token, or for another URL).
	if code, _ := h.post(h.voice, twilioSign("not-the-token", h.voice, form), form); code != http.StatusForbidden {
		t.Fatalf("bad signature: HTTP %d, want 403", code)
	}
	if code, _ := h.post(h.voice, twilioSign(authToken, h.voice+"?x=1", form), form); code != http.StatusForbidden {
		t.Fatalf("signature for another URL: HTTP %d, want 403", code)
	}
	select {
	case p := <-v.reports:
		t.Fatalf("a refused webhook reached the handler: %+v", p)
	case <-time.After(100 * time.Millisecond):
	}
	// An action for a call nobody holds.
	if code, _ := h.post(h.voice+"?strata_call=0123456789abcdef0123456789abcdef", "", callForm(sid, "+15551234567", "Digits", "1")); code != http.StatusNotFound {
		t.Fatalf("unknown call: HTTP %d, want 404", code)
	}
	action := h.gather(h.arrive(sid, "+15551234567")).attr("action")
	// The action with a valid signature but another CallSid.
	if code, _ := h.post(action, "", callForm("CA00000000000000000000000000000999", "+15551234567", "Digits", "1")); code != http.StatusNotFound {
		t.Fatalf("action with another CallSid: HTTP %d, want 404", code)
	}
	// The action with a bad signature.
	f := callForm(sid, "+15551234567", "Digits", "9")
	if code, _ := h.post(action, twilioSign(authToken, h.voice, f), f); code != http.StatusForbidden {
		t.Fatalf("action without its query in the signature: HTTP %d, want 403", code)
	}
	v.reports.none(t, 100*time.Millisecond)
	// A body over 64 KiB.
	big := callForm(sid, "+15551234567", "Digits", strings.Repeat("1", 70<<10))
	if code, _ := h.post(action, "", big); code != http.StatusBadRequest {
		t.Fatalf("large body: HTTP %d, want 400", code)
	}
	// GET is not a webhook; audio tokens are not guessable.
	if resp, err := http.Get(h.voice); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET voice: %v %v", resp, err)
	}
	if resp, err := http.Get(strings.TrimSuffix(h.voice, "voice") + "audio/0123456789abcdef0123456789abcdef.wav"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET unknown audio: %v %v", resp, err)
	}
}

func TestInboundStatusCallbackEnds(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	h.p.Receive(v.handle)
	const sid = "CA00000000000000000000000000000005"
	action := h.gather(h.arrive(sid, "+15551234567")).attr("action")
	// The caller hangs up: the number's status callback says completed.
	if code := postSigned(t, h.status, authToken, sid, status("completed", "CallDuration", "12")); code != http.StatusNoContent {
		t.Fatalf("status: HTTP %d", code)
	}
	if e := v.reports.next(t, telephony.Ended); e.Outcome != telephony.Completed || e.Reason != "remote_hangup" || e.ProviderCallID != sid {
		t.Fatalf("end %+v", e)
	}
	select {
	case <-v.ctxDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context did not end")
	}
	if code, _ := h.post(action, "", callForm(sid, "+15551234567", "Digits", "1")); code != http.StatusNotFound {
		t.Fatalf("action after the end: HTTP %d, want 404", code)
	}
	v.reports.none(t, 200*time.Millisecond)
}

func TestInboundCallerGoneBeforeAnswer(t *testing.T) {
	h := newInHarness(t, func(c *twilio.Config) { c.AnswerWait = 5 * time.Second })
	answered := make(chan error, 1)
	h.p.Receive(func(ctx context.Context, in telephony.Inbound) {
		<-ctx.Done() // the handler is slow; the caller hangs up meanwhile
		answered <- in.Answer(context.Background(), false, func(telephony.Progress) {})
	})
	const sid = "CA00000000000000000000000000000006"
	done := make(chan twiml, 1)
	go func() { done <- h.arrive(sid, "+15551234567") }()
	time.Sleep(200 * time.Millisecond)
	if code := postSigned(t, h.status, authToken, sid, status("canceled")); code != http.StatusNoContent {
		t.Fatalf("status: HTTP %d", code)
	}
	if err := <-answered; !errors.Is(err, telephony.ErrCallOver) {
		t.Fatalf("Answer after the caller left: %v", err)
	}
	if doc := <-done; len(doc.names()) != 1 || doc.names()[0] != "Hangup" {
		t.Fatalf("held webhook answered %v", doc.names())
	}
}

func TestInboundTransfer(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	h.p.Receive(v.handle)
	const sid = "CA00000000000000000000000000000007"
	action := h.gather(h.arrive(sid, "+15551234567")).attr("action")
	code, doc := h.post(action, "", callForm(sid, "+15551234567", "CallStatus", "in-progress", "Digits", "0"))
	if code != 200 {
		t.Fatalf("action: HTTP %d", code)
	}
	if n := doc.names(); len(n) != 1 || n[0] != "Dial" || doc.Verbs[0].attr("callerId") != ourNumber || strings.TrimSpace(doc.Verbs[0].Text) != "+15550007777" {
		t.Fatalf("TwiML %+v, want <Dial>", doc.Verbs)
	}
	v.reports.next(t, telephony.Digit)
	if p := v.reports.next(t, telephony.Transferred); p.Target != "+15550007777" {
		t.Fatalf("transfer %+v", p)
	}
	if code := postSigned(t, h.status, authToken, sid, status("completed", "CallDuration", "30")); code != http.StatusNoContent {
		t.Fatalf("status: HTTP %d", code)
	}
	if e := v.reports.next(t, telephony.Ended); e.Outcome != telephony.Completed {
		t.Fatalf("end %+v", e)
	}
}

func TestInboundRecording(t *testing.T) {
	h := newInHarness(t, nil)
	v := newIVR()
	v.record = true
	h.p.Receive(v.handle)
	const sid = "CA00000000000000000000000000000008"
	h.gather(h.arrive(sid, "+15551234567"))
	var start url.Values
	for deadline := time.Now().Add(5 * time.Second); start == nil; time.Sleep(20 * time.Millisecond) {
		h.mu.Lock()
		if len(h.recStarts) > 0 {
			start = h.recStarts[0]
		}
		h.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the recording was not started")
		}
	}
	cb := start.Get("RecordingStatusCallback")
	if !strings.HasPrefix(cb, h.status+"?strata_call=") || start.Get("RecordingChannels") != "mono" {
		t.Fatalf("recording request %v", start)
	}
	if code := postSigned(t, h.status, authToken, sid, status("completed", "CallDuration", "3")); code != http.StatusNoContent {
		t.Fatalf("status: HTTP %d", code)
	}
	v.reports.none(t, 200*time.Millisecond) // Ended waits for the recording
	if code := postSigned(t, cb, authToken, sid, url.Values{"RecordingSid": {"RE0001"}, "RecordingStatus": {"completed"},
		"RecordingUrl": {h.api.URL + "/2010-04-01/Accounts/" + accountSID + "/Recordings/RE0001"}}); code != http.StatusNoContent {
		t.Fatalf("recording callback: HTTP %d", code)
	}
	e := v.reports.next(t, telephony.Ended)
	if e.Recording == nil || e.Recording.Samples != 8000 || e.Recording.Duration() != time.Second {
		t.Fatalf("end %+v", e)
	}
}

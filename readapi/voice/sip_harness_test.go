package voice_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/transcribe"
	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/commands/voice/telephony/sip"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
)

// Service-level tests over a real SIP adapter (commands/voice/telephony/sip)
// and SIPp on loopback: the API places or takes the call, and each test
// checks the call's event stream, the status callbacks a receiver got and
// what the API shows.

// The tenant's line and the numbers its calls reach.
const (
	sipLine   = "+14155550100"
	sipCallee = "+14155550123"
	sipCaller = "+15550003333"
	sipTarget = "+15550004444"
)

// sipWorld is the harness with a SIP adapter, a tenant user owning
// sipLine, and (for outbound tests) the SIPp UAS its trunk points at.
type sipWorld struct {
	*world
	prov   *sip.Provider
	sipp   *sipptest.Proc
	u      *user
	lineID string
}

// sipConfig tunes startSIP.
type sipConfig struct {
	// Scenario is the SIPp UAS the trunk points at; empty for inbound
	// tests (the trunk then points nowhere).
	Scenario string
	Sipp     sipptest.Options
	// RingTimeout of the adapter (0: telephony.DefaultRingTimeout).
	RingTimeout time.Duration
	// Transcriber transcribes the recordings (none when nil).
	Transcriber transcribe.Transcriber
}

// startSIP starts SIPp (when c.Scenario is set), the adapter and the
// harness. The adapter stamps its reports with a clock that runs from the
// harness's (fixed) clock, so the stream's times stay in order.
func startSIP(t *testing.T, c sipConfig) *sipWorld {
	t.Helper()
	sipptest.Require(t)
	sw := &sipWorld{}
	trunk := "127.0.0.1:" + strconv.Itoa(sipptest.FreePorts(t, 1))
	if c.Scenario != "" {
		sw.sipp = sipptest.Start(t, c.Scenario, "", c.Sipp)
		trunk = sw.sipp.Addr
	}
	var base time.Time
	var t0 time.Time
	prov, err := sip.New(context.Background(), sip.Config{
		ListenAddr: "127.0.0.1:0", Trunk: trunk, Domain: "strata.test",
		RingTimeout: c.RingTimeout, TransferTimeout: 3 * time.Second,
		Logger: slog.New(slog.DiscardHandler),
		Now:    func() time.Time { return base.Add(time.Since(t0)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	sw.prov = prov
	sw.world = start(t, options{Provider: prov, Transcriber: c.Transcriber})
	base, t0 = sw.Platform.Clock.Now(), time.Now()
	t.Cleanup(prov.Close) // before the harness stops: a live call's end is still recorded
	sw.u = sw.user(t, "ann@example.com")
	sw.lineID = sw.ownNumber(t, sw.u, sipLine)
	return sw
}

// callJSON is GET /api/v1/calls/{id}.
type callJSON struct {
	ID             string  `json:"id"`
	Direction      string  `json:"direction"`
	From           *string `json:"from"`
	To             *string `json:"to"`
	Status         string  `json:"status"`
	Sequence       int     `json:"sequence"`
	SIPCode        *int    `json:"sip_code"`
	Reason         *string `json:"reason"`
	Record         bool    `json:"record"`
	OnHold         bool    `json:"on_hold"`
	Transferred    bool    `json:"transferred"`
	Duration       int     `json:"duration"`
	Provider       string  `json:"provider"`
	ProviderCallID *string `json:"provider_call_id"`
	AnsweredAt     *string `json:"answered_at"`
	EndedAt        *string `json:"ended_at"`
}

func str(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func num(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func (sw *sipWorld) getCall(t *testing.T, id string) callJSON {
	t.Helper()
	var c callJSON
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/calls/"+id, nil, &c); st != 200 {
		t.Fatalf("GET call: %d %s", st, raw)
	}
	return c
}

// waitStatus polls GET /api/v1/calls/{id} until the call has status.
func (sw *sipWorld) waitStatus(t *testing.T, id, status string) callJSON {
	t.Helper()
	var c callJSON
	eventually(t, 15*time.Second, func() (bool, string) {
		c = sw.getCall(t, id)
		return c.Status == status, "call status " + c.Status + ", want " + status
	})
	return c
}

// dial places a call from sipLine to sipCallee through the API.
func (sw *sipWorld) dial(t *testing.T, record bool, callbackURL string) callJSON {
	t.Helper()
	body := map[string]any{"from_number": sipLine, "to_number": sipCallee, "record": record}
	if callbackURL != "" {
		body["status_callback_url"] = callbackURL
	}
	var c callJSON
	if st, raw := sw.do(t, sw.u, "POST", "/api/v1/calls/outbound", body, &c); st != 201 {
		t.Fatalf("POST outbound: %d %s", st, raw)
	}
	if c.Direction != voice.Outbound || str(c.From) != sipLine || str(c.To) != sipCallee || c.Provider != "sip" {
		t.Errorf("placed call: %+v", c)
	}
	return c
}

// post sends a call command (hangup, transfer) and wants 200.
func (sw *sipWorld) post(t *testing.T, id, action string, body any) callJSON {
	t.Helper()
	var c callJSON
	if st, raw := sw.do(t, sw.u, "POST", "/api/v1/calls/"+id+"/"+action, body, &c); st != 200 {
		t.Fatalf("POST %s: %d %s", action, st, raw)
	}
	return c
}

// eventually polls cond until it holds or timeout passes.
func eventually(t *testing.T, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, why := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stream is a call's events from the store: the call's own events in
// order, and the callback attempts (voice.callback_attempted) apart,
// since they interleave with the status moves as deliveries go.
type stream struct {
	all      []eventstore.Envelope
	types    []string // every event type but the attempts
	attempts []*voice.CallbackAttempted
}

func (sw *sipWorld) stream(t *testing.T, id string) stream {
	t.Helper()
	envs, err := sw.Platform.Store.Load(context.Background(), id, eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := stream{all: envs}
	for _, e := range envs {
		if a, ok := e.Event.(*voice.CallbackAttempted); ok {
			s.attempts = append(s.attempts, a)
			continue
		}
		s.types = append(s.types, strings.TrimPrefix(e.Type, "voice."))
	}
	return s
}

// want compares the call's event types (attempts aside) exactly.
func (s stream) want(t *testing.T, types ...string) {
	t.Helper()
	if strings.Join(s.types, " ") != strings.Join(types, " ") {
		t.Fatalf("events:\n  got  %v\n  want %v", s.types, types)
	}
}

// event returns the first event of type T.
func event[T any](t *testing.T, s stream) T {
	t.Helper()
	for _, e := range s.all {
		if v, ok := e.Event.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("no %T in the stream", zero)
	return zero
}

// stepIDs maps each status move's sequence number to its event's id.
func (s stream) stepIDs() map[int]string {
	out := map[int]string{}
	for _, e := range s.all {
		switch ev := e.Event.(type) {
		case *voice.CallRequested:
			out[1] = e.EventID
		case *voice.CallDialing:
			out[ev.Seq] = e.EventID
		case *voice.CallRinging:
			out[ev.Seq] = e.EventID
		case *voice.CallAnswered:
			out[ev.Seq] = e.EventID
		case *voice.CallHeld:
			out[ev.Seq] = e.EventID
		case *voice.CallResumed:
			out[ev.Seq] = e.EventID
		case *voice.CallTransferred:
			out[ev.Seq] = e.EventID
		case *voice.CallEnded:
			out[ev.Seq] = e.EventID
		}
	}
	return out
}

// delivery is one request the callback receiver got.
type delivery struct {
	Seq      int // Strata-Sequence
	EventID  string
	Sig      string
	Body     []byte
	Answered int
	Payload  cmd.CallbackPayload
}

// receiver is a status-callback endpoint: it answers 200, except 500 the
// first time each sequence number of failOnce arrives.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      []delivery
	failOnce map[int]bool
}

func newReceiver(t *testing.T, failOnce ...int) *receiver {
	r := &receiver{failOnce: map[int]bool{}}
	for _, s := range failOnce {
		r.failOnce[s] = true
	}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d := delivery{EventID: req.Header.Get("Strata-Event-Id"), Sig: req.Header.Get("Strata-Signature"), Body: body, Answered: 200}
		d.Seq, _ = strconv.Atoi(req.Header.Get("Strata-Sequence"))
		_ = json.Unmarshal(body, &d.Payload)
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
			d.Answered = 400
		}
		r.mu.Lock()
		if d.Answered == 200 && r.failOnce[d.Seq] {
			r.failOnce[d.Seq] = false
			d.Answered = 500
		}
		r.got = append(r.got, d)
		r.mu.Unlock()
		w.WriteHeader(d.Answered)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// step is a status callback as the tests expect it.
type step struct {
	status string
	reason string // "" checks nothing
}

// checkCallbacks waits until every status move of the call was delivered,
// then checks the exact sequence the receiver got (the 500s answered for
// failOnce, each followed at once by its retry, the same event), the
// signatures, the payloads against the stream, the attempts recorded in
// the stream and GET /api/v1/calls/{id}/callbacks.
func (sw *sipWorld) checkCallbacks(t *testing.T, r *receiver, c callJSON, failed []int, want ...step) []delivery {
	t.Helper()
	eventually(t, 30*time.Second, func() (bool, string) {
		n := 0
		for _, d := range r.deliveries() {
			if d.Answered == 200 {
				n++
			}
		}
		return n >= len(want), fmt.Sprintf("%d of %d callbacks delivered: %s", n, len(want), summary(r.deliveries()))
	})
	time.Sleep(300 * time.Millisecond) // nothing more may come
	got := r.deliveries()
	// The attempts expected, in order: a sequence number of failed is
	// answered 500, then retried.
	type attempt struct{ seq, n, code int }
	var attempts []attempt
	for i := range want {
		n := 1
		if slices.Contains(failed, i+1) {
			attempts = append(attempts, attempt{i + 1, 1, 500})
			n = 2
		}
		attempts = append(attempts, attempt{i + 1, n, 200})
	}
	var wantSeq, wantAtt, wantListed []string
	for _, a := range attempts {
		ok, e := a.code == 200, "<null>"
		if !ok {
			e = "receiver answered " + strconv.Itoa(a.code)
		}
		wantSeq = append(wantSeq, fmt.Sprintf("%d:%d", a.seq, a.code))
		wantAtt = append(wantAtt, fmt.Sprintf("%d/%d:%d:%t", a.seq, a.n, a.code, ok))
		wantListed = append(wantListed, fmt.Sprintf("%d/%d:%d:%t:%t:%s", a.seq, a.n, a.code, ok, ok, e))
	}
	if g := summary(got); g != strings.Join(wantSeq, " ") {
		t.Fatalf("callbacks (sequence:answer) in arrival order:\n  got  %s\n  want %s", g, strings.Join(wantSeq, " "))
	}

	var secret struct {
		Secret string `json:"secret"`
	}
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/callbacks/signing-secret", nil, &secret); st != 200 || !strings.HasPrefix(secret.Secret, "whsec_") {
		t.Fatalf("signing secret: %d %s", st, raw)
	}
	s := sw.stream(t, c.ID)
	ids := s.stepIDs()
	var statuses []string
	for i, d := range got {
		p := d.Payload
		if err := outbound.Verify(secret.Secret, d.Sig, d.Body, 0, sw.Platform.Clock.Now()); err != nil {
			t.Errorf("callback #%d (seq %d): signature %q: %v", i, d.Seq, d.Sig, err)
		}
		if p.Sequence != d.Seq || p.ID != d.EventID || p.ID != ids[d.Seq] || p.Type != "call.status" || p.CallID != c.ID ||
			p.Direction != voice.Outbound || str(p.From) != sipLine || str(p.To) != sipCallee {
			t.Errorf("callback #%d: headers seq %d id %s, stream event %s; payload %s", i, d.Seq, d.EventID, ids[d.Seq], d.Body)
		}
		if i > 0 && got[i-1].Seq == d.Seq && string(got[i-1].Body) != string(d.Body) {
			t.Errorf("retried callback seq %d changed:\n  %s\n  %s", d.Seq, got[i-1].Body, d.Body)
		}
		if d.Answered == 200 {
			statuses = append(statuses, p.Status)
			if w := want[d.Seq-1]; p.Status != w.status || (w.reason != "" && p.Reason != w.reason) {
				t.Errorf("callback seq %d: status %q reason %q, want %q %q", d.Seq, p.Status, p.Reason, w.status, w.reason)
			}
		}
	}
	t.Logf("callback statuses: %v", statuses)

	// Every attempt is an event, in delivery order, each after the status
	// move it reports.
	var att []string
	for _, a := range s.attempts {
		att = append(att, fmt.Sprintf("%d/%d:%d:%t", a.Seq, a.Attempt, a.StatusCode, a.Delivered))
	}
	if strings.Join(att, " ") != strings.Join(wantAtt, " ") {
		t.Errorf("callback_attempted events (seq/attempt:code:delivered):\n  got  %v\n  want %v", att, wantAtt)
	}
	seen := map[string]bool{}
	for _, e := range s.all {
		seen[e.EventID] = true
		if a, ok := e.Event.(*voice.CallbackAttempted); ok && !seen[ids[a.Seq]] {
			t.Errorf("attempt %d/%d recorded before status move %d", a.Seq, a.Attempt, a.Seq)
		}
	}

	// The API lists the attempts (once the read model has them).
	type attemptJSON struct {
		Sequence   int     `json:"sequence"`
		Attempt    int     `json:"attempt"`
		URL        string  `json:"url"`
		StatusCode *int    `json:"status_code"`
		Error      *string `json:"error"`
		Delivered  bool    `json:"delivered"`
		Final      bool    `json:"final"`
	}
	var list struct {
		Items []attemptJSON `json:"items"`
		Total int           `json:"total"`
	}
	eventually(t, 10*time.Second, func() (bool, string) {
		sw.do(t, sw.u, "GET", "/api/v1/calls/"+c.ID+"/callbacks", nil, &list)
		return list.Total == len(wantAtt), fmt.Sprintf("GET callbacks: %d attempts, want %d", list.Total, len(wantAtt))
	})
	var listed []string
	for _, a := range list.Items {
		listed = append(listed, fmt.Sprintf("%d/%d:%d:%t:%t:%s", a.Sequence, a.Attempt, num(a.StatusCode), a.Delivered, a.Final, str(a.Error)))
		if a.URL != r.URL {
			t.Errorf("attempt URL %q, want %q", a.URL, r.URL)
		}
	}
	if strings.Join(listed, "\n") != strings.Join(wantListed, "\n") {
		t.Errorf("GET callbacks:\n  got  %q\n  want %q", listed, wantListed)
	}
	return got
}

func summary(ds []delivery) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d", d.Seq, d.Answered))
	}
	return strings.Join(out, " ")
}

// uuidRE matches the call id the service sends as X-Strata-Call-ID.
const uuidRE = `[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`

// outboundVars are the placeholders of the UAS scenarios for calls from
// sipLine to sipCallee (regular expressions).
func outboundVars(kv ...string) map[string]string {
	v := map[string]string{"from": regexp.QuoteMeta(sipLine), "to": regexp.QuoteMeta(sipCallee), "call_id": uuidRE,
		"target": regexp.QuoteMeta(sipTarget)}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = kv[i+1]
	}
	return v
}

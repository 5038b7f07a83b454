package voice_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/outbound"
	cmdpayments "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/commands/payments/stripemock"
	"github.com/strata-platform/strata/commands/transcribe"
	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/apidocs"
	"github.com/strata-platform/strata/readapi/httpx"
	readpayments "github.com/strata-platform/strata/readapi/payments"
	readvoice "github.com/strata-platform/strata/readapi/voice"
)

// oaProvider is a telephony provider that answers every call at once and
// sends every SMS: enough to drive each call route through its answers.
type oaProvider struct{}

func (oaProvider) Name() string               { return "fake" }
func (oaProvider) Ping(context.Context) error { return nil }
func (oaProvider) Dial(_ context.Context, req telephony.CallRequest, report telephony.Report) (telephony.Call, error) {
	c := &oaCall{report: report, record: req.Record, answered: make(chan struct{})}
	go func() {
		defer close(c.answered)
		time.Sleep(20 * time.Millisecond) // after Dial returned: the service holds the call by then
		report(telephony.Progress{Kind: telephony.Dialing, SIPCode: 100, ProviderCallID: "fake-" + req.CallID[:8]})
		report(telephony.Progress{Kind: telephony.Ringing, SIPCode: 180})
		report(telephony.Progress{Kind: telephony.Answered, SIPCode: 200})
	}()
	return c, nil
}
func (oaProvider) SendSMS(_ context.Context, req telephony.SMSRequest) (telephony.SMSResult, error) {
	return telephony.SMSResult{ProviderID: "SM" + req.MessageID[:8], Status: voice.MsgSent}, nil
}

type oaCall struct {
	report   telephony.Report
	record   bool
	answered chan struct{}
	mu       sync.Mutex
	over     bool
}

func (c *oaCall) Hangup(context.Context) error {
	<-c.answered
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over {
		return telephony.ErrCallOver
	}
	c.over = true
	p := telephony.Progress{Kind: telephony.Ended, Outcome: telephony.Completed, SIPCode: 200, Reason: "local_hangup"}
	if c.record {
		p.Recording = oaRecording()
	}
	c.report(p)
	return nil
}

func (c *oaCall) Transfer(_ context.Context, target string, _ bool) error {
	<-c.answered
	c.report(telephony.Progress{Kind: telephony.Transferred, SIPCode: 202, Target: target})
	return nil
}

// oaRecording is 0.1 s of 8 kHz 16-bit mono silence as a WAV file.
func oaRecording() *telephony.Recording {
	const samples = 800
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+2*samples))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(8000), uint32(16000), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(2*samples))
	b.Write(make([]byte, 2*samples))
	return &telephony.Recording{WAV: b.Bytes(), SampleRate: 8000, Samples: samples, Codec: "PCMU"}
}

// oaTranscriber hears the same words in every recording.
type oaTranscriber struct{}

func (oaTranscriber) Name() string        { return "fake-engine 1" }
func (oaTranscriber) Languages() []string { return []string{"en"} }
func (oaTranscriber) Transcribe(context.Context, transcribe.Audio) (transcribe.Transcript, error) {
	conf := 0.9
	text := "thanks this was a great help"
	return transcribe.Transcript{Engine: "fake-engine 1", Language: "en", Text: text, Confidence: &conf,
		Segments: []transcribe.Segment{{Start: 0, End: 100 * time.Millisecond, Text: text, Confidence: &conf}}}, nil
}

// oaHooks receives status callbacks.
type oaHooks struct {
	*httptest.Server
	mu  sync.Mutex
	got []oaHook
}

type oaHook struct {
	header http.Header
	body   []byte
}

func newOAHooks(t *testing.T) *oaHooks {
	h := &oaHooks{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.got = append(h.got, oaHook{header: r.Header.Clone(), body: body})
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *oaHooks) received() []oaHook {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]oaHook(nil), h.got...)
}

// oaCred is how a request authenticates: a bearer JWT or nothing, and an
// organization to act in (X-Organization-ID) when set.
type oaCred struct{ bearer, org string }

func oaAs(u *user) oaCred { return oaCred{bearer: u.bearer} }

// oaReply is an answer.
type oaReply struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

// oaConformance sends requests to live servers and checks each request
// and answer against the operation the document gives it.
type oaConformance struct {
	t      *testing.T
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
	seen   map[string]bool // "operationId status" checked
}

func newOAConformance(t *testing.T) *oaConformance {
	doc := loadSpec(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &oaConformance{t: t, doc: doc, router: router, seen: map[string]bool{}, opts: &openapi3filter.Options{
		IncludeResponseStatus: true, // a status the operation does not list fails
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}}
}

// call sends a JSON body (nil for none) to the server at base and fails
// unless the status is want; the request is checked against the document
// unless it is deliberately bad, the answer always.
func (v *oaConformance) call(base string, c oaCred, method, path string, body any, want int, deliberatelyBad ...bool) oaReply {
	v.t.Helper()
	var raw []byte
	ct := ""
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			v.t.Fatal(err)
		}
		ct = "application/json"
	}
	return v.send(base, c, method, path, ct, raw, want, len(deliberatelyBad) == 0 || !deliberatelyBad[0])
}

// send is call with any body.
func (v *oaConformance) send(base string, c oaCred, method, path, contentType string, raw []byte, want int, checkRequest bool) oaReply {
	t := v.t
	t.Helper()
	newRequest := func(u string) *http.Request {
		var rd io.Reader
		if raw != nil {
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequest(method, u+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if c.bearer != "" {
			req.Header.Set("Authorization", "Bearer "+c.bearer)
		}
		if c.org != "" {
			req.Header.Set("X-Organization-ID", c.org)
		}
		return req
	}
	ctx := context.Background()
	req := newRequest("") // matched against the document's server "/"
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: no operation in openapi.json: %v", method, path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: v.opts}
	if checkRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Errorf("%s %s: the request does not match operation %s: %v\nbody: %.2000s", method, path, route.Operation.OperationID, err, raw)
		}
	}
	resp, err := http.DefaultClient.Do(newRequest(base))
	if err != nil {
		t.Fatal(err)
	}
	res := oaReply{Status: resp.StatusCode, Header: resp.Header}
	res.Raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(res.Raw, &res.Body)
	}
	if res.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %.2000s", method, path, res.Status, want, res.Raw)
	}
	rin := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.Status, Header: res.Header, Options: v.opts}
	rin.SetBodyBytes(res.Raw)
	if err := openapi3filter.ValidateResponse(ctx, rin); err != nil {
		t.Errorf("%s %s -> %d: the answer does not match operation %s: %v\nbody: %.2000s", method, path, res.Status,
			route.Operation.OperationID, err, res.Raw)
	}
	v.seen[fmt.Sprintf("%s %d", route.Operation.OperationID, res.Status)] = true
	return res
}

// oaID is a string member of an answer.
func oaID(t *testing.T, r oaReply, name string) string {
	t.Helper()
	s, _ := r.Body[name].(string)
	if s == "" {
		t.Fatalf("no %s in %s", name, r.Raw)
	}
	return s
}

// oaWait polls until cond holds (10 s at most).
func oaWait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// oaGet reads a JSON answer without checking it (for polling).
func oaGet(t *testing.T, w *world, u *user, path string) map[string]any {
	t.Helper()
	var out map[string]any
	if st, raw := w.do(t, u, "GET", path, nil, &out); st != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, st, raw)
	}
	return out
}

// TestOpenAPIResponsesConform drives the live voice surface through a
// tenant's day (numbers, contacts, calls with control, notes, recordings,
// status callbacks and transcripts, SMS, a voicemail, the do-not-call list,
// calling hours, analytics, billing, GDPR export and erasure), the
// payments routes mounted on it, the health checks and the docs, and the
// error bodies, and checks every request and answer against openapi.json;
// every status callback is checked against the callStatus webhook and its
// Strata-Signature verified.
func TestOpenAPIResponsesConform(t *testing.T) {
	w := start(t, options{Provider: oaProvider{}, Transcriber: oaTranscriber{}})
	v := newOAConformance(t)
	ann, bob := w.user(t, "ann@conform.test"), w.user(t, "bob@conform.test")
	a, b, anon := oaAs(ann), oaAs(bob), oaCred{}
	ctx := context.Background()
	hooks := newOAHooks(t)
	call := func(c oaCred, method, path string, body any, want int, bad ...bool) oaReply {
		t.Helper()
		return v.call(w.URL, c, method, path, body, want, bad...)
	}

	// Health, the description, the docs page.
	call(anon, "GET", "/health", nil, http.StatusOK)
	call(anon, "GET", "/health/ready", nil, http.StatusOK)
	meta := http.NewServeMux()
	meta.HandleFunc("/openapi.json", readvoice.OpenAPI)
	meta.Handle("/docs", apidocs.Handler("Strata voice API", "/openapi.json"))
	metaSrv := httptest.NewServer(meta)
	defer metaSrv.Close()
	v.call(metaSrv.URL, anon, "GET", "/openapi.json", nil, http.StatusOK)
	v.call(metaSrv.URL, anon, "GET", "/docs", nil, http.StatusOK)

	// Numbers: the operator's inventory, search, purchase, config, release.
	for _, n := range []cmd.ImportedNumber{
		{Phone: "+14155550100", National: "4155550100", Country: "US", NumberType: voice.TypeLocal, Region: "CA"},
		{Phone: "+14155550101", National: "4155550101", Country: "US", NumberType: voice.TypeLocal},
		{Phone: "+18005550100", National: "8005550100", Country: "US", NumberType: voice.TypeTollFree},
	} {
		if _, err := w.Svc.ImportNumber(ctx, n, "fake", "conformance"); err != nil {
			t.Fatal(err)
		}
	}
	if r := call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "us", "number_type": "local", "area_code": "415",
		"limit": 10}, http.StatusOK); r.Body["total"] != float64(2) {
		t.Fatalf("search: %s", r.Raw)
	}
	call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "toll_free", "contains": "555"}, http.StatusOK)
	line := call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550100", "friendly_name": "Main"}, http.StatusCreated)
	lineID := oaID(t, line, "id")
	spare := oaID(t, call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550101"}, http.StatusCreated), "id")
	call(b, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550100"}, http.StatusConflict)
	call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155559999"}, http.StatusNotFound)
	call(a, "GET", "/api/v1/numbers?page=1&limit=10", nil, http.StatusOK)
	call(a, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"friendly_name": "Support", "routing": map[string]any{"type": "ivr",
		"menu": map[string]any{"1": map[string]any{"action": "forward", "target": "+12125550123"}, "2": map[string]any{"action": "voicemail"}}}},
		http.StatusOK)
	call(a, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"routing": map[string]any{"type": "queue", "target_id": "sales"}}, http.StatusOK)
	call(b, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"friendly_name": "Mine"}, http.StatusNotFound)
	call(a, "DELETE", "/api/v1/numbers/"+spare, nil, http.StatusNoContent)
	call(a, "DELETE", "/api/v1/numbers/"+spare, nil, http.StatusNotFound)

	// Contacts.
	contact := oaID(t, call(a, "POST", "/api/v1/contacts", map[string]any{"name": "Ada Lovelace", "phone": "+14155550123",
		"email": "ada@example.com", "company": "Analytical Engines", "tags": []string{"vip", "VIP", "beta"}}, http.StatusCreated), "id")
	call(a, "POST", "/api/v1/contacts", map[string]any{"name": "Bo", "phone": "+12125550199"}, http.StatusCreated)
	if r := call(a, "GET", "/api/v1/contacts?search=ada&limit=5", nil, http.StatusOK); r.Body["total"] != float64(1) {
		t.Fatalf("contact search: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/contacts/"+contact, nil, http.StatusOK)
	call(b, "GET", "/api/v1/contacts/"+contact, nil, http.StatusNotFound)

	// Calling hours (on by default; 15:00 UTC, the numbers' zone).
	call(a, "GET", "/api/v1/compliance/calling-hours", nil, http.StatusOK)
	call(a, "PUT", "/api/v1/compliance/calling-hours", map[string]any{"enforced": true}, http.StatusOK)
	secret := oaID(t, call(a, "GET", "/api/v1/callbacks/signing-secret", nil, http.StatusOK), "secret")

	// A call: placed, answered, noted, classified, transferred, hung up.
	placed := call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": lineID, "to_number": "+14155550123", "record": true,
		"queue_id": "11111111-1111-4111-8111-111111111111", "status_callback_url": hooks.URL + "/status"}, http.StatusCreated)
	callID := oaID(t, placed, "id")
	if loc := placed.Header.Get("Location"); loc != "/api/v1/calls/"+callID {
		t.Errorf("Location %q", loc)
	}
	oaWait(t, "the call to be answered", func() bool { return oaGet(t, w, ann, "/api/v1/calls/"+callID)["status"] == voice.StatusInProgress })
	call(a, "GET", "/api/v1/calls/live?queue_id=11111111-1111-4111-8111-111111111111", nil, http.StatusOK)
	call(a, "GET", "/api/v1/calls/"+callID, nil, http.StatusOK)
	call(a, "POST", "/api/v1/calls/"+callID+"/notes", map[string]any{"text": "Asked for a callback on Monday."}, http.StatusCreated)
	call(a, "GET", "/api/v1/calls/"+callID+"/notes", nil, http.StatusOK)
	call(a, "PUT", "/api/v1/calls/"+callID+"/disposition", map[string]any{"disposition": "interested"}, http.StatusOK)
	call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": "+12125550123", "transfer_type": "cold"}, http.StatusOK)
	if r := call(a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusOK); r.Body["status"] != voice.StatusCompleted {
		t.Fatalf("hangup: %s", r.Raw)
	}
	call(a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusConflict)
	call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": "+12125550123"}, http.StatusConflict)
	recs := call(a, "GET", "/api/v1/calls/"+callID+"/recordings", nil, http.StatusOK)
	items, _ := recs.Body["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("recordings: %s", recs.Raw)
	}
	recID := items[0].(map[string]any)["id"].(string)
	if r := call(a, "GET", "/api/v1/calls/"+callID+"/recordings/"+recID, nil, http.StatusOK); !bytes.HasPrefix(r.Raw, []byte("RIFF")) {
		t.Fatal("the recording is not a WAV file")
	}
	call(a, "GET", "/api/v1/calls/"+callID+"/recordings/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	call(b, "GET", "/api/v1/calls/"+callID, nil, http.StatusNotFound)
	call(a, "GET", "/api/v1/calls/logs?from=%2B14155550100&direction=outbound&disposition=interested&date_start=2026-11-27&date_end=2026-11-27&limit=5",
		nil, http.StatusOK)
	call(a, "GET", "/api/v1/calls/logs?to=%2B14155550123&date_start=2026-11-27T00:00:00Z", nil, http.StatusOK)
	call(a, "GET", "/api/v1/contacts/"+contact+"/calls", nil, http.StatusOK)

	// Its status callbacks: every move, in order, signed, as documented.
	seq := int(oaGet(t, w, ann, "/api/v1/calls/"+callID)["sequence"].(float64))
	oaWait(t, "every status callback of the call", func() bool {
		got := oaGet(t, w, ann, "/api/v1/calls/"+callID+"/callbacks")
		delivered := 0
		for _, it := range got["items"].([]any) {
			if it.(map[string]any)["delivered"] == true {
				delivered++
			}
		}
		return delivered == seq
	})
	if r := call(a, "GET", "/api/v1/calls/"+callID+"/callbacks", nil, http.StatusOK); r.Body["total"] != float64(seq) {
		t.Fatalf("callbacks: %d moves, %s", seq, r.Raw)
	}

	// Its transcript and sentiment (the transcription job runs after the end).
	oaWait(t, "the transcript", func() bool { return oaGet(t, w, ann, "/api/v1/transcripts/call/"+callID)["total"] == float64(1) })
	call(a, "GET", "/api/v1/transcripts?limit=10", nil, http.StatusOK)
	if r := call(a, "GET", "/api/v1/transcripts/search?q=great+help", nil, http.StatusOK); r.Body["total"] != float64(1) {
		t.Fatalf("transcript search: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/transcripts/call/"+callID, nil, http.StatusOK)
	if r := call(a, "GET", "/api/v1/analytics/sentiment/"+callID, nil, http.StatusOK); r.Body["label"] != "positive" {
		t.Fatalf("sentiment: %s", r.Raw)
	}

	// SMS, with its status callbacks.
	sms := call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123",
		"body": "Your appointment is at 3pm 😀", "media_urls": []string{"https://example.com/map.png"},
		"status_callback_url": hooks.URL + "/sms"}, http.StatusCreated)
	if sms.Body["encoding"] != "UCS-2" || sms.Body["status"] != voice.MsgSent {
		t.Fatalf("sms: %s", sms.Raw)
	}

	// A voicemail: an inbound call to the line (no routing: voicemail).
	var report telephony.Report
	w.Svc.Inbound(ctx, telephony.Inbound{ProviderCallID: "in-1", From: "+12125550199", To: "+14155550100", Call: &oaCall{answered: make(chan struct{})},
		Answer: func(_ context.Context, _ bool, r telephony.Report) error { report = r; return nil },
		Reject: func(_ context.Context, code int, reason string) error {
			t.Errorf("inbound call rejected: %d %s", code, reason)
			return nil
		},
		Play: func(context.Context, []int16) error { return nil }})
	if report == nil {
		t.Fatal("the inbound call was not answered")
	}
	report(telephony.Progress{Kind: telephony.Ended, Outcome: telephony.Completed, Reason: "remote_hangup", Recording: oaRecording()})
	oaWait(t, "the voicemail", func() bool { return oaGet(t, w, ann, "/api/v1/voicemails")["total"] == float64(1) })
	vm := call(a, "GET", "/api/v1/voicemails?status=new&page=1&limit=5", nil, http.StatusOK)
	vmID := vm.Body["items"].([]any)[0].(map[string]any)["id"].(string)
	vmp := "/api/v1/voicemails/" + vmID
	call(a, "GET", vmp, nil, http.StatusOK)
	call(a, "POST", vmp+"/read", nil, http.StatusOK)
	call(a, "POST", vmp+"/unread", nil, http.StatusOK)
	call(a, "POST", vmp+"/archive", nil, http.StatusOK)
	call(a, "POST", vmp+"/unread", nil, http.StatusConflict) // archived -> new is not a move
	call(a, "PATCH", vmp, map[string]any{"status": "new"}, http.StatusConflict)
	call(a, "PATCH", vmp, map[string]any{"status": "read"}, http.StatusOK)
	call(b, "GET", vmp, nil, http.StatusNotFound)
	call(a, "GET", "/api/v1/calls/logs?direction=inbound", nil, http.StatusOK)

	// The do-not-call list.
	call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+14155550177", "reason": "Asked not to be called."}, http.StatusCreated)
	if r := call(a, "GET", "/api/v1/compliance/dnc?phone=%2B14155550177", nil, http.StatusOK); r.Body["listed"] != true {
		t.Fatalf("dnc check: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/compliance/dnc?phone=%2B14155550178", nil, http.StatusOK)
	call(a, "GET", "/api/v1/compliance/dnc?page=1&limit=10", nil, http.StatusOK)
	for _, r := range []oaReply{
		call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550177"}, http.StatusUnavailableForLegalReasons),
		call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550177", "body": "hi"},
			http.StatusUnavailableForLegalReasons),
	} {
		if r.Body["code"] != "do_not_call" {
			t.Errorf("451: %s", r.Raw)
		}
	}
	// In a path + is itself (kin-openapi's router would check %2B undecoded).
	call(a, "DELETE", "/api/v1/compliance/dnc/+14155550177", nil, http.StatusNoContent)
	call(a, "DELETE", "/api/v1/compliance/dnc/+14155550177", nil, http.StatusNotFound)

	// Analytics and billing.
	call(a, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-11-27&date_end=2026-11-27", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/call-volume", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/agent-performance?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/queue-reports?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/dispositions?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/billing/usage", nil, http.StatusOK)

	// GDPR: export by contact and by number, then erase; the listing stays.
	call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+14155550123"}, http.StatusCreated)
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": contact}, http.StatusOK)
	exp := call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"phone": "+14155550123"}, http.StatusOK)
	if cd := exp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
		t.Errorf("export Content-Disposition %q", cd)
	}
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": "0190d3a4-0000-7000-8000-000000000000"}, http.StatusNotFound)
	call(a, "POST", "/api/v1/compliance/gdpr/delete", map[string]any{"phone": "+14155550123"}, http.StatusOK)
	if r := call(a, "GET", "/api/v1/calls/"+callID, nil, http.StatusOK); r.Body["to"] != nil {
		t.Errorf("the erased party's number still reads: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/calls/"+callID+"/notes", nil, http.StatusOK)
	call(a, "GET", "/api/v1/calls/"+callID+"/recordings/"+recID, nil, http.StatusNotFound)
	call(a, "GET", "/api/v1/transcripts/call/"+callID, nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/sentiment/"+callID, nil, http.StatusOK)
	if r := call(a, "GET", "/api/v1/contacts/"+contact, nil, http.StatusOK); r.Body["erased"] != true {
		t.Errorf("contact after erasure: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/compliance/dnc", nil, http.StatusOK)
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": contact}, http.StatusOK)

	// Errors: each status with the voice error body.
	call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100"}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550199", "to_number": "+14155550124"}, http.StatusBadRequest)
	call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550124", "body": longText(1601)},
		http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "limit": 51}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"phone": "+14155550123", "contact_id": contact}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/contacts", map[string]any{"name": "Al", "phone": "+14155550125", "nickname": "x"}, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/calls/logs?direction=sideways", nil, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/transcripts/search", nil, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-01-01&date_end=2026-11-27", nil, http.StatusBadRequest)
	call(a, "PUT", "/api/v1/numbers/"+lineID+"/config", map[string]any{"routing": map[string]any{"type": "pbx"}}, http.StatusBadRequest, true)
	call(a, "PATCH", vmp, map[string]any{"status": "deleted"}, http.StatusBadRequest, true)
	call(anon, "GET", "/api/v1/calls/logs", nil, http.StatusUnauthorized)
	call(oaCred{bearer: ann.bearer, org: bob.Org}, "GET", "/api/v1/contacts", nil, http.StatusForbidden)
	call(a, "GET", "/api/v1/calls/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	call(a, "GET", "/api/v1/analytics/sentiment/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	big := []byte(`{"name": "` + strings.Repeat("x", 1<<20) + `", "phone": "+14155550126"}`)
	v.send(w.URL, a, "POST", "/api/v1/contacts", "application/json", big, http.StatusRequestEntityTooLarge, false)
	v.send(w.URL, a, "POST", "/api/v1/contacts", "text/plain", []byte("Ada"), http.StatusUnsupportedMediaType, false)
	// The status callbacks Strata sent (all of them before the clock moves:
	// they are signed on it): as documented, signed, in order.
	oaCheckHooks(t, v.doc, hooks, secret, w.Svc.Now(), callID, seq)
	w.setClock(time.Date(2026, 11, 27, 22, 30, 0, 0, time.UTC)) // after 21:00 in the callee's zone (UTC here)
	if r := call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550124"},
		http.StatusUnprocessableEntity); r.Body["code"] != "calling_hours" {
		t.Errorf("422: %s", r.Raw)
	}

	// Payments on the voice surface, against stripe-mock.
	oaPayments(t, v, w, ann)

	// Without a provider: 503 telephony_unconfigured; a small limit: 429.
	bare := start(t, options{Limiter: httpx.NewWindowLimiter(4, func() time.Time { return time.Date(2026, 11, 27, 15, 0, 30, 0, time.UTC) })})
	cu := bare.user(t, "cu@conform.test")
	c := oaAs(cu)
	for _, r := range []oaReply{
		v.call(bare.URL, c, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"},
			http.StatusServiceUnavailable),
		v.call(bare.URL, c, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
			http.StatusServiceUnavailable),
		v.call(bare.URL, c, "POST", "/api/v1/calls/0190d3a4-0000-7000-8000-000000000000/transfer", map[string]any{"target_number": "+14155550123"},
			http.StatusServiceUnavailable),
	} {
		if r.Body["code"] != "telephony_unconfigured" {
			t.Errorf("503: %s", r.Raw)
		}
	}
	v.call(bare.URL, c, "GET", "/api/v1/voicemails", nil, http.StatusOK)
	if r := v.call(bare.URL, c, "GET", "/api/v1/voicemails", nil, http.StatusTooManyRequests); r.Header.Get("Retry-After") == "" || r.Body["code"] != "rate_limited" {
		t.Fatalf("429: %v %s", r.Header, r.Raw)
	}

	// Every operation was called, at least for a 2xx (the billing portal
	// needs a customer from a completed checkout, which only the payment
	// provider's webhook makes: its 404 is checked above).
	ok := map[string]bool{"createPortalSession": true}
	for k := range v.seen {
		id, status, _ := strings.Cut(k, " ")
		if strings.HasPrefix(status, "2") {
			ok[id] = true
		}
	}
	for path, item := range v.doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !ok[op.OperationID] && method != http.MethodHead {
				t.Errorf("%s %s (%s) was not called by the conformance flow", method, path, op.OperationID)
			}
		}
	}
	for _, status := range []string{"400", "401", "403", "404", "409", "413", "415", "422", "429", "451", "503"} {
		found := false
		for k := range v.seen {
			found = found || strings.HasSuffix(k, " "+status)
		}
		if !found {
			t.Errorf("no answer %s was checked", status)
		}
	}
}

// oaCheckHooks checks the status callbacks hooks received: each payload
// against the callStatus webhook's schema, its headers, its signature, and
// the call's in sequence order 1..seq.
func oaCheckHooks(t *testing.T, doc *openapi3.T, hooks *oaHooks, secret string, now time.Time, callID string, seq int) {
	t.Helper()
	op := doc.Webhooks["callStatus"].Post
	schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
	sigRE := op.Parameters.GetByInAndName("header", "Strata-Signature").Schema.Value
	oaWait(t, "the message's status callbacks", func() bool {
		n := 0
		for _, h := range hooks.received() {
			n += strings.Count(string(h.body), `"message.status"`)
		}
		return n >= 2
	})
	var callSeqs []int
	for _, h := range hooks.received() {
		var p map[string]any
		if err := json.Unmarshal(h.body, &p); err != nil {
			t.Fatalf("callback body: %v: %s", err, h.body)
		}
		if err := schema.VisitJSON(p, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("status callback does not match StatusCallback: %v\n%s", err, h.body)
		}
		sig := h.header.Get("Strata-Signature")
		if err := sigRE.VisitJSON(sig, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("Strata-Signature %q does not match the documented form: %v", sig, err)
		}
		if err := outbound.Verify(secret, sig, h.body, 0, now); err != nil {
			t.Errorf("Strata-Signature does not verify with the documented scheme: %v", err)
		}
		if h.header.Get("Strata-Event-Id") != p["id"] || h.header.Get("Strata-Sequence") != strconv.Itoa(int(p["sequence"].(float64))) {
			t.Errorf("headers %v do not match the payload %s", h.header, h.body)
		}
		if p["call_id"] == callID {
			callSeqs = append(callSeqs, int(p["sequence"].(float64)))
		}
	}
	for i, s := range callSeqs {
		if s != i+1 {
			t.Fatalf("the call's callbacks arrived as %v, want 1..%d in order", callSeqs, seq)
		}
	}
	if len(callSeqs) != seq {
		t.Fatalf("the call's callbacks: %v, want 1..%d", callSeqs, seq)
	}
}

// oaPayments mounts the payments routes as the voice surface does
// (AccountOnly) with Stripe's mock as the provider, and drives them.
func oaPayments(t *testing.T, v *oaConformance, w *world, u *user) {
	t.Helper()
	mock := stripemock.Start(t)
	reg := eventstore.NewRegistry()
	for _, c := range payments.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := w.Platform.Clock
	store := eventstore.New(w.Platform.DB, reg, clock, eventstore.NewULIDs(clock))
	keys, err := shred.New(bytes.Repeat([]byte{9}, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := cmdpayments.NewStripe(cmdpayments.StripeConfig{SecretKey: "sk_test_voice", WebhookSecrets: []string{"whsec_voice"}, APIBase: mock.URL})
	if err != nil {
		t.Fatal(err)
	}
	svc := cmdpayments.New(store, keys, clock, eventstore.NewULIDs(clock), cmdpayments.Config{Catalog: payments.NewCatalog(nil),
		Provider: prov, PayerKey: bytes.Repeat([]byte{1}, 32), Logger: slog.New(slog.DiscardHandler)})
	sf, err := readapi.NewSurface("voice", readapi.Deps{Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(), Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	readpayments.Routes(sf.Router, readpayments.Config{Service: svc, DB: w.Platform.DB, Auth: w.Platform.Auth, Line: payments.LineVoice,
		ReturnURL: "https://app.example.com/account", AccountOnly: true})
	srv := httptest.NewServer(sf.Handler)
	defer srv.Close()
	c := oaAs(u)
	co := v.call(srv.URL, c, "POST", "/api/v1/payments/checkout", map[string]any{"plan": "pro", "success_url": "https://example.com/paid",
		"cancel_url": "https://example.com/pricing", "utm_source": "docs"}, http.StatusCreated)
	if _, err := url.Parse(oaID(t, co, "url")); err != nil {
		t.Fatal(err)
	}
	v.call(srv.URL, c, "POST", "/api/v1/payments/checkout", map[string]any{"plan": "pro", "product_line": "audit", "billing": "yearly",
		"success_url": "https://example.com/paid", "cancel_url": "https://example.com/pricing"}, http.StatusServiceUnavailable)
	v.call(srv.URL, c, "POST", "/api/v1/payments/checkout", map[string]any{"plan": "gold", "success_url": "https://example.com/paid",
		"cancel_url": "https://example.com/pricing"}, http.StatusBadRequest)
	v.call(srv.URL, oaCred{}, "POST", "/api/v1/payments/checkout", map[string]any{"plan": "pro"}, http.StatusUnauthorized, true)
	v.call(srv.URL, c, "GET", "/api/v1/payments/subscription", nil, http.StatusOK)
	v.call(srv.URL, c, "GET", "/api/v1/payments/subscription?product_line=gateway", nil, http.StatusOK)
	v.call(srv.URL, c, "GET", "/api/v1/payments/history?limit=5&offset=0", nil, http.StatusOK)
	v.call(srv.URL, c, "GET", "/api/v1/payments/history?limit=500", nil, http.StatusBadRequest, true)
	v.call(srv.URL, c, "POST", "/api/v1/payments/portal-session", nil, http.StatusNotFound)
	v.call(srv.URL, c, "POST", "/api/v1/payments/portal-session", map[string]any{"return_url": "https://example.com/account"}, http.StatusNotFound)
}

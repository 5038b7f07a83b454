package voice_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
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
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/httpx"
	readpayments "github.com/strata-platform/strata/readapi/payments"
)

// The conformance flow runs against real peers: the SIP adapter
// (commands/voice/telephony/sip) and SIPp on loopback for calls, SMS and
// an inbound voicemail (startSIP, one SIPp scenario a world), an
// OpenAI-protocol transcription endpoint on loopback for transcripts, and
// stripe-mock for payments.

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

// oaSpec is the document, its router and the answers the flows checked
// ("operationId status"), shared by the sub-flows that run in parallel.
type oaSpec struct {
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
	mu     sync.Mutex
	seen   map[string]bool
}

func newOASpec(t *testing.T) *oaSpec {
	doc := loadSpec(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &oaSpec{doc: doc, router: router, seen: map[string]bool{}, opts: &openapi3filter.Options{
		IncludeResponseStatus: true, // a status the operation does not list fails
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}}
}

func (s *oaSpec) saw(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[key] = true
}

func (s *oaSpec) checked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.seen))
	for k := range s.seen {
		out = append(out, k)
	}
	return out
}

// oaConformance sends requests to live servers and checks each request
// and answer against the operation the document gives it, failing t.
type oaConformance struct {
	t *testing.T
	*oaSpec
}

func (s *oaSpec) on(t *testing.T) *oaConformance { return &oaConformance{t: t, oaSpec: s} }

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
	v.saw(fmt.Sprintf("%s %d", route.Operation.OperationID, res.Status))
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

// oaWait polls until cond holds (20 s at most).
func oaWait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
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
// tenant's day and checks every request and answer against openapi.json,
// in sub-flows that run in parallel, each on its own world whose SIP
// trunk is a SIPp of one scenario:
//   - day (uas_record.xml, transcripts from an OpenAI-protocol endpoint):
//     health and docs, numbers, contacts, calling hours, a recorded call
//     that is noted and classified while it plays, then its recording,
//     status callbacks, transcript and sentiment, the do-not-call list,
//     analytics, billing, GDPR export and erasure, the error bodies;
//   - transfer (uas_cold_transfer.xml): a call whose transfer to a
//     listed number is refused (451), then cold-transferred;
//   - hangup (uas_answer_wait_bye.xml): a call we hang up; the payments
//     routes mounted on the surface, on stripe-mock;
//   - messages (uas_message.xml, then uac_voicemail.xml calling in): an
//     SMS with its status callbacks, a voicemail;
//   - unconfigured (no provider): 503, a foreign call's transfer 404, 429.
//
// Every status callback is checked against the callStatus webhook and its
// Strata-Signature verified. At the end every operation must have been
// checked for a 2xx, and each error status for some operation.
func TestOpenAPIResponsesConform(t *testing.T) {
	t.Parallel()
	sipptest.Require(t)
	spec := newOASpec(t)
	t.Run("flows", func(t *testing.T) {
		for _, f := range []struct {
			name string
			run  func(*testing.T, *oaConformance)
		}{
			{"day", oaDay}, {"transfer", oaTransfer}, {"hangup", oaHangup}, {"messages", oaMessages}, {"unconfigured", oaUnconfigured},
		} {
			t.Run(f.name, func(t *testing.T) {
				t.Parallel()
				f.run(t, spec.on(t))
			})
		}
	})
	if t.Failed() {
		return
	}

	// Every operation was called, at least for a 2xx (the billing portal
	// needs a customer from a completed checkout, which only the payment
	// provider's webhook makes: its 404 is checked).
	seen := spec.checked()
	t.Logf("%d answers (operation, status) checked", len(seen))
	ok := map[string]bool{"createPortalSession": true}
	for _, k := range seen {
		id, status, _ := strings.Cut(k, " ")
		if strings.HasPrefix(status, "2") {
			ok[id] = true
		}
	}
	for path, item := range spec.doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !ok[op.OperationID] && method != http.MethodHead {
				t.Errorf("%s %s (%s) was not called by the conformance flow", method, path, op.OperationID)
			}
		}
	}
	for _, status := range []string{"400", "401", "403", "404", "409", "413", "415", "422", "429", "451", "503"} {
		found := false
		for _, k := range seen {
			found = found || strings.HasSuffix(k, " "+status)
		}
		if !found {
			t.Errorf("no answer %s was checked", status)
		}
	}
}

// oaDay is the tenant's day around a recorded call (uas_record.xml: the
// far end answers, plays 7 s of speech and hangs up), transcribed by an
// OpenAI-protocol endpoint.
func oaDay(t *testing.T, v *oaConformance) {
	srv, _ := transcriptionEndpoint(t, "thanks this was a great help")
	tr, err := transcribe.NewOpenAI(transcribe.OpenAIConfig{BaseURL: srv.URL, Model: "whisper-1"})
	if err != nil {
		t.Fatal(err)
	}
	sw := startSIP(t, sipConfig{Scenario: "uas_record.xml", Transcriber: tr})
	w, ann, bob := sw.world, sw.u, sw.user(t, "bob@conform.test")
	a, b, anon := oaAs(ann), oaAs(bob), oaCred{}
	ctx := context.Background()
	hooks := newOAHooks(t)
	call := func(c oaCred, method, path string, body any, want int, bad ...bool) oaReply {
		t.Helper()
		return v.call(w.URL, c, method, path, body, want, bad...)
	}

	// Health, the description, the docs page (served by the surface).
	call(anon, "GET", "/health", nil, http.StatusOK)
	call(anon, "GET", "/health/ready", nil, http.StatusOK)
	call(anon, "GET", "/openapi.json", nil, http.StatusOK)
	call(anon, "GET", "/docs", nil, http.StatusOK)

	// Contacts (the callee is Ada).
	contact := oaID(t, call(a, "POST", "/api/v1/contacts", map[string]any{"name": "Ada Lovelace", "phone": sipCallee,
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

	// A recorded call from the line (sipLine, bought by startSIP): placed,
	// answered, noted and classified while the far end talks.
	placed := call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sw.lineID, "to_number": sipCallee, "record": true,
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
	call(b, "GET", "/api/v1/calls/"+callID, nil, http.StatusNotFound)

	// Numbers, while the call goes on: the operator's inventory, search,
	// purchase, config, release.
	for _, n := range []cmd.ImportedNumber{
		{Phone: "+14155550101", National: "4155550101", Country: "US", NumberType: voice.TypeLocal, Region: "CA"},
		{Phone: "+14155550102", National: "4155550102", Country: "US", NumberType: voice.TypeLocal},
		{Phone: "+18005550100", National: "8005550100", Country: "US", NumberType: voice.TypeTollFree},
	} {
		if _, err := w.Svc.ImportNumber(ctx, n, "sip", "conformance"); err != nil {
			t.Fatal(err)
		}
	}
	if r := call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "us", "number_type": "local", "area_code": "415",
		"limit": 10}, http.StatusOK); r.Body["total"] != float64(2) {
		t.Fatalf("search: %s", r.Raw)
	}
	call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "toll_free", "contains": "555"}, http.StatusOK)
	call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550102", "friendly_name": "Main"}, http.StatusCreated)
	spare := oaID(t, call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550101"}, http.StatusCreated), "id")
	call(b, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550102"}, http.StatusConflict)
	call(a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155559999"}, http.StatusNotFound)
	call(a, "GET", "/api/v1/numbers?page=1&limit=10", nil, http.StatusOK)
	call(a, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"friendly_name": "Support", "routing": map[string]any{"type": "ivr",
		"menu": map[string]any{"1": map[string]any{"action": "forward", "target": "+12125550123"}, "2": map[string]any{"action": "voicemail"}}}},
		http.StatusOK)
	call(a, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"routing": map[string]any{"type": "queue", "target_id": "sales"}}, http.StatusOK)
	call(b, "PUT", "/api/v1/numbers/"+spare+"/config", map[string]any{"friendly_name": "Mine"}, http.StatusNotFound)
	call(a, "DELETE", "/api/v1/numbers/"+spare, nil, http.StatusNoContent)
	call(a, "DELETE", "/api/v1/numbers/"+spare, nil, http.StatusNotFound)

	// The do-not-call list.
	call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+14155550177", "reason": "Asked not to be called."}, http.StatusCreated)
	if r := call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+14155550177", "reason": "Again."}, http.StatusCreated); r.Body["reason"] != "Asked not to be called." {
		t.Errorf("a second listing: %s", r.Raw)
	}
	if r := call(a, "GET", "/api/v1/compliance/dnc?phone=%2B14155550177", nil, http.StatusOK); r.Body["listed"] != true {
		t.Fatalf("dnc check: %s", r.Raw)
	}
	call(a, "GET", "/api/v1/compliance/dnc?phone=%2B14155550178", nil, http.StatusOK)
	call(a, "GET", "/api/v1/compliance/dnc?page=1&limit=10", nil, http.StatusOK)
	for _, r := range []oaReply{
		call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": "+14155550177"}, http.StatusUnavailableForLegalReasons),
		call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": "+14155550177", "body": "hi"},
			http.StatusUnavailableForLegalReasons),
	} {
		if r.Body["code"] != "do_not_call" {
			t.Errorf("451: %s", r.Raw)
		}
	}
	// In a path + is itself (kin-openapi's router would check %2B undecoded).
	call(a, "DELETE", "/api/v1/compliance/dnc/+14155550177", nil, http.StatusNoContent)
	call(a, "DELETE", "/api/v1/compliance/dnc/+14155550177", nil, http.StatusNotFound)

	// Errors: each status with the voice error body.
	call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550199", "to_number": "+14155550124"}, http.StatusBadRequest)
	call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": "+14155550124", "body": longText(1601)},
		http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "limit": 51}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"phone": sipCallee, "contact_id": contact}, http.StatusBadRequest, true)
	call(a, "POST", "/api/v1/contacts", map[string]any{"name": "Al", "phone": "+14155550125", "nickname": "x"}, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/calls/logs?direction=sideways", nil, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/transcripts/search", nil, http.StatusBadRequest, true)
	call(a, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-01-01&date_end=2026-11-27", nil, http.StatusBadRequest)
	call(a, "PUT", "/api/v1/numbers/"+sw.lineID+"/config", map[string]any{"routing": map[string]any{"type": "pbx"}}, http.StatusBadRequest, true)
	call(anon, "GET", "/api/v1/calls/logs", nil, http.StatusUnauthorized)
	call(oaCred{bearer: ann.bearer, org: bob.Org}, "GET", "/api/v1/contacts", nil, http.StatusForbidden)
	call(a, "GET", "/api/v1/calls/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	call(a, "GET", "/api/v1/analytics/sentiment/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	big := []byte(`{"name": "` + strings.Repeat("x", 1<<20) + `", "phone": "+14155550126"}`)
	v.send(w.URL, a, "POST", "/api/v1/contacts", "application/json", big, http.StatusRequestEntityTooLarge, false)
	v.send(w.URL, a, "POST", "/api/v1/contacts", "text/plain", []byte("Ada"), http.StatusUnsupportedMediaType, false)

	// The far end hangs up after its speech; the call is over.
	oaWait(t, "the far end's hangup", func() bool { return oaGet(t, w, ann, "/api/v1/calls/"+callID)["status"] == voice.StatusCompleted })
	call(a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusConflict)
	call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": sipTarget}, http.StatusConflict)
	oaWait(t, "the recording", func() bool { return oaGet(t, w, ann, "/api/v1/calls/"+callID+"/recordings")["total"] == float64(1) })
	recs := call(a, "GET", "/api/v1/calls/"+callID+"/recordings", nil, http.StatusOK)
	recID := recs.Body["items"].([]any)[0].(map[string]any)["id"].(string)
	if r := call(a, "GET", "/api/v1/calls/"+callID+"/recordings/"+recID, nil, http.StatusOK); !bytes.HasPrefix(r.Raw, []byte("RIFF")) || len(r.Raw) < 44+2*8000 {
		t.Fatalf("the recording is not a WAV file of the far end's speech (%d bytes)", len(r.Raw))
	}
	call(a, "GET", "/api/v1/calls/"+callID+"/recordings/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
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

	// Analytics and billing, with the call in them.
	call(a, "GET", "/api/v1/analytics/call-volume?interval=hour&date_start=2026-11-27&date_end=2026-11-27", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/call-volume", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/agent-performance?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/queue-reports?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/analytics/dispositions?date_start=2026-11-01&date_end=2026-11-30", nil, http.StatusOK)
	call(a, "GET", "/api/v1/billing/usage", nil, http.StatusOK)

	// GDPR: export by contact and by number, then erase; the listing stays.
	call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": sipCallee}, http.StatusCreated)
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": contact}, http.StatusOK)
	exp := call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"phone": sipCallee}, http.StatusOK)
	if cd := exp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
		t.Errorf("export Content-Disposition %q", cd)
	}
	call(a, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": "0190d3a4-0000-7000-8000-000000000000"}, http.StatusNotFound)
	call(a, "POST", "/api/v1/compliance/gdpr/delete", map[string]any{"phone": sipCallee}, http.StatusOK)
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

	// The status callbacks Strata sent (all of them before the clock moves:
	// they are signed on it): as documented, signed, in order.
	oaCheckHooks(t, v.doc, hooks, secret, sw.Platform.Clock.Now(), 0, callID, seq)
	w.setClock(time.Date(2026, 11, 27, 22, 30, 0, 0, time.UTC)) // after 21:00 in the callee's zone (UTC here)
	if r := call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": "+14155550124"},
		http.StatusUnprocessableEntity); r.Body["code"] != "calling_hours" {
		t.Errorf("422: %s", r.Raw)
	}
	sw.sipp.Wait(10 * time.Second)
}

// oaTransfer is a call cold-transferred (uas_cold_transfer.xml: the far
// end accepts our REFER to sipTarget, reports its progress and hangs up),
// after a transfer to a listed number is refused.
func oaTransfer(t *testing.T, v *oaConformance) {
	sw := startSIP(t, sipConfig{Scenario: "uas_cold_transfer.xml", Sipp: sipptest.Options{Vars: outboundVars()}})
	a := oaAs(sw.u)
	hooks := newOAHooks(t)
	call := func(c oaCred, method, path string, body any, want int) oaReply {
		t.Helper()
		return v.call(sw.URL, c, method, path, body, want)
	}
	secret := oaID(t, call(a, "GET", "/api/v1/callbacks/signing-secret", nil, http.StatusOK), "secret")
	callID := oaID(t, call(a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": sipCallee,
		"status_callback_url": hooks.URL + "/status"}, http.StatusCreated), "id")
	oaWait(t, "the call to be answered", func() bool {
		return oaGet(t, sw.world, sw.u, "/api/v1/calls/"+callID)["status"] == voice.StatusInProgress
	})
	// A target on the do-not-call list is refused before anything is sent.
	call(a, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+15550009999"}, http.StatusCreated)
	if r := call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": "+15550009999", "transfer_type": "cold"},
		http.StatusUnavailableForLegalReasons); r.Body["code"] != "do_not_call" {
		t.Errorf("451: %s", r.Raw)
	}
	call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": sipTarget, "transfer_type": "cold"}, http.StatusOK)
	oaWait(t, "the transferred call's end", func() bool {
		return oaGet(t, sw.world, sw.u, "/api/v1/calls/"+callID)["status"] == voice.StatusCompleted
	})
	if r := call(a, "GET", "/api/v1/calls/"+callID, nil, http.StatusOK); r.Body["transferred"] != true {
		t.Errorf("after the transfer: %s", r.Raw)
	}
	call(a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusConflict)
	call(a, "POST", "/api/v1/calls/"+callID+"/transfer", map[string]any{"target_number": sipTarget, "transfer_type": "cold"}, http.StatusConflict)
	seq := int(oaGet(t, sw.world, sw.u, "/api/v1/calls/"+callID)["sequence"].(float64))
	oaCheckHooks(t, v.doc, hooks, secret, sw.Platform.Clock.Now(), 0, callID, seq)
	sw.sipp.Wait(10 * time.Second)
}

// oaHangup is a call we hang up (uas_answer_wait_bye.xml: the far end
// answers and waits for our BYE), and the payments routes.
func oaHangup(t *testing.T, v *oaConformance) {
	sw := startSIP(t, sipConfig{Scenario: "uas_answer_wait_bye.xml"})
	a := oaAs(sw.u)
	callID := oaID(t, v.call(sw.URL, a, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": sipLine, "to_number": sipCallee},
		http.StatusCreated), "id")
	oaWait(t, "the call to be answered", func() bool {
		return oaGet(t, sw.world, sw.u, "/api/v1/calls/"+callID)["status"] == voice.StatusInProgress
	})
	if r := v.call(sw.URL, a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusOK); r.Body["status"] != voice.StatusCompleted {
		t.Fatalf("hangup: %s", r.Raw)
	}
	v.call(sw.URL, a, "POST", "/api/v1/calls/"+callID+"/hangup", nil, http.StatusConflict)
	sw.sipp.Wait(10 * time.Second)

	// Payments on the voice surface, against stripe-mock.
	oaPayments(t, v, sw.world, sw.u)
}

// oaMessages is an SMS (uas_message.xml: the trunk answers the MESSAGE
// 200) with its status callbacks, and a voicemail left by a caller
// (uac_voicemail.xml) on the line, which has no routing.
func oaMessages(t *testing.T, v *oaConformance) {
	sw := startSIP(t, sipConfig{Scenario: "uas_message.xml", Sipp: sipptest.Options{Vars: map[string]string{
		"to": regexp.QuoteMeta(sipCallee), "status": "200", "reason": "OK"}}})
	sw.receive()
	caller := sipptest.Start(t, "uac_voicemail.xml", sw.prov.Addr().String(), sipptest.Options{Vars: inboundVars()})
	bob := sw.user(t, "bob@conform.test")
	a, b := oaAs(sw.u), oaAs(bob)
	hooks := newOAHooks(t)
	call := func(c oaCred, method, path string, body any, want int, bad ...bool) oaReply {
		t.Helper()
		return v.call(sw.URL, c, method, path, body, want, bad...)
	}
	secret := oaID(t, call(a, "GET", "/api/v1/callbacks/signing-secret", nil, http.StatusOK), "secret")

	// SMS, with its status callbacks. The SIP provider sends text only:
	// media URLs are refused, not dropped.
	call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee,
		"body": "hello from strata", "media_urls": []string{"https://example.com/map.png"}}, http.StatusUnprocessableEntity)
	sms := call(a, "POST", "/api/v1/sms/send", map[string]any{"from_number": sipLine, "to_number": sipCallee,
		"body": "hello from strata", "status_callback_url": hooks.URL + "/sms"}, http.StatusCreated)
	if sms.Body["encoding"] != "GSM-7" || sms.Body["status"] != voice.MsgSent {
		t.Fatalf("sms: %s", sms.Raw)
	}
	loc := "/api/v1/sms/" + oaID(t, sms, "id")
	if sms.Header.Get("Location") != loc {
		t.Errorf("Location %q, want %q", sms.Header.Get("Location"), loc)
	}
	if r := call(a, "GET", loc, nil, http.StatusOK); r.Body["status"] != voice.MsgSent || r.Body["body"] != "hello from strata" || r.Body["media_count"] != float64(0) {
		t.Errorf("GET sms: %s", r.Raw)
	}
	call(b, "GET", loc, nil, http.StatusNotFound)
	sw.sipp.Wait(10 * time.Second)

	// The voicemail (the caller talks 7 s, then hangs up).
	oaWait(t, "the voicemail", func() bool { return oaGet(t, sw.world, sw.u, "/api/v1/voicemails")["total"] == float64(1) })
	caller.Wait(10 * time.Second)
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
	call(a, "PATCH", vmp, map[string]any{"status": "deleted"}, http.StatusBadRequest, true)
	call(b, "GET", vmp, nil, http.StatusNotFound)
	if r := call(a, "GET", "/api/v1/calls/logs?direction=inbound", nil, http.StatusOK); r.Body["total"] != float64(1) {
		t.Errorf("inbound calls: %s", r.Raw)
	}

	oaCheckHooks(t, v.doc, hooks, secret, sw.Platform.Clock.Now(), 2, "", 0)
}

// oaUnconfigured is a surface without a provider (503
// telephony_unconfigured; a transfer of a call that is not the tenant's is
// 404 first) and with a small rate limit (429).
func oaUnconfigured(t *testing.T, v *oaConformance) {
	bare := start(t, options{Limiter: httpx.NewWindowLimiter(4, func() time.Time { return time.Date(2026, 11, 27, 15, 0, 30, 0, time.UTC) })})
	cu := bare.user(t, "cu@conform.test")
	c := oaAs(cu)
	for _, r := range []oaReply{
		v.call(bare.URL, c, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"},
			http.StatusServiceUnavailable),
		v.call(bare.URL, c, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
			http.StatusServiceUnavailable),
	} {
		if r.Body["code"] != "telephony_unconfigured" {
			t.Errorf("503: %s", r.Raw)
		}
	}
	// A call that is not the tenant's is not found before anything else.
	v.call(bare.URL, c, "POST", "/api/v1/calls/0190d3a4-0000-7000-8000-000000000000/transfer", map[string]any{"target_number": "+14155550123"},
		http.StatusNotFound)
	v.call(bare.URL, c, "GET", "/api/v1/voicemails", nil, http.StatusOK)
	if r := v.call(bare.URL, c, "GET", "/api/v1/voicemails", nil, http.StatusTooManyRequests); r.Header.Get("Retry-After") == "" || r.Body["code"] != "rate_limited" {
		t.Fatalf("429: %v %s", r.Header, r.Raw)
	}
}

// oaCheckHooks checks the status callbacks hooks received: each payload
// against the callStatus webhook's schema, its headers, its signature; at
// least messages message.status callbacks, and when callID is set the
// call's in sequence order 1..seq.
func oaCheckHooks(t *testing.T, doc *openapi3.T, hooks *oaHooks, secret string, now time.Time, messages int, callID string, seq int) {
	t.Helper()
	op := doc.Webhooks["callStatus"].Post
	schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
	sigRE := op.Parameters.GetByInAndName("header", "Strata-Signature").Schema.Value
	oaWait(t, "the status callbacks", func() bool {
		m, c := 0, 0
		for _, h := range hooks.received() {
			m += strings.Count(string(h.body), `"message.status"`)
			if callID != "" {
				c += strings.Count(string(h.body), `"`+callID+`"`)
			}
		}
		return m >= messages && c >= seq
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
		if callID != "" && p["call_id"] == callID {
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

package voice_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/apidocs"
	"github.com/strata-platform/strata/readapi/openapitest"
	readpayments "github.com/strata-platform/strata/readapi/payments"
	readvoice "github.com/strata-platform/strata/readapi/voice"
)

// loadSpec loads the embedded OpenAPI document and validates it.
func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	return openapitest.Load(t, readvoice.Spec())
}

// voiceRoute reports whether an operation is one of the voice service's
// own /api/v1 routes (rate-limited per tenant), not payments or health.
func voiceRoute(path string) bool {
	return strings.HasPrefix(path, "/api/v1/") && !strings.HasPrefix(path, "/api/v1/payments/")
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadSpec(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	schemes := doc.Components.SecuritySchemes
	if schemes["bearerAuth"] == nil || schemes["bearerAuth"].Value.BearerFormat != "JWT" ||
		schemes["apiKey"] == nil || schemes["apiKey"].Value.In != "header" || schemes["apiKey"].Value.Name != "X-API-Key" {
		t.Fatal("security schemes bearerAuth (JWT) and apiKey (X-API-Key header) are missing")
	}
	openapitest.EachOperation(t, doc, func(where string, op *openapi3.Operation) {
		path := where[strings.IndexByte(where, ' ')+1:]
		var ok []string
		for code := range op.Responses.Map() {
			if strings.HasPrefix(code, "2") {
				ok = append(ok, code)
			}
		}
		if len(ok) == 0 || op.Responses.Value("500") == nil || op.Responses.Value("400") == nil {
			t.Errorf("%s: responses must list a 2xx, 400 and 500", where)
		}
		if op.Description == "" || op.Summary == "" {
			t.Errorf("%s: say what it does (summary) and what it guarantees (description)", where)
		}
		open := op.Security != nil && len(*op.Security) == 0
		if !open && (op.Responses.Value("401") == nil || op.Responses.Value("403") == nil) {
			t.Errorf("%s needs credentials: it must list 401 and 403", where)
		}
		if open && voiceRoute(path) {
			t.Errorf("%s: every voice route needs credentials", where)
		}
		if voiceRoute(path) {
			if op.Responses.Value("429") == nil {
				t.Errorf("%s is rate-limited per tenant: it must list 429", where)
			}
			for _, code := range ok {
				h := op.Responses.Value(code).Value.Headers
				if h["X-RateLimit-Limit"] == nil || h["X-RateLimit-Remaining"] == nil || h["X-RateLimit-Reset"] == nil {
					t.Errorf("%s %s: the answer carries X-RateLimit-Limit, -Remaining and -Reset", where, code)
				}
			}
		}
		if op.RequestBody != nil && (op.Responses.Value("413") == nil || op.Responses.Value("415") == nil) {
			t.Errorf("%s takes a JSON body: it must list 413 and 415", where)
		}
		if op.RequestBody != nil && op.RequestBody.Value.Content.Get("application/json").Example == nil {
			t.Errorf("%s: give the request body an example (the docs page's Try it starts from it)", where)
		}
	})
	tooMany := doc.Components.Responses["TooManyRequests"].Value
	if tooMany.Headers["Retry-After"] == nil {
		t.Error("429 does not document Retry-After")
	}
	if !strings.Contains(doc.Info.Description, strconv.Itoa(readvoice.DefaultRate)+" requests a minute per tenant") ||
		!strings.Contains(doc.Components.Headers["X-RateLimit-Limit"].Value.Description, "("+strconv.Itoa(readvoice.DefaultRate)+")") {
		t.Error("the rate limit's numbers are not documented")
	}
	for _, status := range []string{"400", "401", "403", "404", "409", "413", "415", "422", "429", "451", "500", "503"} {
		if !strings.Contains(doc.Info.Description, status+" ") {
			t.Errorf("the description does not say what %s means", status)
		}
	}

	// The status callback is a webhook, signed.
	hook := doc.Webhooks["callStatus"]
	if hook == nil || hook.Post == nil {
		t.Fatal("no callStatus webhook")
	}
	if p := hook.Post.Parameters.GetByInAndName("header", "Strata-Signature"); p == nil || !p.Required ||
		!strings.Contains(hook.Post.Description, "HMAC-SHA256") || !strings.Contains(hook.Post.Description, "5 minutes") {
		t.Error("the callStatus webhook does not document the Strata-Signature scheme")
	}

	rec := httptest.NewRecorder()
	readvoice.OpenAPI(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !bytes.Equal(rec.Body.Bytes(), readvoice.Spec()) {
		t.Fatalf("OpenAPI handler: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
	rec = httptest.NewRecorder()
	readvoice.OpenAPI(rec, httptest.NewRequest(http.MethodHead, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Fatalf("OpenAPI handler, HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

// TestOpenAPIConstraintsMatchTheDomain checks the documented limits
// against the rules the service enforces.
func TestOpenAPIConstraintsMatchTheDomain(t *testing.T) {
	doc := loadSpec(t)
	prop := func(schema, name string) *openapi3.Schema {
		t.Helper()
		s := doc.Components.Schemas[schema]
		if s == nil || s.Value.Properties[name] == nil {
			t.Fatalf("no %s.%s in the document", schema, name)
		}
		return s.Value.Properties[name].Value
	}
	maxLen := func(s *openapi3.Schema) int {
		if s.MaxLength == nil {
			return -1
		}
		return int(*s.MaxLength)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"SMS body max length", maxLen(prop("SMS", "body")), voice.MaxBody},
		{"SMS media_urls max items", int(*prop("SMS", "media_urls").MaxItems), voice.MaxMedia},
		{"note max length", maxLen(prop("NoteBody", "text")), voice.MaxNote},
		{"contact tags max items", int(*prop("ContactBody", "tags").MaxItems), voice.MaxTags},
		{"contact tag max length", maxLen(prop("ContactBody", "tags").Items.Value), voice.MaxTagLen},
		{"number search limit max", int(*prop("NumberSearch", "limit").Max), 50},
		{"number search limit min", int(*prop("NumberSearch", "limit").Min), 1},
		{"callback attempts", int(*prop("CallbackAttempt", "attempt").Max), cmd.MaxCallbackAttempts},
		{"list limit max", int(*doc.Components.Parameters["Limit25"].Value.Schema.Value.Max), readvoice.MaxLimit},
		{"call list default limit", int(doc.Components.Parameters["Limit25"].Value.Schema.Value.Default.(float64)), readvoice.DefaultLimit},
	} {
		if c.got != c.want {
			t.Errorf("%s: documented %d, enforced %d", c.what, c.got, c.want)
		}
	}
	if got := prop("CallingHours", "start").Const; got != "08:00" || voice.CallingHoursStart != 8 {
		t.Errorf("calling hours start: %v", got)
	}
	if got := prop("CallingHours", "end").Const; got != "21:00" || voice.CallingHoursEnd != 21 {
		t.Errorf("calling hours end: %v", got)
	}
	enum := func(s *openapi3.Schema) []string {
		var out []string
		for _, v := range s.Enum {
			out = append(out, v.(string))
		}
		return out
	}
	if got := enum(doc.Components.Schemas["CallStatus"].Value); !slices.Equal(got, voice.CallStatuses) {
		t.Errorf("call statuses: documented %v, domain %v", got, voice.CallStatuses)
	}
	for from, moves := range voice.VoicemailMoves {
		desc := doc.Components.Schemas["VoicemailStatus"].Value.Description
		if !strings.Contains(desc, from+" -> "+strings.Join(moves, " or ")) {
			t.Errorf("voicemail moves from %s (%v) are not documented: %q", from, moves, desc)
		}
	}

	// The documented E.164 pattern accepts exactly what the domain does.
	e164 := regexp.MustCompile(prop("SMS", "to_number").Pattern)
	for _, n := range []string{"+14155550123", "+4930123456", "+819012345678", "+123456789012345", "+1234567890123456", "+01234567890",
		"14155550123", "+1415555012a", "+1234567", "+12345678", "", "+", "+4 930123456", "+441234567890 "} {
		if got, want := e164.MatchString(n), voice.CheckE164("phone", n) == nil; got != want {
			t.Errorf("E.164 %q: documented pattern says %v, the domain %v", n, got, want)
		}
	}

	// The callback payload's properties are the ones Strata sends.
	var sent []string
	rt := reflect.TypeFor[cmd.CallbackPayload]()
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "-" && name != "" {
			sent = append(sent, name)
		}
	}
	var documented []string
	for name := range doc.Components.Schemas["StatusCallback"].Value.Properties {
		documented = append(documented, name)
	}
	slices.Sort(sent)
	slices.Sort(documented)
	if !slices.Equal(sent, documented) {
		t.Errorf("status callback payload: sent %v, documented %v", sent, documented)
	}
}

// oaRouted returns every "METHOD /path/{template}" the voice surface serves
// without a telephony provider's webhooks: its health checks, Routes, the
// payments routes mounted there, /openapi.json and /docs (mounted here
// unless Routes mounts them already).
func oaRouted(t *testing.T) []string {
	t.Helper()
	sf, err := readapi.NewSurface("voice", readapi.Deps{Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(),
		Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	r := sf.Router
	readvoice.Routes(r, readvoice.Config{})
	readpayments.Routes(r, readpayments.Config{AccountOnly: true})
	if !oaHasRoute(r, http.MethodGet, "/openapi.json") {
		r.HandleFunc("/openapi.json", readvoice.OpenAPI).Methods(http.MethodGet)
	}
	if !oaHasRoute(r, http.MethodGet, "/docs") {
		r.Handle("/docs", apidocs.Handler("Strata voice API", "/openapi.json")).Methods(http.MethodGet)
	}
	var out []string
	err = r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if route.GetHandler() == nil {
			return nil
		}
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return err
		}
		methods, err := route.GetMethods()
		if err != nil {
			t.Errorf("route %s answers every method: give it .Methods(...) so it can be documented", tpl)
			return nil
		}
		for _, m := range methods {
			out = append(out, m+" "+tpl)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func oaHasRoute(r *mux.Router, method, path string) bool {
	var m mux.RouteMatch
	return r.Match(httptest.NewRequest(method, path, nil), &m) && m.MatchErr == nil
}

// TestOpenAPIDocumentsEveryRoute compares the router's routes with the
// document's operations, both ways.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	openapitest.RoutesMatch(t, loadSpec(t), oaRouted(t))
}

// TestOpenAPIExamplesAreValid checks every request example against its
// schema (the docs page prefills Try it with them).
func TestOpenAPIExamplesAreValid(t *testing.T) {
	doc := loadSpec(t)
	openapitest.EachOperation(t, doc, func(where string, op *openapi3.Operation) {
		if op.RequestBody == nil {
			return
		}
		mt := op.RequestBody.Value.Content.Get("application/json")
		raw, err := json.Marshal(mt.Example)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		_ = json.Unmarshal(raw, &v)
		if err := mt.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("%s: the request example does not match its schema: %v", where, err)
		}
	})
}

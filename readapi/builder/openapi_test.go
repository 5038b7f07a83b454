package builder_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/openapitest"
)

// loadBuilderSpec loads the embedded OpenAPI document and validates it.
func loadBuilderSpec(t *testing.T) *openapi3.T {
	t.Helper()
	return openapitest.Load(t, readbuilder.Spec())
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadBuilderSpec(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.Info == nil || doc.Info.Version != "1.0.0" {
		t.Errorf("info.version is not 1.0.0")
	}
	if doc.JSONSchemaDialect != "https://spec.openapis.org/oas/3.1/dialect/base" {
		t.Errorf("jsonSchemaDialect = %q", doc.JSONSchemaDialect)
	}
	sc := doc.Components.SecuritySchemes["founderSession"]
	if sc == nil || sc.Value.Type != "apiKey" || sc.Value.In != "cookie" || sc.Value.Name != "strata_founder" {
		t.Fatal("no founderSession cookie security scheme")
	}
	for _, name := range []string{"Problem", "ChatStreamEvent", "EventId"} {
		if doc.Components.Schemas[name] == nil {
			t.Errorf("no %s schema", name)
		}
	}
	// Every event the stream writes has its member of ChatStreamEvent.
	var events []string
	for _, one := range doc.Components.Schemas["ChatStreamEvent"].Value.OneOf {
		events = append(events, fmt.Sprint(one.Value.Properties["event"].Value.Const))
	}
	slices.Sort(events)
	if want := []string{"complete", "error", "file", "plan", "preview", "start", "step", "usage"}; !slices.Equal(events, want) {
		t.Errorf("ChatStreamEvent events = %v, want %v", events, want)
	}
	openapitest.EachOperation(t, doc, nil)

	// The surface serves the document as is, at both paths, without credentials.
	router := builderRouter(t)
	for _, path := range []string{"/openapi.json", "/api/openapi.json"} {
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !bytes.Equal(rec.Body.Bytes(), readbuilder.Spec()) {
			t.Fatalf("GET %s: %d %q, %d bytes", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
		}
	}
}

// routeFuncs are the package's route functions builderRouter calls; the
// test fails when the package grows one it does not.
var routeFuncs = []string{"ArtifactRoutes", "ChatRoutes", "DeckRoutes", "DeployRoutes", "OpenAPIRoutes", "Routes", "SecretRoutes", "SystemsRoutes"}

// builderRouter is the builder surface as cmd/strata's builderRoutes
// builds it (its health route included), every route function called
// with nil dependencies: registering touches none of them.
func builderRouter(t *testing.T) *mux.Router {
	t.Helper()
	surface, err := readapi.NewSurface("builder", readapi.Deps{Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(),
		Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	r := surface.Router
	founders := readbuilder.Routes(r, nil, nil, nil, false)
	readbuilder.DeployRoutes(r, founders, nil)
	readbuilder.ChatRoutes(r, readbuilder.NewChat(readbuilder.ChatConfig{}))
	readbuilder.ArtifactRoutes(r, readbuilder.NewArtifactAPI(nil))
	readbuilder.SecretRoutes(r, founders, nil)
	readbuilder.SystemsRoutes(r, founders, nil, nil)
	readbuilder.DeckRoutes(r, founders, nil, cmdbuilder.DeckSources{})
	readbuilder.OpenAPIRoutes(r)
	return r
}

// TestOpenAPIRouteFuncsAreAllCalled reads the package's sources for its
// exported route functions (func XRoutes(r *mux.Router, ...)).
func TestOpenAPIRouteFuncsAreAllCalled(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !fd.Name.IsExported() || !strings.HasSuffix(fd.Name.Name, "Routes") {
					continue
				}
				found = append(found, fd.Name.Name)
			}
		}
	}
	slices.Sort(found)
	if !slices.Equal(found, routeFuncs) {
		t.Errorf("the package's route functions are %v; builderRouter calls %v: document the new routes and call it", found, routeFuncs)
	}
}

var templateVar = regexp.MustCompile(`\{([^}:]+):[^}]*\}`)

// anyMethods are the methods documented for a route that takes every
// method (the preview's): its path item says so with x-strata-any-method.
func anyMethods(doc *openapi3.T, path string) []string {
	item := doc.Paths.Value(path)
	if item == nil || item.Extensions["x-strata-any-method"] != true {
		return nil
	}
	var out []string
	for m := range item.Operations() {
		out = append(out, strings.ToUpper(m))
	}
	return out
}

// builderRouted returns every "METHOD /path/{template}" the surface routes.
func builderRouted(t *testing.T, doc *openapi3.T) []string {
	t.Helper()
	var out []string
	err := builderRouter(t).Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if route.GetHandler() == nil {
			return nil
		}
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return err
		}
		tpl = templateVar.ReplaceAllString(tpl, "{$1}")
		methods, err := route.GetMethods()
		if err != nil {
			if methods = anyMethods(doc, tpl); !slices.Contains(methods, http.MethodGet) {
				t.Errorf("route %s answers every method: document it with x-strata-any-method and its GET, or give it .Methods(...)", tpl)
				return nil
			}
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

// TestOpenAPIDocumentsEveryRoute compares the surface's routes with the
// document's operations, both ways.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	doc := loadBuilderSpec(t)
	have := builderRouted(t, doc)
	var want []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			want = append(want, strings.ToUpper(method)+" "+path)
		}
	}
	var undocumented, unrouted []string
	for _, r := range have {
		if !slices.Contains(want, r) {
			undocumented = append(undocumented, r)
		}
	}
	for _, d := range want {
		if !slices.Contains(have, d) {
			unrouted = append(unrouted, d)
		}
	}
	if len(have) != len(slices.Compact(slices.Sorted(slices.Values(have)))) {
		t.Errorf("a route is registered twice: %v", have)
	}
	if len(undocumented)+len(unrouted) == 0 {
		return
	}
	slices.Sort(undocumented)
	slices.Sort(unrouted)
	var b strings.Builder
	fmt.Fprintf(&b, "routes (%d) and openapi.json operations (%d) differ:\n", len(have), len(want))
	for _, r := range undocumented {
		fmt.Fprintf(&b, "  + routed, not in openapi.json:  %s\n", r)
	}
	for _, d := range unrouted {
		fmt.Fprintf(&b, "  - in openapi.json, not routed:  %s\n", d)
	}
	t.Error(b.String())
}

var bodyDecoders sync.Once

// decodeSSE reads a text/event-stream body as the list of its events
// ({id, event, data}), the shape the document gives the stream.
func decodeSSE(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	var out []any
	cur := map[string]any{}
	var data strings.Builder
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(cur) > 0 {
				var d any
				if err := json.Unmarshal([]byte(data.String()), &d); err != nil {
					return nil, fmt.Errorf("event %v: data is not JSON: %w", cur["event"], err)
				}
				cur["data"] = d
				out = append(out, cur)
			}
			cur, data = map[string]any{}, strings.Builder{}
		case strings.HasPrefix(line, ":"): // a comment (keep-alive)
		case strings.HasPrefix(line, "id: "):
			cur["id"] = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			cur["event"] = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data.WriteString(strings.TrimPrefix(line, "data: "))
		default:
			return nil, fmt.Errorf("not an SSE line: %q", line)
		}
	}
	return out, sc.Err()
}

// oaCheck sends requests to a live surface and checks each request and
// response against the operation the document gives it.
type oaCheck struct {
	t      *testing.T
	router routers.Router
	opts   *openapi3filter.Options
}

func newOACheck(t *testing.T) *oaCheck {
	bodyDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder("text/event-stream", decodeSSE)
		openapi3filter.RegisterBodyDecoder("application/zip", openapi3filter.FileBodyDecoder)
	})
	doc := loadBuilderSpec(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &oaCheck{t: t, router: router, opts: &openapi3filter.Options{
		IncludeResponseStatus: true, // a status the operation does not list fails
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}}
}

// oaReq is one request of a check.
type oaReq struct {
	method, url string
	body        any    // JSON body, nil: none
	cookie      string // the founder session cookie, "": none
	header      map[string]string
	bad         bool // deliberately bad: the request itself is not checked
}

// do sends q, fails unless the answer has status want, checks the
// request (unless bad) and the response, and returns the decoded body.
func (v *oaCheck) do(q oaReq, want int) map[string]any {
	t := v.t
	t.Helper()
	var raw []byte
	if q.body != nil {
		var err error
		if raw, err = json.Marshal(q.body); err != nil {
			t.Fatal(err)
		}
	}
	newRequest := func() *http.Request {
		var rd io.Reader
		if raw != nil {
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequest(q.method, q.url, rd)
		if err != nil {
			t.Fatal(err)
		}
		if raw != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if q.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "strata_founder", Value: q.cookie})
		}
		for k, val := range q.header {
			req.Header.Set(k, val)
		}
		return req
	}
	ctx := context.Background()
	req := newRequest()
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: no operation in openapi.json: %v", q.method, q.url, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: v.opts}
	if !q.bad {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Errorf("%s %s: the request does not match operation %s: %v\nbody: %.2000s", q.method, q.url, route.Operation.OperationID, err, raw)
		}
	}
	res, err := http.DefaultClient.Do(newRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %.2000s", q.method, q.url, res.StatusCode, want, got)
	}
	rin := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header, Options: v.opts}
	rin.SetBodyBytes(got)
	if err := openapi3filter.ValidateResponse(ctx, rin); err != nil {
		t.Errorf("%s %s -> %d: the response does not match operation %s: %v\nbody: %.3000s", q.method, q.url, res.StatusCode,
			route.Operation.OperationID, err, got)
	}
	var out map[string]any
	_ = json.Unmarshal(got, &out)
	if out == nil {
		out = map[string]any{"raw": string(got)}
	}
	return out
}

// TestOpenAPIResponsesConform drives the generation, version, artifact and
// Ask routes (no auth) and checks each request and response, the event
// stream included, against openapi.json.
func TestOpenAPIResponsesConform(t *testing.T) {
	w := startArtifacts(t)
	v := newOACheck(t)
	u := w.url

	// The stream, read whole and checked event by event.
	v.do(oaReq{method: "POST", url: u + "/api/chat-ws", body: map[string]any{"message": "a booking app for a yoga studio"}}, http.StatusOK)
	chatID := w.generate("a booking app for a yoga studio with classes and members")

	vers := v.do(oaReq{method: "GET", url: u + "/api/build/versions?chatId=" + chatID}, http.StatusOK)
	list, _ := vers["versions"].([]any)
	if len(list) != 1 {
		t.Fatalf("versions: %v", vers)
	}
	v.do(oaReq{method: "HEAD", url: u + "/api/build/versions?chatId=" + chatID}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/versions/restore", body: map[string]any{"chatId": chatID, "version": "1"}}, http.StatusOK)
	v.do(oaReq{method: "GET", url: u + "/api/build/export/" + chatID}, http.StatusOK)

	// Resuming after the first event of the first generation replays the rest.
	v.do(oaReq{method: "POST", url: u + "/api/chat-ws", header: map[string]string{"Last-Event-ID": chatID + ":1:0"}}, http.StatusOK)

	art := v.do(oaReq{method: "POST", url: u + "/api/build/artifact", body: map[string]any{"view": "dataModel", "idea": "a booking app for a yoga studio",
		"track": "app", "companyId": chatID}}, http.StatusOK)
	if art["generator"] != "template" {
		t.Errorf("artifact: %v", art)
	}
	v.do(oaReq{method: "POST", url: u + "/api/build/artifact", body: map[string]any{"view": "prd", "idea": "a CRM for florists", "track": "app"}}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/artifact", body: map[string]any{"view": "pricing", "idea": "a CRM for florists", "track": "company"}},
		http.StatusServiceUnavailable)
	v.do(oaReq{method: "POST", url: u + "/api/build/ask", body: map[string]any{"question": "how many versions are there?",
		"idea": "a booking app for a yoga studio", "companyId": chatID, "chatId": chatID}}, http.StatusOK)
	v.do(oaReq{method: "GET", url: u + "/api/build/ask?companyId=" + chatID + "&chatId=" + chatID}, http.StatusOK)

	// Problems.
	p := v.do(oaReq{method: "POST", url: u + "/api/chat-ws", body: map[string]any{"message": ""}, bad: true}, http.StatusBadRequest)
	if p["field"] != "message" {
		t.Errorf("empty message: %v", p)
	}
	v.do(oaReq{method: "POST", url: u + "/api/chat-ws", body: map[string]any{"message": "x", "colour": "red"}, bad: true}, http.StatusBadRequest)
	v.do(oaReq{method: "GET", url: u + "/api/build/versions?chatId=nope", bad: true}, http.StatusBadRequest)
	v.do(oaReq{method: "GET", url: u + "/api/build/versions?chatId=chat_0000000000000000000000"}, http.StatusNotFound)
	v.do(oaReq{method: "POST", url: u + "/api/chat-ws", header: map[string]string{"Last-Event-ID": "garbage"}, bad: true}, http.StatusBadRequest)
}

// TestOpenAPISessionResponsesConform checks the session routes of the
// business systems and the nightly loop, and a record posted with the
// company key, against openapi.json.
func TestOpenAPISessionResponsesConform(t *testing.T) {
	w := newSysWorld(t)
	v := newOACheck(t)
	u := w.url
	f := w.signIn("user-oa")
	company := w.company("user-oa", "a CRM for florists")

	v.do(oaReq{method: "GET", url: u + "/api/session", cookie: f.cookie}, http.StatusOK)
	v.do(oaReq{method: "GET", url: u + "/api/session"}, http.StatusUnauthorized)
	v.do(oaReq{method: "GET", url: u + "/api/build/systems?companyId=" + company + "&idea=bookings+and+invoices"}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/systems/records", cookie: f.cookie, body: map[string]any{"companyId": company,
		"system": "crm", "type": "created", "recordId": "deal-1", "fields": map[string]any{"name": "Big florist"}}}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/systems/records", cookie: f.cookie, body: map[string]any{"companyId": company,
		"system": "crm", "type": "closed", "recordId": "deal-1", "outcome": "won"}}, http.StatusOK)
	key := v.do(oaReq{method: "POST", url: u + "/api/build/systems/key", cookie: f.cookie, body: map[string]any{"companyId": company}}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/systems/records", header: map[string]string{"Authorization": "Bearer " + fmt.Sprint(key["key"])},
		body: map[string]any{"companyId": company, "system": "support", "type": "created", "recordId": "t-1"}}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/systems/records", cookie: f.cookie, body: map[string]any{"companyId": company,
		"system": "crm", "type": "created", "recordId": "deal-1"}}, http.StatusConflict)
	v.do(oaReq{method: "POST", url: u + "/api/build/systems/records", body: map[string]any{"companyId": company,
		"system": "crm", "type": "created", "recordId": "deal-2"}}, http.StatusUnauthorized)
	v.do(oaReq{method: "GET", url: u + "/api/build/nightly?companyId=" + company, cookie: f.cookie}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/enroll", cookie: f.cookie, body: map[string]any{"companyId": company,
		"companyName": "Florist CRM", "track": "app", "timeZone": "Europe/Paris", "budget": map[string]any{"max_proposals": 3}}}, http.StatusOK)
	v.do(oaReq{method: "GET", url: u + "/api/build/nightly?companyId=" + company, cookie: f.cookie}, http.StatusOK)
	v.do(oaReq{method: "POST", url: u + "/api/build/enroll", cookie: f.cookie, body: map[string]any{"companyId": company,
		"companyName": "Florist CRM", "track": "spaceship"}, bad: true}, http.StatusBadRequest)
	other := w.signIn("user-other")
	v.do(oaReq{method: "GET", url: u + "/api/build/nightly?companyId=" + company, cookie: other.cookie}, http.StatusForbidden)
	v.do(oaReq{method: "POST", url: u + "/auth/logout"}, http.StatusNoContent)
}

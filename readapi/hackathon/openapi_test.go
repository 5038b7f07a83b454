package hackathon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gorilla/mux"

	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
	"github.com/strata-platform/strata/readapi/openapitest"
)

// loadSpec loads the embedded OpenAPI document and validates it.
func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	return openapitest.Load(t, readhackathon.Spec())
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
		ok := false
		for code := range op.Responses.Map() {
			ok = ok || strings.HasPrefix(code, "2")
		}
		if !ok || op.Responses.Value("500") == nil || op.Responses.Value("400") == nil {
			t.Errorf("%s: responses must list a 2xx, 400 and 500", where)
		}
		open := op.Security != nil && len(*op.Security) == 0
		if !open && (op.Responses.Value("401") == nil || op.Responses.Value("429") == nil) {
			t.Errorf("%s needs credentials: it must list 401 and 429", where)
		}
	})
	tooMany := doc.Components.Responses["TooManyRequests"].Value
	if tooMany.Headers["Retry-After"] == nil {
		t.Error("429 does not document Retry-After")
	}
	if !strings.Contains(doc.Info.Description, "300 requests a minute per user") {
		t.Error("the rate limit's numbers are not documented")
	}

	rec := httptest.NewRecorder()
	readhackathon.OpenAPI(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !bytes.Equal(rec.Body.Bytes(), readhackathon.Spec()) {
		t.Fatalf("OpenAPI handler: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
}

// routed returns every "METHOD /path/{template}" Routes registers.
func routed(t *testing.T) []string {
	t.Helper()
	r := mux.NewRouter()
	readhackathon.Routes(r, readhackathon.Config{})
	var out []string
	err := r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
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

// TestOpenAPIDocumentsEveryRoute compares the router's routes with the
// document's operations, both ways.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	openapitest.RoutesMatch(t, loadSpec(t), routed(t))
}

// conformance sends requests to the live surface and checks each request
// and answer against the operation the document gives it.
type conformance struct {
	t      *testing.T
	s      *server
	router routers.Router
	opts   *openapi3filter.Options
	seen   map[string]bool // "operationId status" checked
}

func newConformance(t *testing.T, s *server) *conformance {
	doc := loadSpec(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &conformance{t: t, s: s, router: router, seen: map[string]bool{}, opts: &openapi3filter.Options{
		IncludeResponseStatus: true, // a status the operation does not list fails
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}}
}

// oaCred is how a call authenticates: a bearer JWT, an API key, or nothing.
type oaCred struct{ bearer, key string }

// call sends a JSON body (nil for none) and fails unless the status is
// want; the request is checked against the document unless it is
// deliberately bad, the answer always.
func (v *conformance) call(c oaCred, method, path string, body any, want int, deliberatelyBad ...bool) reply {
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
	return v.send(c, method, path, ct, raw, want, len(deliberatelyBad) == 0 || !deliberatelyBad[0])
}

// send is call with any body.
func (v *conformance) send(c oaCred, method, path, contentType string, raw []byte, want int, checkRequest bool) reply {
	t := v.t
	t.Helper()
	newRequest := func() *http.Request {
		var rd io.Reader
		if raw != nil {
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequest(method, v.s.URL+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if c.bearer != "" {
			req.Header.Set("Authorization", "Bearer "+c.bearer)
		}
		if c.key != "" {
			req.Header.Set("X-API-Key", c.key)
		}
		return req
	}
	ctx := context.Background()
	req := newRequest()
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
	res := v.s.send(newRequest())
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

// oaID is the "id" of an answer.
func oaID(t *testing.T, r reply) string {
	t.Helper()
	s, _ := r.Body["id"].(string)
	if s == "" {
		t.Fatalf("no id in %s", r.Raw)
	}
	return s
}

package captable_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/captable"
	readcaptable "github.com/strata-platform/strata/readapi/captable"
	"github.com/strata-platform/strata/readapi/openapitest"
)

// loadSpec loads the embedded OpenAPI document and validates it.
func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	return openapitest.Load(t, readcaptable.Spec())
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadSpec(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.JSONSchemaDialect != "https://spec.openapis.org/oas/3.1/dialect/base" {
		t.Errorf("jsonSchemaDialect = %q", doc.JSONSchemaDialect)
	}
	if doc.Components == nil || doc.Components.SecuritySchemes["bearerAuth"] == nil {
		t.Fatal("no bearerAuth security scheme")
	}
	openapitest.EachOperation(t, doc, nil)

	// The handler serves the document as is.
	rec := httptest.NewRecorder()
	readcaptable.OpenAPI(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !bytes.Equal(rec.Body.Bytes(), readcaptable.Spec()) {
		t.Fatalf("OpenAPI handler: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
	if !json.Valid(readcaptable.Spec()) {
		t.Fatal("Spec() is not JSON")
	}
}

// routed returns every "METHOD /path/{template}" the cap table routes.
func routed(t *testing.T) []string {
	t.Helper()
	r := mux.NewRouter()
	readcaptable.Routes(r, nil, nil)
	var out []string
	err := r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if route.GetHandler() == nil {
			return nil // a subrouter's prefix
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

// documented returns every "METHOD /path/{template}" the document describes.
func documented(doc *openapi3.T) []string {
	var out []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	return out
}

// TestOpenAPIDocumentsEveryRoute compares the router's routes with the
// document's operations, both ways.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	doc := loadSpec(t)
	have, want := routed(t), documented(doc)
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

// conformance sends requests through the real surface and checks each
// request and response against the operation the document gives it.
type conformance struct {
	t      *testing.T
	router routers.Router
	opts   *openapi3filter.Options
}

func newConformance(t *testing.T) *conformance {
	doc := loadSpec(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &conformance{t: t, router: router, opts: &openapi3filter.Options{
		IncludeResponseStatus: true, // a status the operation does not list fails
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}}
}

// call sends method path as c with a JSON body (when body is not nil) and
// fails unless the answer has status want. It checks the request against
// the document unless the call is deliberately bad, and the response always.
func (v *conformance) call(c *client, method, path string, body any, want int, deliberatelyBad ...bool) reply {
	v.t.Helper()
	var raw []byte
	contentType := ""
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			v.t.Fatal(err)
		}
		contentType = "application/json"
	}
	return v.send(c, method, c.w.url+path, contentType, raw, want, len(deliberatelyBad) == 0 || !deliberatelyBad[0])
}

// send is call with any body, to a full URL.
func (v *conformance) send(c *client, method, url, contentType string, raw []byte, want int, checkRequest bool) reply {
	t := v.t
	t.Helper()
	newRequest := func() *http.Request {
		var rd io.Reader
		if raw != nil {
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequest(method, url, rd)
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		if c.company != "" {
			req.Header.Set("X-Company-ID", c.company)
		}
		return req
	}
	ctx := context.Background()
	req := newRequest()
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: no operation in openapi.json: %v", method, url, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: v.opts}
	if checkRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Errorf("%s %s: the request does not match operation %s: %v\nbody: %.2000s", method, url, route.Operation.OperationID, err, raw)
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
	out := reply{status: res.StatusCode, header: res.Header, raw: got}
	_ = json.Unmarshal(got, &out.body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %.2000s", method, url, res.StatusCode, want, got)
	}
	rin := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header, Options: v.opts}
	rin.SetBodyBytes(got)
	if err := openapi3filter.ValidateResponse(ctx, rin); err != nil {
		t.Errorf("%s %s -> %d: the response does not match operation %s: %v\nbody: %.2000s", method, url, res.StatusCode,
			route.Operation.OperationID, err, got)
	}
	return out
}

// multipartBody is a multipart/form-data body with a file part and fields.
func multipartBody(t *testing.T, filename string, content []byte, fields map[string]string) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, val := range fields {
		if err := mw.WriteField(k, val); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), b.Bytes()
}

// TestOpenAPIResponsesConform drives the real surface through a company's
// life and checks every request and response against openapi.json, so the
// document cannot drift from the code unnoticed.
func TestOpenAPIResponsesConform(t *testing.T) {
	w := start(t)
	v := newConformance(t)
	anon := &client{w: w}

	reg := v.call(anon, "POST", "/auth/register", map[string]any{"name": "Ada", "email": "ada@conform.test",
		"password": "correct-horse-9", "companyName": "Conform Inc"}, http.StatusCreated).body
	if err := w.svc.SetPlan(context.Background(), "ada@conform.test", captable.PlanEnterprise); err != nil {
		t.Fatal(err)
	}
	c := &client{w: w, token: str(reg["accessToken"])}
	login := v.call(anon, "POST", "/auth/login", map[string]any{"email": "ada@conform.test", "password": "correct-horse-9"}, http.StatusOK).body
	v.call(anon, "POST", "/auth/refresh", map[string]any{"refreshToken": login["refreshToken"]}, http.StatusOK)
	v.call(c, "GET", "/auth/me", nil, http.StatusOK)

	common := v.call(c, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 10000000}, http.StatusCreated).body
	pool := v.call(c, "POST", "/share-classes", map[string]any{"name": "Plan", "type": "OPTIONS_POOL", "totalShares": 1000000}, http.StatusCreated).body
	seed := v.call(c, "POST", "/share-classes", map[string]any{"name": "Seed", "type": "PREFERRED", "totalShares": 1000000,
		"pricePerShare": "1.25", "participating": true, "participationCap": 3}, http.StatusCreated).body
	v.call(c, "PUT", "/share-classes/"+str(pool["id"]), map[string]any{"totalShares": 1500000}, http.StatusOK)
	v.call(c, "GET", "/share-classes", nil, http.StatusOK)
	v.call(c, "GET", "/share-classes/"+str(seed["id"]), nil, http.StatusOK)

	founder := v.call(c, "POST", "/stakeholders", map[string]any{"name": "Ada", "email": "ada@conform.test", "type": "FOUNDER", "title": "CEO"}, http.StatusCreated).body
	employee := v.call(c, "POST", "/stakeholders", map[string]any{"name": "Eve", "type": "EMPLOYEE"}, http.StatusCreated).body
	investor := v.call(c, "POST", "/stakeholders", map[string]any{"name": "Fund", "email": "fund@vc.test", "type": "INVESTOR"}, http.StatusCreated).body
	temp := v.call(c, "POST", "/stakeholders", map[string]any{"name": "Temp", "type": "ADVISOR"}, http.StatusCreated).body
	v.call(c, "PUT", "/stakeholders/"+str(employee["id"]), map[string]any{"name": "Eve", "type": "EMPLOYEE", "title": "Engineer"}, http.StatusOK)
	v.call(c, "GET", "/stakeholders?page=1&limit=2", nil, http.StatusOK)
	v.call(c, "GET", "/stakeholders/"+str(founder["id"]), nil, http.StatusOK)
	v.call(c, "DELETE", "/stakeholders/"+str(temp["id"]), nil, http.StatusNoContent)

	v.call(c, "POST", "/equity-grants", map[string]any{"stakeholderId": founder["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 6000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"}, http.StatusCreated)
	v.call(c, "POST", "/equity-grants", map[string]any{"stakeholderId": investor["id"], "shareClassId": seed["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 800000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-03-01"}, http.StatusCreated)
	opt := v.call(c, "POST", "/equity-grants", map[string]any{"stakeholderId": employee["id"], "shareClassId": pool["id"],
		"grantType": "OPTION", "quantity": 48000, "strikePrice": "0.10", "vestingSchedule": "4_YEAR_1_YEAR_CLIFF",
		"grantDate": "2024-02-01", "exerciseWindowDays": 90}, http.StatusCreated).body
	custom := v.call(c, "POST", "/equity-grants", map[string]any{"stakeholderId": employee["id"], "shareClassId": pool["id"],
		"grantType": "RSU", "quantity": 1000, "vestingSchedule": "CUSTOM", "grantDate": "2024-02-01",
		"customTranches": []map[string]any{{"months": 6, "percent": 50}, {"date": "2025-02-01", "percent": 50}}}, http.StatusCreated).body
	gid := str(opt["id"])
	v.call(c, "PUT", "/equity-grants/"+str(custom["id"]), map[string]any{"notes": "refresh"}, http.StatusOK)
	v.call(c, "POST", "/equity-grants/"+gid+"/accept", map[string]any{"acceptedOn": "2024-02-15"}, http.StatusOK)
	v.call(c, "POST", "/equity-grants/"+str(custom["id"])+"/accept", nil, http.StatusOK)
	v.call(c, "POST", "/equity-grants/"+gid+"/exercise", map[string]any{"quantity": 12000, "exerciseDate": "2025-03-01"}, http.StatusOK)
	v.call(c, "POST", "/equity-grants/"+gid+"/terminate", map[string]any{"terminationDate": "2025-04-01"}, http.StatusOK)
	v.call(c, "POST", "/equity-grants/"+str(custom["id"])+"/cancel", map[string]any{"reason": "left"}, http.StatusOK)
	v.call(c, "GET", "/equity-grants?stakeholderId="+str(employee["id"]), nil, http.StatusOK)
	v.call(c, "GET", "/equity-grants/"+gid, nil, http.StatusOK)
	v.call(c, "GET", "/equity-grants/"+gid+"/vesting?asOf=2025-06-01", nil, http.StatusOK)

	safe := v.call(c, "POST", "/safes", map[string]any{"investorId": investor["id"], "investmentAmount": 500000,
		"valuationCap": 8000000, "discountRate": "0.2", "safeType": "POST_MONEY", "issueDate": "2024-06-01"}, http.StatusCreated).body
	mfn := v.call(c, "POST", "/safes", map[string]any{"investorId": investor["id"], "investmentAmount": 100000,
		"safeType": "MFN", "issueDate": "2024-05-01"}, http.StatusCreated).body
	v.call(c, "PUT", "/safes/"+str(safe["id"]), map[string]any{"notes": "signed"}, http.StatusOK)
	v.call(c, "POST", "/safes/"+str(mfn["id"])+"/elect-mfn", map[string]any{"electedSafeId": safe["id"], "electedOn": "2024-07-01"}, http.StatusOK)
	v.call(c, "GET", "/safes", nil, http.StatusOK)
	v.call(c, "GET", "/safes/"+str(mfn["id"]), nil, http.StatusOK)

	val := v.call(c, "POST", "/valuations", map[string]any{"valuationDate": "2024-07-01", "methodology": "409A", "pricePerShare": "0.35"}, http.StatusCreated).body
	v.call(c, "GET", "/valuations", nil, http.StatusOK)
	v.call(c, "GET", "/valuations/latest", nil, http.StatusOK)
	v.call(c, "GET", "/valuations/"+str(val["id"]), nil, http.StatusOK)

	v.call(c, "GET", "/cap-table", nil, http.StatusOK)
	v.call(c, "GET", "/cap-table?asOfDate=2025-01-01&top=2", nil, http.StatusOK)
	v.call(c, "GET", "/cap-table/fully-diluted", nil, http.StatusOK)
	round := map[string]any{"roundSize": 5000000, "preMoneyValuation": 20000000, "newShareClassName": "Series A", "optionPoolTargetPercent": 10}
	model := v.call(c, "POST", "/cap-table/dilution", round, http.StatusOK).body
	v.call(c, "POST", "/cap-table/waterfall", map[string]any{"exitValue": 50000000, "transactionCosts": "250000.50"}, http.StatusOK)
	v.call(c, "POST", "/cap-table/waterfall", map[string]any{"exitValue": 50000000, "includeBreakpoints": false, "round": round}, http.StatusOK)
	commit := map[string]any{"investors": []map[string]any{{"stakeholderId": investor["id"], "amount": 5000000}},
		"pricePerShare": model["result"].(map[string]any)["priceRounded"]}
	for k, val := range round {
		commit[k] = val
	}
	v.call(c, "POST", "/cap-table/dilution/commit", commit, http.StatusCreated)
	v.call(c, "POST", "/cap-table/dilution/commit", commit, http.StatusConflict) // the cap table moved: the price changed
	v.call(c, "GET", "/cap-table/fully-diluted", nil, http.StatusOK)
	v.call(c, "GET", "/safes/"+str(safe["id"]), nil, http.StatusOK) // converted

	ct, body := multipartBody(t, "consent.txt", []byte("The board consents.\n"), map[string]string{"type": "BOARD_CONSENT",
		"stakeholderId": str(founder["id"])})
	doc := v.send(c, "POST", w.url+"/documents", ct, body, http.StatusCreated, true).body
	ct, body = multipartBody(t, "plan.csv", []byte("name,shares\nAda,100\n"), map[string]string{"type": "OPTION_PLAN"})
	v.send(c, "POST", w.url+"/documents", ct, body, http.StatusCreated, true)
	v.call(c, "GET", "/documents?type=BOARD_CONSENT", nil, http.StatusOK)
	v.call(c, "GET", "/documents/"+str(doc["id"]), nil, http.StatusOK)
	v.call(c, "GET", "/documents/"+str(doc["id"])+"/download", nil, http.StatusOK)
	v.call(c, "DELETE", "/documents/"+str(doc["id"]), nil, http.StatusNoContent)
	ct, body = multipartBody(t, "tool.exe", []byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), map[string]string{"type": "OTHER"})
	v.send(c, "POST", w.url+"/documents", ct, body, http.StatusUnsupportedMediaType, true)

	rep := v.call(c, "POST", "/financial-reports", map[string]any{"type": "CAP_TABLE_SUMMARY"}, http.StatusCreated).body
	csv := v.call(c, "POST", "/financial-reports", map[string]any{"type": "EQUITY_LEDGER", "format": "csv", "asOfDate": "2025-06-30"},
		http.StatusCreated).body
	v.call(c, "GET", "/financial-reports?type=CAP_TABLE_SUMMARY", nil, http.StatusOK)
	v.call(c, "GET", "/financial-reports/"+str(rep["id"]), nil, http.StatusOK)
	v.call(c, "GET", "/financial-reports/"+str(rep["id"])+"/download", nil, http.StatusOK)
	v.call(c, "GET", "/financial-reports/"+str(csv["id"])+"/download", nil, http.StatusOK)

	// The document itself, at the surface root and under the base, once routed.
	served := routed(t)
	if slices.Contains(served, "GET /openapi.json") {
		got := v.send(anon, "GET", strings.TrimSuffix(w.url, "/api/v1")+"/openapi.json", "", nil, http.StatusOK, true)
		if !bytes.Equal(got.raw, readcaptable.Spec()) {
			t.Error("GET /openapi.json does not serve Spec()")
		}
	}
	if slices.Contains(served, "GET /api/v1/openapi.json") {
		v.call(anon, "GET", "/openapi.json", nil, http.StatusOK)
	}

	ag := v.call(c, "POST", "/agents/onboard", map[string]any{"agentName": "reporter", "role": "viewer"}, http.StatusCreated).body
	viewer := &client{w: w, token: str(ag["apiKey"])}
	v.call(viewer, "GET", "/cap-table", nil, http.StatusOK)

	// The error body, on every status the surface answers here.
	v.call(c, "GET", "/stakeholders?limit=500", nil, http.StatusBadRequest, true)
	v.call(c, "POST", "/share-classes", map[string]any{"name": "X", "type": "STOCK", "totalShares": 5}, http.StatusBadRequest, true)
	v.call(anon, "GET", "/cap-table", nil, http.StatusUnauthorized, true)
	v.call(viewer, "POST", "/stakeholders", map[string]any{"name": "T", "type": "FOUNDER"}, http.StatusForbidden)
	v.call(c, "GET", "/equity-grants/nope", nil, http.StatusNotFound)
	v.call(c, "GET", "/stakeholders/nope", nil, http.StatusNotFound)
	v.call(c, "POST", "/stakeholders", map[string]any{"name": "Ada 2", "email": "ADA@conform.test", "type": "FOUNDER"}, http.StatusConflict)
	v.call(anon, "POST", "/auth/register", map[string]any{"name": "Ada", "email": "ada@conform.test",
		"password": "correct-horse-9", "companyName": "Again"}, http.StatusConflict)
	v.call(anon, "POST", "/auth/login", map[string]any{"email": "ada@conform.test", "password": "wrong-password"}, http.StatusUnauthorized)
}

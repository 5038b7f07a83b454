package discovery_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/discovery"
	"github.com/strata-platform/strata/readapi/openapitest"
)

type healthSource struct{}

func (healthSource) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// server is the api surface with the discovery routes only.
func server(t *testing.T, publicURL string) *httptest.Server {
	t.Helper()
	s, err := readapi.NewSurface("api", readapi.Deps{Registry: prometheus.NewRegistry(), Health: healthSource{},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	discovery.Routes(s.Router, discovery.Config{PublicURL: publicURL})
	srv := httptest.NewServer(s.Handler)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func response(url string, resp *http.Response, body []byte) *audit.Response {
	return &audit.Response{URL: url, Method: http.MethodGet, Status: resp.StatusCode, Header: resp.Header, Body: body, Final: url}
}

func TestDiscoveryLLMsTxtParses(t *testing.T) {
	srv := server(t, "")
	resp, body := get(t, srv.URL+"/llms.txt")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("llms.txt: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	doc := audit.ParseLLMsTxt(body)
	if !doc.H1First || doc.Title != "Strata platform API" || !doc.SummaryAfterH1 || doc.Summary == "" {
		t.Fatalf("llms.txt = %+v", doc)
	}
	optional := false
	for _, s := range doc.Sections {
		if len(s.Links) == 0 {
			t.Errorf("section %q has no links", s.Name)
		}
		optional = optional || strings.EqualFold(s.Name, "Optional")
	}
	if len(doc.Sections) < 3 || !optional {
		t.Errorf("sections: %+v", doc.Sections)
	}
	for _, l := range doc.Links {
		if !strings.HasPrefix(l.URL, srv.URL+"/") || l.Notes == "" {
			t.Errorf("link %+v is not on the API's base URL %s, or has no notes", l, srv.URL)
		}
	}
	// The configured public URL wins over the request's Host.
	srv2 := server(t, "https://api.strata.example/")
	_, body = get(t, srv2.URL+"/llms.txt")
	if !strings.Contains(string(body), "(https://api.strata.example/openapi.json)") {
		t.Fatalf("llms.txt does not use the public URL:\n%s", body)
	}
}

func TestDiscoveryOpenAPIValidates(t *testing.T) {
	doc := openapitest.Load(t, discovery.Spec())
	if doc.OpenAPI != "3.1.0" || doc.Info.Title == "" || doc.Info.Version == "" {
		t.Fatalf("openapi %q, info %+v", doc.OpenAPI, doc.Info)
	}
	for _, name := range []string{"bearerAuth", "apiKey", "internalKey", "oauth2"} {
		if doc.Components.SecuritySchemes[name] == nil {
			t.Errorf("security scheme %s is missing", name)
		}
	}
	if doc.Components.Schemas["Problem"] == nil {
		t.Fatal("no Problem schema")
	}
	openapitest.EachOperation(t, doc, func(where string, op *openapi3.Operation) {
		if op.Summary == "" || op.Description == "" {
			t.Errorf("%s: summary and description are required", where)
		}
		if op.Security == nil {
			t.Errorf("%s: no explicit security requirement", where)
		}
		client := false
		for code := range op.Responses.Map() {
			if strings.HasPrefix(code, "4") {
				client = true
			}
		}
		if !client && !strings.HasPrefix(where, "HEAD ") && !strings.Contains(where, "/health") && !isDiscovery(where) {
			t.Errorf("%s: no 4xx response", where)
		}
		if op.Security != nil && len(*op.Security) > 0 && !hasEmpty(*op.Security) && op.Responses.Value("401") == nil {
			t.Errorf("%s: a secured operation must document 401", where)
		}
	})
	// The public routes need no credentials.
	for _, p := range []string{"/health", "/openapi.json", "/llms.txt", "/.well-known/api-catalog", "/api/v1/public/ax-audit/badge"} {
		item := doc.Paths.Value(p)
		if item == nil || item.Get == nil || item.Get.Security == nil || len(*item.Get.Security) != 0 {
			t.Errorf("GET %s must be documented with security: []", p)
		}
	}
	// The audit's gated routes take credentials but need none by default
	// (STRATA_AUDIT_TIERS=open): anonymous is one of their requirements.
	if item := doc.Paths.Value("/api/v1/public/ax-audit/benchmark"); item == nil || item.Get == nil || item.Get.Security == nil ||
		!hasEmpty(*item.Get.Security) || item.Get.Responses.Value("403") == nil {
		t.Errorf("GET /api/v1/public/ax-audit/benchmark must be documented as optionally authenticated, with 403")
	}
	// The probes the audit derives from it: a secured GET for 401 and a
	// public one for Accept: JSON.
	unauth, acceptJSON, wrong := audit.APIProbes("http://api.example", doc)
	if unauth.URL != "http://api.example/api/v1/admin/events" || acceptJSON.URL != "http://api.example/.well-known/api-catalog" || wrong.Method != http.MethodDelete {
		t.Errorf("probes: %+v %+v %+v", unauth, acceptJSON, wrong)
	}
}

func isDiscovery(where string) bool {
	for _, p := range []string{"/llms.txt", "/robots.txt", "/sitemap.xml", "/openapi.json", "/docs", "/.well-known/"} {
		if strings.Contains(where, " "+p) {
			return true
		}
	}
	return false
}

func hasEmpty(s openapi3.SecurityRequirements) bool {
	for _, r := range s {
		if len(r) == 0 {
			return true
		}
	}
	return false
}

func TestDiscoveryOpenAPIServedAndLinked(t *testing.T) {
	srv := server(t, "")
	resp, body := get(t, srv.URL+"/openapi.json")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || string(body) != string(discovery.Spec()) {
		t.Fatalf("openapi.json: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body = get(t, srv.URL+"/")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("home: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	home := response(srv.URL+"/", resp, body)
	cands := audit.OpenAPICandidates(srv.URL, home, nil, nil)
	if len(cands) == 0 || cands[0].URL != srv.URL+"/openapi.json" || cands[0].Source != audit.SourceLinkHeader {
		t.Fatalf("candidates from the home page: %+v", cands)
	}
	links := audit.ParseLinkHeader(resp.Header.Values("Link"))
	var doc bool
	for _, l := range links {
		doc = doc || (l.HasRel("service-doc") && l.URL == "/docs")
	}
	if !doc {
		t.Errorf("no service-doc link: %+v", links)
	}
	for _, want := range []string{`"@context":"https://schema.org"`, `"@type":"WebAPI"`, `"documentation":"` + srv.URL + `/docs"`, `href="/llms.txt"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	// JSON for a client that asks for it.
	resp, body = get(t, srv.URL+"/", "Accept", "application/json")
	if resp.Header.Get("Content-Type") != "application/json" || !json.Valid(body) || resp.Header.Get("Vary") != "Accept" {
		t.Fatalf("home as JSON: %q %s", resp.Header.Get("Content-Type"), body)
	}
	resp, _ = get(t, srv.URL+"/docs")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("docs: %d", resp.StatusCode)
	}
}

func TestDiscoveryAPICatalog(t *testing.T) {
	srv := server(t, "")
	resp, body := get(t, srv.URL+"/.well-known/api-catalog", "Accept", "application/linkset+json")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/linkset+json") {
		t.Fatalf("api-catalog: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var ls struct {
		Linkset []struct {
			Anchor      string `json:"anchor"`
			ServiceDesc []struct {
				Href string `json:"href"`
				Type string `json:"type"`
			} `json:"service-desc"`
			ServiceDoc []struct {
				Href string `json:"href"`
			} `json:"service-doc"`
		} `json:"linkset"`
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if err := dec.Decode(&ls); err != nil {
		t.Fatal(err)
	}
	if len(ls.Linkset) != 1 || ls.Linkset[0].Anchor != srv.URL+"/api/v1" || len(ls.Linkset[0].ServiceDesc) != 1 ||
		ls.Linkset[0].ServiceDesc[0].Href != srv.URL+"/openapi.json" || ls.Linkset[0].ServiceDesc[0].Type != "application/openapi+json" ||
		len(ls.Linkset[0].ServiceDoc) == 0 {
		t.Fatalf("linkset = %s", body)
	}
	cands := audit.OpenAPICandidates(srv.URL, nil, response(srv.URL+"/.well-known/api-catalog", resp, body), nil)
	if len(cands) == 0 || cands[0].Source != audit.SourceAPICatalog || cands[0].URL != srv.URL+"/openapi.json" {
		t.Fatalf("candidates from the catalog: %+v", cands)
	}
	// HEAD answers the headers (RFC 9727 section 3.1).
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/.well-known/api-catalog", nil)
	hr, err := http.DefaultClient.Do(req)
	if err != nil || hr.StatusCode != 200 {
		t.Fatalf("HEAD api-catalog: %v %v", hr, err)
	}
	hr.Body.Close()
}

func TestDiscoveryRobotsAllowAgents(t *testing.T) {
	srv := server(t, "")
	resp, body := get(t, srv.URL+"/robots.txt")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("robots.txt: %d", resp.StatusCode)
	}
	rb := audit.ParseRobots(body)
	if len(rb.Sitemaps) != 1 || rb.Sitemaps[0] != srv.URL+"/sitemap.xml" {
		t.Fatalf("sitemaps = %v", rb.Sitemaps)
	}
	for _, a := range audit.Agents() {
		if !rb.Allowed(a.Token, "/") || !rb.Allowed(a.Token, "/api/v1/public/ax-audit/benchmark") {
			t.Errorf("%s (%s) may not fetch /", a.Token, a.Group)
		}
	}
	resp, body = get(t, srv.URL+"/sitemap.xml")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<loc>"+srv.URL+"/docs</loc>") {
		t.Fatalf("sitemap: %d %s", resp.StatusCode, body)
	}
}

// TestDiscoveryWrongMethod: the router answers 405 with Allow.
func TestDiscoveryWrongMethod(t *testing.T) {
	srv := server(t, "")
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/.well-known/api-catalog", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("DELETE: %d Allow %q %q", resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("Content-Type"))
	}
}

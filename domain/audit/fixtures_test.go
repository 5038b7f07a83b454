package audit

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

const origin = "https://example.com"

var scanAt = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// resp builds a response: path relative to origin (or an absolute URL),
// headers as name, value pairs.
func resp(method, path string, status int, contentType, body string, hdr ...string) *Response {
	u := path
	if strings.HasPrefix(path, "/") {
		u = origin + path
	}
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		h.Add(hdr[i], hdr[i+1])
	}
	return &Response{URL: u, Final: u, Method: method, Status: status, Header: h, Body: []byte(body)}
}

func get(path string, status int, contentType, body string, hdr ...string) *Response {
	return resp(http.MethodGet, path, status, contentType, body, hdr...)
}

func failed(path, err string) *Response {
	return &Response{URL: origin + path, Method: http.MethodGet, Err: err}
}

const htmlUTF8 = "text/html; charset=utf-8"

func homeHTML(jsonld ...string) string {
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\"><head><title>Example</title>\n")
	for _, j := range jsonld {
		b.WriteString(`<script type="application/ld+json">` + j + "</script>\n")
	}
	b.WriteString("</head><body><h1>Example</h1><p>Widgets for everyone.</p></body></html>\n")
	return b.String()
}

const excellentJSONLD = `{
  "@context": "https://schema.org",
  "@graph": [
    {"@type": "Organization", "name": "Example Inc.", "url": "https://example.com", "logo": "https://example.com/logo.png"},
    {"@type": "WebSite", "name": "Example", "url": "https://example.com"}
  ]
}`

const excellentLLMs = `# Example

> Example is an API for widgets: create, list and ship them.

Everything below is Markdown.

## Docs

- [API reference](https://example.com/docs/api.md): every endpoint
- [OpenAPI description](/openapi.json): machine-readable
- [Authentication](docs/auth.md): tokens and scopes

## Optional

- [Blog](https://example.com/blog.md)
`

const excellentRobots = `# robots.txt for example.com
User-agent: *
Allow: /
Disallow: /admin/

Sitemap: https://example.com/sitemap.xml
`

const excellentSpec = `{
  "openapi": "3.1.0",
  "info": {"title": "Example API", "version": "1.4.0"},
  "servers": [{"url": "https://example.com/v1"}],
  "security": [{"bearer": []}],
  "paths": {
    "/widgets": {
      "get": {
        "summary": "List widgets",
        "responses": {
          "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Widget"}}}}},
          "401": {"description": "no credentials", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
          "403": {"description": "not allowed", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
      },
      "post": {
        "summary": "Create a widget",
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Widget"}}}},
        "responses": {
          "201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Widget"}}}},
          "422": {"description": "invalid", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
      }
    },
    "/status": {
      "get": {
        "summary": "Service status",
        "security": [],
        "responses": {
          "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}},
          "default": {"description": "error", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
      }
    }
  },
  "components": {
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "schemas": {
      "Widget": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}},
      "Problem": {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}}}
    }
  }
}`

func problem(status int, title, detail string) string {
	b, _ := json.Marshal(map[string]any{"type": "about:blank", "title": title, "status": status, "detail": detail})
	return string(b)
}

// excellent is a site that earns every point.
func excellent() Snapshot {
	home := get("/", 200, htmlUTF8, homeHTML(excellentJSONLD), "Link", `</openapi.json>; rel="service-desc"; type="application/openapi+json", </docs>; rel="service-doc"`)
	spec := get("/openapi.json", 200, "application/json", excellentSpec)
	return Snapshot{
		Target: origin + "/", Origin: origin, At: scanAt,
		Home:          home,
		LLMsTxt:       get("/llms.txt", 200, "text/plain; charset=utf-8", excellentLLMs),
		Robots:        get("/robots.txt", 200, "text/plain", excellentRobots),
		APICatalog:    get("/.well-known/api-catalog", 404, "application/problem+json", problem(404, "Not Found", "No API catalog here; see the Link header on /.")),
		OpenAPI:       spec,
		OpenAPISource: SourceLinkHeader,
		OpenAPITried:  []string{origin + "/openapi.json"},
		AuthServerMeta: get("/.well-known/oauth-authorization-server", 200, "application/json",
			`{"issuer":"https://example.com","authorization_endpoint":"https://example.com/oauth/authorize","token_endpoint":"https://example.com/oauth/token"}`),
		ProtectedMeta: get("/.well-known/oauth-protected-resource", 200, "application/json",
			`{"resource":"https://example.com/v1","authorization_servers":["https://example.com"]}`),
		Unauthenticated: get("/v1/widgets", 401, "application/problem+json",
			problem(401, "Unauthorized", "Missing bearer token: send Authorization: Bearer <token>; see https://example.com/docs/auth.md"),
			"WWW-Authenticate", `Bearer realm="api", resource_metadata="https://example.com/.well-known/oauth-protected-resource"`),
		AcceptJSON: get("/v1/status", 200, "application/json", `{"status":"ok"}`),
		NotFound: get("/audit-404-c0ffee", 404, "application/problem+json",
			problem(404, "Not Found", "No resource at /audit-404-c0ffee; the API lives under /v1, see /openapi.json")),
		WrongMethod: resp(http.MethodDelete, "/v1/status", 405, "application/problem+json",
			problem(405, "Method Not Allowed", "DELETE is not supported on /v1/status; use GET"), "Allow", "GET, HEAD"),
	}
}

const notFoundHTML = "<!doctype html><html><head><title>404</title></head><body><h1>404 Not Found</h1></body></html>"

// typical is a marketing site with a CMS: some JSON-LD, a robots.txt, no
// API description, HTML errors.
func typical() Snapshot {
	return Snapshot{
		Target: origin + "/", Origin: origin, At: scanAt,
		Home:            get("/", 200, htmlUTF8, homeHTML(`{"@context":"https://schema.org","@type":"Organization","name":"Example Inc.","url":"https://example.com"}`)),
		LLMsTxt:         get("/llms.txt", 404, htmlUTF8, notFoundHTML),
		Robots:          get("/robots.txt", 200, "text/plain", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap_index.xml\n"),
		APICatalog:      get("/.well-known/api-catalog", 404, htmlUTF8, notFoundHTML),
		OpenAPITried:    []string{origin + "/openapi.json", origin + "/openapi.yaml", origin + "/swagger.json"},
		AuthServerMeta:  get("/.well-known/oauth-authorization-server", 404, htmlUTF8, notFoundHTML),
		ProtectedMeta:   get("/.well-known/oauth-protected-resource", 404, htmlUTF8, notFoundHTML),
		Unauthenticated: get("/api", 404, htmlUTF8, notFoundHTML),
		AcceptJSON:      get("/", 200, htmlUTF8, homeHTML()),
		NotFound:        get("/audit-404-c0ffee", 404, htmlUTF8, notFoundHTML),
		WrongMethod:     resp(http.MethodDelete, "/", 405, "text/html", "<html><head><title>405 Not Allowed</title></head><body>nginx</body></html>"),
	}
}

// empty is a host that answers 404 to everything.
func empty() Snapshot {
	nf := func(path string) *Response { return get(path, 404, "text/html", notFoundHTML) }
	return Snapshot{
		Target: origin + "/", Origin: origin, At: scanAt,
		Home: nf("/"), LLMsTxt: nf("/llms.txt"), Robots: nf("/robots.txt"), APICatalog: nf("/.well-known/api-catalog"),
		OpenAPITried:   []string{origin + "/openapi.json"},
		AuthServerMeta: nf("/.well-known/oauth-authorization-server"), ProtectedMeta: nf("/.well-known/oauth-protected-resource"),
		Unauthenticated: nf("/api"), AcceptJSON: nf("/"), NotFound: nf("/audit-404-c0ffee"),
		WrongMethod: resp(http.MethodDelete, "/", 404, "text/html", notFoundHTML),
	}
}

// unreachable is a host every request to failed.
func unreachable() Snapshot {
	return Snapshot{
		Target: origin + "/", Origin: origin, At: scanAt,
		Home: failed("/", "dial tcp: connection refused"), LLMsTxt: failed("/llms.txt", "dial tcp: connection refused"),
		Robots: failed("/robots.txt", "dial tcp: connection refused"), Unauthenticated: failed("/api", "dial tcp: connection refused"),
		AcceptJSON: failed("/", "dial tcp: connection refused"), NotFound: failed("/x", "dial tcp: connection refused"),
		WrongMethod: failed("/", "dial tcp: connection refused"),
	}
}

func with(s Snapshot, f func(*Snapshot)) Snapshot { f(&s); return s }

const brokenSwaggerYAML = `swagger: "2.0"
info:
  title: Example API
  version: "1.0"
host: example.com
basePath: /v1
schemes: [https]
securityDefinitions:
  key:
    type: apiKey
    in: header
    name: Authorization
security:
  - key: []
paths:
  /widgets:
    get:
      responses:
        200:
          description: ok
          schema:
            type: array
            items:
              type: object
        401:
          description: no credentials
  /status:
    get:
      security: []
      responses:
        200:
          description: ok
`

const publicSpec = `{
  "openapi": "3.0.3",
  "info": {"title": "Example API", "version": "1.4.0"},
  "servers": [{"url": "/v1"}],
  "paths": {
    "/widgets": {"get": {"summary": "List widgets", "responses": {
      "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Widget"}}}},
      "404": {"description": "none", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}}
  },
  "components": {"schemas": {
    "Widget": {"type": "object"},
    "Problem": {"type": "object"}
  }}
}`

type golden struct {
	llms, openapi, robots, structured, auth, format, errors int
}

func (g golden) total() int {
	return g.llms + g.openapi + g.robots + g.structured + g.auth + g.format + g.errors
}

var full = golden{15, 15, 10, 15, 15, 15, 15}

type fixture struct {
	name  string
	snap  Snapshot
	want  golden
	grade string
}

func fixtures() []fixture {
	return []fixture{
		{"excellent", excellent(), full, "A+"},
		{"typical", typical(), golden{0, 0, 10, 13, 0, 6, 7}, "F"},
		{"empty", empty(), golden{0, 0, 7, 0, 0, 4, 6}, "F"},
		{"unreachable", unreachable(), golden{0, 0, 0, 0, 0, 0, 0}, "F"},

		// Excellent but broken in one dimension: only that check drops.
		{"broken-llms", with(excellent(), func(s *Snapshot) {
			s.LLMsTxt = get("/llms.txt", 404, "application/problem+json", problem(404, "Not Found", "No resource at /llms.txt; the API lives under /v1"))
		}), with2(full, func(g *golden) { g.llms = 0 }), "A"},
		{"broken-openapi", with(excellent(), func(s *Snapshot) {
			s.OpenAPI = get("/swagger.yaml", 200, "application/yaml", brokenSwaggerYAML)
			s.OpenAPISource = SourceCommonPath
			s.Home.Header.Del("Link")
		}), with2(full, func(g *golden) { g.openapi = 8 }), "A"},
		{"broken-robots", with(excellent(), func(s *Snapshot) {
			s.Robots = get("/robots.txt", 200, "text/plain", "User-agent: *\nDisallow: /\n")
		}), with2(full, func(g *golden) { g.robots = 2 }), "A"},
		{"broken-structured", with(excellent(), func(s *Snapshot) {
			s.Home = get("/", 200, htmlUTF8, homeHTML(), "Link", `</openapi.json>; rel="service-desc"`)
		}), with2(full, func(g *golden) { g.structured = 0 }), "A"},
		{"broken-auth", with(excellent(), func(s *Snapshot) {
			s.OpenAPI = get("/openapi.json", 200, "application/json", publicSpec)
			s.AuthServerMeta = get("/.well-known/oauth-authorization-server", 404, "application/problem+json", problem(404, "Not Found", "No authorization server metadata is published here"))
			s.ProtectedMeta = get("/.well-known/oauth-protected-resource", 404, "application/problem+json", problem(404, "Not Found", "No protected resource metadata is published here"))
			s.Unauthenticated = get("/v1/widgets", 200, "application/json", `{"items":[]}`)
		}), with2(full, func(g *golden) { g.auth = 0 }), "A"},
		{"broken-format", with(excellent(), func(s *Snapshot) {
			s.Home = get("/", 200, "text/plain", homeHTML(excellentJSONLD), "Link", `</openapi.json>; rel="service-desc"`)
			s.AcceptJSON = get("/v1/status", 200, htmlUTF8, homeHTML())
			s.NotFound = get("/audit-404-c0ffee", 404, "application/json", `{"code":"not_found","message":"No route matches /audit-404-c0ffee; see /openapi.json"}`)
		}), with2(full, func(g *golden) { g.format = 3 }), "A"},
		{"broken-errors", with(excellent(), func(s *Snapshot) {
			s.NotFound = get("/audit-404-c0ffee", 200, htmlUTF8, homeHTML(excellentJSONLD))
			s.NotFound.Final = origin + "/"
			s.WrongMethod = resp(http.MethodDelete, "/v1/status", 400, "application/problem+json",
				`{"type":"about:blank","title":"Bad Request","status":400,"detail":"Bad Request","trace":"java.lang.IllegalStateException: no handler\n\tat com.acme.api.Router.route(Router.java:42)"}`)
		}), with2(full, func(g *golden) { g.errors = 5 }), "A"},

		// Variants.
		{"llms-soft-404", with(excellent(), func(s *Snapshot) {
			s.LLMsTxt = get("/llms.txt", 200, htmlUTF8, homeHTML())
		}), with2(full, func(g *golden) { g.llms = 0 }), "A"},
		{"llms-minimal", with(excellent(), func(s *Snapshot) {
			s.LLMsTxt = get("/llms.txt", 200, "text/markdown", "# Example\n\nWidgets.\n")
		}), with2(full, func(g *golden) { g.llms = 8 }), "A"},
		{"openapi-missing", with(excellent(), func(s *Snapshot) {
			s.OpenAPI, s.OpenAPISource = nil, ""
			s.Home.Header.Del("Link")
		}), with2(full, func(g *golden) { g.openapi, g.auth = 0, 12 }), "B"},
		{"openapi-unloadable", with(excellent(), func(s *Snapshot) {
			s.OpenAPI = get("/openapi.json", 200, "application/json",
				`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"#/components/responses/Nope"}}}}}}`)
		}), with2(full, func(g *golden) { g.openapi, g.auth = 5, 12 }), "A"},
		{"openapi-not-a-description", with(excellent(), func(s *Snapshot) {
			s.OpenAPI = get("/openapi.json", 200, "application/json", `{"hello":"world"}`)
		}), with2(full, func(g *golden) { g.openapi, g.auth = 0, 12 }), "B"},
		{"openapi-yaml-via-api-catalog", with(excellent(), func(s *Snapshot) {
			s.Home.Header.Del("Link")
			s.APICatalog = get("/.well-known/api-catalog", 200, "application/linkset+json",
				`{"linkset":[{"anchor":"https://example.com/v1","service-desc":[{"href":"/openapi.yaml","type":"application/yaml"}]}]}`)
			s.OpenAPI = get("/openapi.yaml", 200, "application/yaml", jsonSpecToYAMLish())
			s.OpenAPISource = SourceAPICatalog
		}), full, "A+"},
		{"swagger-json-via-llms", with(excellent(), func(s *Snapshot) {
			s.OpenAPI = get("/swagger.json", 200, "application/json", swaggerJSON)
			s.OpenAPISource = SourceLLMsTxt
		}), with2(full, func(g *golden) { g.openapi = 12 }), "A+"},
		{"robots-missing", with(excellent(), func(s *Snapshot) {
			s.Robots = get("/robots.txt", 404, "application/problem+json", problem(404, "Not Found", "No robots.txt here, crawl as you like"))
		}), with2(full, func(g *golden) { g.robots = 7 }), "A+"},
		{"robots-unreachable", with(excellent(), func(s *Snapshot) {
			s.Robots = get("/robots.txt", 503, "application/problem+json", problem(503, "Service Unavailable", "Maintenance until 13:00 UTC; retry later"))
		}), with2(full, func(g *golden) { g.robots = 0 }), "A"},
		{"robots-training-blocked", with(excellent(), func(s *Snapshot) {
			var b strings.Builder
			for _, a := range AgentsIn(AgentTraining) {
				b.WriteString("User-agent: " + a.Token + "\n")
			}
			b.WriteString("Disallow: /\n\n" + excellentRobots)
			s.Robots = get("/robots.txt", 200, "text/plain", b.String())
		}), full, "A+"},
		{"robots-search-half-blocked", with(excellent(), func(s *Snapshot) {
			s.Robots = get("/robots.txt", 200, "text/plain", "User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: YouBot\nDisallow: /\n\n"+excellentRobots)
		}), with2(full, func(g *golden) { g.robots = 8 }), "A+"},
		{"structured-invalid-json", with(excellent(), func(s *Snapshot) {
			s.Home = get("/", 200, htmlUTF8, homeHTML(`{"@context": "https://schema.org", "@type": "Organization",}`), "Link", `</openapi.json>; rel="service-desc"`)
		}), with2(full, func(g *golden) { g.structured = 4 }), "A"},
		{"structured-partial", with(excellent(), func(s *Snapshot) {
			s.Home = get("/", 200, htmlUTF8, homeHTML(`{"@type": "Organization", "name": "Example Inc."}`), "Link", `</openapi.json>; rel="service-desc"`)
		}), with2(full, func(g *golden) { g.structured = 9 }), "A"},
		{"auth-403", with(excellent(), func(s *Snapshot) {
			s.Unauthenticated = get("/v1/widgets", 403, "application/problem+json", problem(403, "Forbidden", "You need a token with the widgets:read scope"))
		}), with2(full, func(g *golden) { g.auth = 7 }), "A"},
		{"auth-401-without-header", with(excellent(), func(s *Snapshot) {
			s.Unauthenticated.Header.Del("WWW-Authenticate")
		}), with2(full, func(g *golden) { g.auth = 11 }), "A+"},
		{"errors-stack-trace-page", with(excellent(), func(s *Snapshot) {
			s.NotFound = get("/audit-404-c0ffee", 404, "text/html", "<html><body><h1>Whitelabel Error Page</h1><pre>java.lang.IllegalStateException\n\tat com.acme.Web.handle(Web.java:10)</pre></body></html>")
		}), with2(full, func(g *golden) { g.format, g.errors = 11, 10 }), "A"},
	}
}

func with2(g golden, f func(*golden)) golden { f(&g); return g }

const swaggerJSON = `{
  "swagger": "2.0",
  "info": {"title": "Example API", "version": "1.0"},
  "host": "example.com", "basePath": "/v1", "schemes": ["https"],
  "securityDefinitions": {"key": {"type": "apiKey", "in": "header", "name": "Authorization"}},
  "security": [{"key": []}],
  "paths": {
    "/widgets": {"get": {"summary": "List widgets", "produces": ["application/json"], "responses": {
      "200": {"description": "ok", "schema": {"type": "array", "items": {"$ref": "#/definitions/Widget"}}},
      "401": {"description": "no credentials", "schema": {"$ref": "#/definitions/Error"}}}}}
  },
  "definitions": {"Widget": {"type": "object"}, "Error": {"type": "object", "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}
}`

// jsonSpecToYAMLish is the excellent description as YAML (JSON is YAML,
// but this one is written block-style so the YAML path is exercised).
func jsonSpecToYAMLish() string {
	return `openapi: 3.0.3
info:
  title: Example API
  version: 1.4.0
servers:
  - url: https://example.com/v1
security:
  - bearer: []
paths:
  /widgets:
    get:
      summary: List widgets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Widget'
        "401":
          description: no credentials
          content:
            application/problem+json:
              schema:
                $ref: '#/components/schemas/Problem'
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  schemas:
    Widget:
      type: object
    Problem:
      type: object
`
}

func checkScores(sc Scan) golden {
	m := map[string]int{}
	for _, c := range sc.Checks {
		m[c.Name] = c.Score
	}
	return golden{m[CheckLLMsTxt], m[CheckOpenAPI], m[CheckRobots], m[CheckStructured], m[CheckAuth], m[CheckFormat], m[CheckErrors]}
}

func TestFixtures(t *testing.T) {
	fx := fixtures()
	if len(fx) < 20 {
		t.Fatalf("%d fixtures, want at least 20", len(fx))
	}
	for _, f := range fx {
		t.Run(f.name, func(t *testing.T) {
			sc := Score(f.snap)
			got := checkScores(sc)
			if got != f.want {
				t.Errorf("scores %+v, want %+v", got, f.want)
				for _, c := range sc.Checks {
					for _, fd := range c.Findings {
						if !fd.Passed {
							t.Logf("  %s %d/%d: %s", fd.ID, fd.Earned, fd.Points, fd.Evidence)
						}
					}
				}
			}
			if sc.Score != f.want.total() {
				t.Errorf("score %d, want %d", sc.Score, f.want.total())
			}
			if sc.Grade != f.grade {
				t.Errorf("grade %s (score %d), want %s", sc.Grade, sc.Score, f.grade)
			}
			assertWellFormed(t, sc)
		})
	}
}

// assertWellFormed checks the invariants every scan keeps.
func assertWellFormed(t *testing.T, sc Scan) {
	t.Helper()
	if sc.MaxScore != 100 || sc.RubricVersion != RubricVersion || !sc.ScannedAt.Equal(scanAt) || sc.URL != origin+"/" {
		t.Errorf("scan header %q %d %s %s", sc.URL, sc.MaxScore, sc.RubricVersion, sc.ScannedAt)
	}
	wantOrder := []string{CheckLLMsTxt, CheckOpenAPI, CheckRobots, CheckStructured, CheckAuth, CheckFormat, CheckErrors}
	wantMax := []int{15, 15, 10, 15, 15, 15, 15}
	if len(sc.Checks) != 7 {
		t.Fatalf("%d checks", len(sc.Checks))
	}
	ids := map[string]bool{}
	for i, c := range sc.Checks {
		if c.Name != wantOrder[i] || c.MaxScore != wantMax[i] {
			t.Errorf("check %d is %s/%d", i, c.Name, c.MaxScore)
		}
		points, earned := 0, 0
		for _, f := range c.Findings {
			points += f.Points
			earned += f.Earned
			if !strings.HasPrefix(f.ID, c.Name+".") {
				t.Errorf("finding %s under %s", f.ID, c.Name)
			}
			if ids[f.ID] {
				t.Errorf("duplicate finding id %s", f.ID)
			}
			ids[f.ID] = true
			if f.Title == "" || f.Evidence == "" {
				t.Errorf("%s: empty title or evidence", f.ID)
			}
			if f.Earned < f.Points && f.Fix == "" {
				t.Errorf("%s: not full and no fix", f.ID)
			}
			if f.Earned == f.Points && f.Fix != "" {
				t.Errorf("%s: full but a fix", f.ID)
			}
			if f.Passed != (f.Earned == f.Points) {
				t.Errorf("%s: passed %v with %d/%d", f.ID, f.Passed, f.Earned, f.Points)
			}
			if f.Info && f.Points != 0 {
				t.Errorf("%s: info finding worth points", f.ID)
			}
		}
		if points != c.MaxScore || earned != c.Score {
			t.Errorf("%s: findings worth %d earn %d; check %d/%d", c.Name, points, earned, c.Score, c.MaxScore)
		}
		if c.Passed != (c.Score*10 >= c.MaxScore*7) {
			t.Errorf("%s: passed %v at %d/%d", c.Name, c.Passed, c.Score, c.MaxScore)
		}
		if c.Details == "" {
			t.Errorf("%s: no details", c.Name)
		}
	}
}

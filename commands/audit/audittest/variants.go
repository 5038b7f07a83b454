package audittest

import (
	"fmt"
	"net/http"
	"strings"
)

// Variant is a fixture site: the excellent one with some answers
// replaced (Override answers a request and returns true, or returns false
// to leave it to Excellent). Broken names the checks the variant is meant
// to lower; every other check must keep its maximum.
type Variant struct {
	Name     string
	Broken   []string
	Override func(w http.ResponseWriter, r *http.Request) bool
}

// Handler is the variant's site handler.
func (v Variant) Handler() func(s *Site, w http.ResponseWriter, r *http.Request) {
	return func(s *Site, w http.ResponseWriter, r *http.Request) {
		if v.Override != nil && v.Override(w, r) {
			return
		}
		Excellent(s, w, r)
	}
}

// at answers path (GET) with status, content type and body.
func at(path string, status int, ctype, body string, header ...string) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != path || r.Method != http.MethodGet {
			return false
		}
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
		return true
	}
}

// both chains overrides.
func both(fs ...func(w http.ResponseWriter, r *http.Request) bool) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		for _, f := range fs {
			if f(w, r) {
				return true
			}
		}
		return false
	}
}

// homeWith is the excellent home page with its JSON-LD replaced.
func homeWith(jsonld string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>Acme API</title>` + jsonld + `</head><body><h1>Acme</h1></body></html>`
}

// Variants are the fixture sites broken in one dimension each (some in
// a few ways), plus the excellent one and one that blocks only training
// crawlers (no points lost). Three break more than one check, where the
// rubric's dimensions overlap (RUBRIC.md): without a parseable
// description there is no security scheme and no API path to ask for
// JSON; a home page declared as JSON hides its HTML markup.
func Variants() []Variant {
	const html, text, jsonT = "text/html; charset=utf-8", "text/plain; charset=utf-8", "application/json"
	link := []string{"Link", `</openapi.json>; rel="service-desc"; type="application/openapi+json"`}
	return []Variant{
		{Name: "excellent"},
		{Name: "robots blocks training crawlers only", Override: at("/robots.txt", 200, text,
			"User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nDisallow: /\n\nSitemap: https://acme.example/sitemap.xml\n")},
		{Name: "no llms.txt", Broken: []string{"llms_txt"}, Override: at("/llms.txt", 404, text, "not found")},
		{Name: "llms.txt without an H1", Broken: []string{"llms_txt"}, Override: at("/llms.txt", 200, text,
			"Acme's API.\n\n- [API](/openapi.json)\n")},
		{Name: "llms.txt served as HTML", Broken: []string{"llms_txt"}, Override: at("/llms.txt", 200, html,
			"<html><body><h1>Acme</h1></body></html>")},
		{Name: "openapi that does not parse", Broken: []string{"openapi", "api_authentication", "response_format"}, Override: at("/openapi.json", 200, jsonT,
			`{"openapi":"3.0.3","info":`)},
		{Name: "openapi missing", Broken: []string{"openapi", "api_authentication", "response_format"}, Override: both(at("/openapi.json", 404, text, "no"),
			at("/.well-known/api-catalog", 404, text, "no"), at("/", 200, html, homeWith(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","url":"https://acme.example","logo":"https://acme.example/logo.png","description":"Acme makes widgets","sameAs":["https://github.com/acme"]}</script>`)))},
		{Name: "robots disallows everyone", Broken: []string{"robots_ai_permissions"}, Override: at("/robots.txt", 200, text, "User-agent: *\nDisallow: /\n")},
		{Name: "robots answers 500", Broken: []string{"robots_ai_permissions"}, Override: at("/robots.txt", 500, text, "oops")},
		{Name: "robots blocks search agents", Broken: []string{"robots_ai_permissions"}, Override: at("/robots.txt", 200, text,
			"User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: Claude-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n\nSitemap: https://acme.example/sitemap.xml\n")},
		{Name: "no JSON-LD", Broken: []string{"structured_data"}, Override: at("/", 200, html, homeWith(""), link...)},
		{Name: "JSON-LD that does not parse", Broken: []string{"structured_data"}, Override: at("/", 200, html,
			homeWith(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization",</script>`), link...)},
		{Name: "JSON-LD of an unknown type without context", Broken: []string{"structured_data"}, Override: at("/", 200, html,
			homeWith(`<script type="application/ld+json">{"@type":"Gizmo","name":"Acme"}</script>`), link...)},
		{Name: "API answers without credentials", Broken: []string{"api_authentication"}, Override: at("/api/widgets", 200, jsonT, `[{"id":"1","name":"w"}]`)},
		{Name: "401 without WWW-Authenticate", Broken: []string{"api_authentication"}, Override: func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != "/api/widgets" || r.Method != http.MethodGet {
				return false
			}
			Problem(w, 401, "Unauthorized", "a bearer token is required: send Authorization: Bearer <token>")
			return true
		}},
		{Name: "403 where 401 is meant", Broken: []string{"api_authentication"}, Override: func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != "/api/widgets" || r.Method != http.MethodGet {
				return false
			}
			Problem(w, 403, "Forbidden", "a bearer token is required: send Authorization: Bearer <token>")
			return true
		}},
		{Name: "home page declared as JSON", Broken: []string{"response_format", "structured_data"}, Override: at("/", 200, "application/json", homeWith(""), link...)},
		{Name: "soft 404", Broken: []string{"agent_friendly_errors"}, Override: func(w http.ResponseWriter, r *http.Request) bool {
			if !strings.HasPrefix(r.URL.Path, "/strata-audit-") {
				return false
			}
			w.Header().Set("Content-Type", html)
			fmt.Fprint(w, homeWith(""))
			return true
		}},
		{Name: "stack trace in a 404", Broken: []string{"agent_friendly_errors"}, Override: func(w http.ResponseWriter, r *http.Request) bool {
			if !strings.HasPrefix(r.URL.Path, "/strata-audit-") {
				return false
			}
			Problem(w, 404, "Not found", "panic: runtime error: invalid memory address\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d")
			return true
		}},
		{Name: "405 without Allow", Broken: []string{"agent_friendly_errors"}, Override: func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodGet || (r.URL.Path != "/" && r.URL.Path != "/api/widgets") {
				return false
			}
			Problem(w, 405, "Method not allowed", r.Method+" is not allowed here; use GET")
			return true
		}},
	}
}

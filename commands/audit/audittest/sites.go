// Package audittest serves fixture sites on loopback for the audit's
// tests and bench: an excellent site (everything the rubric asks) and an
// empty one (everything 404), each counting the requests it gets.
package audittest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Site is a fixture site on loopback that counts its requests.
type Site struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int // "METHOD path" -> count
}

func (s *Site) count(r *http.Request) {
	s.mu.Lock()
	s.hits[r.Method+" "+r.URL.Path]++
	s.mu.Unlock()
}

// Hits counts the requests served for "METHOD path".
func (s *Site) Hits(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[key]
}

// Requests counts the requests served and lists those served more than once.
func (s *Site) Requests() (total int, repeated []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, n := range s.hits {
		total += n
		if n > 1 {
			repeated = append(repeated, fmt.Sprintf("%s x%d", k, n))
		}
	}
	return total, repeated
}

// Serve starts a fixture site with handler h until the test ends.
func Serve(t testing.TB, h func(s *Site, w http.ResponseWriter, r *http.Request)) *Site {
	t.Helper()
	s := &Site{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.count(r)
		h(s, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// Problem writes an RFC 9457 problem.
func Problem(w http.ResponseWriter, status int, title, detail string, extra ...string) {
	w.Header().Set("Content-Type", "application/problem+json")
	for i := 0; i+1 < len(extra); i += 2 {
		w.Header().Set(extra[i], extra[i+1])
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "https://example.test/problems/" + strings.ToLower(strings.ReplaceAll(title, " ", "-")),
		"title": title, "status": status, "detail": detail})
}

const excellentHome = `<!doctype html><html><head><meta charset="utf-8"><title>Acme API</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","url":"https://acme.example","logo":"https://acme.example/logo.png","description":"Acme makes widgets","sameAs":["https://github.com/acme"]}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebAPI","name":"Acme API","description":"The widgets API","url":"https://acme.example/api","documentation":"https://acme.example/openapi.json","provider":{"@type":"Organization","name":"Acme"}}</script>
</head><body><h1>Acme</h1></body></html>`

const excellentLLMs = "# Acme\n\n> Acme's widgets API: list and manage widgets over JSON.\n\nAcme runs a JSON API.\n\n## Docs\n\n- [API reference](/openapi.json): the OpenAPI description\n- [Guide](https://acme.example/guide): getting started\n\n## Optional\n\n- [Changelog](/changelog): what changed\n"

const excellentRobots = "User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://acme.example/sitemap.xml\n"

const excellentSpec = `{"openapi":"3.0.3","info":{"title":"Acme API","version":"1.0.0","description":"Widgets"},
"servers":[{"url":"/"}],
"components":{"securitySchemes":{"bearer":{"type":"http","scheme":"bearer"}},
 "schemas":{"Widget":{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}},
  "Problem":{"type":"object","properties":{"type":{"type":"string"},"title":{"type":"string"},"status":{"type":"integer"},"detail":{"type":"string"}}}}},
"security":[{"bearer":[]}],
"paths":{"/api/widgets":{"get":{"summary":"List widgets","description":"Lists the caller's widgets.","operationId":"listWidgets",
 "responses":{"200":{"description":"The widgets","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Widget"}}}}},
  "401":{"description":"No credentials","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
  "403":{"description":"Not yours","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}}}}}}}`

// Excellent is a site that does everything the rubric asks.
func Excellent(s *Site, w http.ResponseWriter, r *http.Request) {
	origin := "http://" + r.Host
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Link", `</openapi.json>; rel="service-desc"; type="application/openapi+json"`)
		fmt.Fprint(w, excellentHome)
	case r.URL.Path == "/" || r.URL.Path == "/api/widgets" && r.Method != http.MethodGet:
		Problem(w, http.StatusMethodNotAllowed, "Method not allowed", r.Method+" is not allowed here; use GET", "Allow", "GET, HEAD")
	case r.URL.Path == "/llms.txt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, excellentLLMs)
	case r.URL.Path == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, excellentRobots)
	case r.URL.Path == "/openapi.json":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, excellentSpec)
	case r.URL.Path == "/.well-known/api-catalog":
		w.Header().Set("Content-Type", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`)
		fmt.Fprintf(w, `{"linkset":[{"anchor":"%s/api","service-desc":[{"href":"%s/openapi.json","type":"application/openapi+json"}]}]}`, origin, origin)
	case r.URL.Path == "/.well-known/oauth-authorization-server":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":"%s","authorization_endpoint":"%s/authorize","token_endpoint":"%s/token","response_types_supported":["code"]}`, origin, origin, origin)
	case r.URL.Path == "/.well-known/oauth-protected-resource":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"resource":"%s/api","authorization_servers":["%s"],"bearer_methods_supported":["header"]}`, origin, origin)
	case r.URL.Path == "/api/widgets":
		Problem(w, http.StatusUnauthorized, "Unauthorized", "a bearer token is required: send Authorization: Bearer <token>",
			"WWW-Authenticate", `Bearer realm="acme", resource_metadata="`+origin+`/.well-known/oauth-protected-resource"`)
	default:
		Problem(w, http.StatusNotFound, "Not found", "no resource at "+r.URL.Path+"; see /openapi.json for the API's paths")
	}
}

// Empty is a site where everything is 404 in plain text.
func Empty(s *Site, w http.ResponseWriter, r *http.Request) {
	http.NotFound(w, r)
}

// Package discovery serves what agents read first on the platform API (the
// api surface): a home page with JSON-LD and RFC 8631 Link headers,
// /llms.txt (llmstxt.org), /robots.txt and /sitemap.xml, the RFC 9727
// api-catalog at /.well-known/api-catalog, the OpenAPI 3.1 description of
// the platform API at /openapi.json and its interactive documentation at
// /docs. The OAuth metadata (RFC 8414, RFC 9728) is served by
// readapi/oauth.
package discovery

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/apidocs"
)

// Config is what Routes needs.
type Config struct {
	// PublicURL is the platform API's public base URL (STRATA_PUBLIC_URL,
	// the OAuth issuer), used in absolute links. Empty: the request's
	// scheme (https with TLS, else http) and Host.
	PublicURL string
}

// Paths of the resources.
const (
	PathHome       = "/"
	PathLLMsTxt    = "/llms.txt"
	PathRobots     = "/robots.txt"
	PathSitemap    = "/sitemap.xml"
	PathAPICatalog = "/.well-known/api-catalog"
	PathOpenAPI    = "/openapi.json"
	PathDocs       = "/docs"
)

// Routes adds the discovery resources to the platform API's router (GET
// and HEAD; other methods are 405 with Allow from the router).
func Routes(r *mux.Router, cfg Config) {
	s := &server{public: strings.TrimRight(strings.TrimSpace(cfg.PublicURL), "/")}
	get := []string{http.MethodGet, http.MethodHead}
	r.Handle(PathHome, http.HandlerFunc(s.home)).Methods(get...)
	r.Handle(PathLLMsTxt, s.text("text/plain; charset=utf-8", llmsTxt)).Methods(get...)
	r.Handle(PathRobots, s.text("text/plain; charset=utf-8", robotsTxt)).Methods(get...)
	r.Handle(PathSitemap, s.text("application/xml; charset=utf-8", sitemap)).Methods(get...)
	r.Handle(PathAPICatalog, s.text("application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"", apiCatalog)).Methods(get...)
	r.Handle(PathOpenAPI, http.HandlerFunc(openAPI)).Methods(get...)
	r.Handle(PathDocs, apidocs.Handler("Strata platform API", PathOpenAPI)).Methods(get...)
}

type server struct{ public string }

// base is the absolute base URL of the API, without a trailing slash.
func (s *server) base(r *http.Request) string {
	if s.public != "" {
		return s.public
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// links are the RFC 8288 Link header values every discovery response
// carries: the description (RFC 8631 service-desc), its documentation
// (service-doc), the catalog (RFC 9727 api-catalog) and llms.txt.
var links = []string{
	`<` + PathOpenAPI + `>; rel="service-desc"; type="application/openapi+json"`,
	`<` + PathDocs + `>; rel="service-doc"; type="text/html"`,
	`<` + PathAPICatalog + `>; rel="api-catalog"; type="application/linkset+json"`,
	`<` + PathLLMsTxt + `>; rel="describedby"; type="text/plain"`,
}

func write(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// text serves what render makes of the base URL.
func (s *server) text(contentType string, render func(base string) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, l := range links {
			h.Add("Link", l)
		}
		h.Set("Access-Control-Allow-Origin", "*")
		write(w, r, contentType, render(s.base(r)))
	})
}

// home serves the home page: HTML with JSON-LD, or its JSON form for a
// client that prefers application/json (Vary: Accept).
func (s *server) home(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Vary", "Accept")
	for _, l := range links {
		h.Add("Link", l)
	}
	base := s.base(r)
	if negotiate(r.Header.Get("Accept")) == "json" {
		write(w, r, "application/json", homeJSON(base))
		return
	}
	write(w, r, "text/html; charset=utf-8", homeHTML(base))
}

// openAPI serves the description.
func openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Add("Link", `<`+PathDocs+`>; rel="service-doc"; type="text/html"`)
	write(w, r, "application/json", spec)
}

// negotiate picks the home page's representation from an Accept header
// (RFC 9110 12.5.1): "json" when application/json has a higher quality
// than text/html, else "html" (no Accept header, a tie, or neither
// acceptable: RFC 9110 lets a server disregard Accept then).
func negotiate(accept string) string {
	if strings.TrimSpace(accept) == "" {
		return "html"
	}
	html, jsonQ := -1.0, -1.0 // the quality of the most specific matching range; -1: none matched
	htmlSpec, jsonSpec := -1, -1
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		qv := 1.0
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					qv = f
				}
			}
		}
		match := func(typ string, q *float64, spec *int) {
			t, sub, _ := strings.Cut(typ, "/")
			mtT, mtSub, _ := strings.Cut(mt, "/")
			s := -1
			switch {
			case mtT == t && (mtSub == sub || (t == "application" && mtSub == "*+json" && strings.HasSuffix(sub, "json"))):
				s = 2
			case mtT == t && mtSub == "*":
				s = 1
			case mtT == "*" && mtSub == "*":
				s = 0
			}
			if s > *spec {
				*spec, *q = s, qv
			}
		}
		match("text/html", &html, &htmlSpec)
		match("application/json", &jsonQ, &jsonSpec)
	}
	switch {
	case jsonQ > 0 && jsonQ > html:
		return "json"
	case html > 0:
		return "html"
	case jsonQ > 0:
		return "json"
	}
	return "html"
}

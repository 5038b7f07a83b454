package auditbench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/audit/audittest"
)

// site is a fixture site served by the bench process on loopback.
type site struct {
	URL string // http://127.0.0.1:port
	srv *http.Server
}

func serveSite(h http.Handler) *site {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("auditbench: listen on loopback: %v", err)) // as httptest does
	}
	s := &site{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.srv.Serve(ln) }()
	return s
}

// Close stops the site and its connections.
func (s *site) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		_ = s.srv.Close()
	}
}

// request is one request the scanner made, replayed by the baseline.
type request struct {
	method, path, accept string
}

// excellentSite serves audittest.Excellent and, while recording, notes the
// scanner's requests (its User-Agent starts with StrataAudit).
type excellentSite struct {
	*site
	mu        sync.Mutex
	recording bool
	seen      []request
}

func newExcellent() *excellentSite {
	e := &excellentSite{}
	fixture := &audittest.Site{} // Excellent counts nothing itself
	e.site = serveSite(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.UserAgent(), "StrataAudit") {
			e.mu.Lock()
			if e.recording {
				e.seen = append(e.seen, request{method: r.Method, path: r.URL.RequestURI(), accept: r.Header.Get("Accept")})
			}
			e.mu.Unlock()
		}
		audittest.Excellent(fixture, w, r)
	}))
	return e
}

// record starts (on) or stops recording, returning what was recorded.
func (e *excellentSite) record(on bool) []request {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.seen
	e.recording, e.seen = on, nil
	return out
}

// crawlSite is a generated site of n pages: / links to /p/0 and
// /p/1; /p/i links to /p/(2i+2), /p/(2i+3) (a binary tree, breadth first
// in page order), the next page and /; the sitemap (named by robots.txt)
// lists every page. Its other resources are audittest.Excellent's, so the
// crawl's site scan finds a complete site. Each page carries some prose
// (about 4 KB), like a real page.
type crawlSite struct {
	*site
	n int
}

const crawlProse = `<p>Acme's widgets API lists, creates and manages widgets over JSON. Every endpoint is described
in the OpenAPI document; authentication is OAuth 2.0 with bearer tokens; errors are problem details (RFC 9457).</p>
`

func newCrawlSite(n int) *crawlSite {
	c := &crawlSite{n: n}
	fixture := &audittest.Site{}
	c.site = serveSite(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := "http://" + r.Host
		switch {
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: %s/sitemap.xml\n", origin)
		case r.URL.Path == "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			var b strings.Builder
			b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
			b.WriteString("<url><loc>" + origin + "/</loc></url>\n")
			for i := range c.n {
				fmt.Fprintf(&b, "<url><loc>%s/p/%d</loc></url>\n", origin, i)
			}
			b.WriteString("</urlset>\n")
			fmt.Fprint(w, b.String())
		case r.URL.Path == "/" && r.Method == http.MethodGet:
			w.Header().Set("Link", `</openapi.json>; rel="service-desc"; type="application/openapi+json"`)
			c.page(w, "Acme", "/p/0", "/p/1")
		case strings.HasPrefix(r.URL.Path, "/p/") && r.Method == http.MethodGet:
			var i int
			if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= c.n || fmt.Sprintf("/p/%d", i) != r.URL.Path {
				audittest.Problem(w, http.StatusNotFound, "Not found", "no page at "+r.URL.Path)
				return
			}
			var links []string
			for _, j := range []int{2*i + 2, 2*i + 3, i + 1} {
				if j < c.n {
					links = append(links, fmt.Sprintf("/p/%d", j))
				}
			}
			c.page(w, fmt.Sprintf("Acme page %d", i), append(links, "/", "#top", "https://elsewhere.example.com/")...)
		default:
			audittest.Excellent(fixture, w, r)
		}
	}))
	return c
}

// page writes an HTML page titled title with links.
func (c *crawlSite) page(w http.ResponseWriter, title string, links ...string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><title>%s</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","url":"https://acme.example","logo":"https://acme.example/logo.png","description":"Acme makes widgets","sameAs":["https://github.com/acme"]}</script>
</head><body><h1>%s</h1><nav>`, title, title)
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">%s</a> `, l, l)
	}
	b.WriteString("</nav>\n")
	for range 12 {
		b.WriteString(crawlProse)
	}
	b.WriteString("</body></html>\n")
	fmt.Fprint(w, b.String())
}

package audit_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/audit/audittest"
)

// crawlSite is a small site with robots rules and a sitemap: / links to
// /a and /private/x (disallowed), /a links to /b, the sitemap lists /c;
// /elsewhere is off the site's host and never fetched.
func crawlSite(slow time.Duration) func(s *audittest.Site, w http.ResponseWriter, r *http.Request) {
	return func(s *audittest.Site, w http.ResponseWriter, r *http.Request) {
		time.Sleep(slow)
		origin := "http://" + r.Host
		page := func(links ...string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			var b strings.Builder
			b.WriteString(`<!doctype html><html><head><title>p</title></head><body>`)
			for _, l := range links {
				fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
			}
			b.WriteString(`</body></html>`)
			fmt.Fprint(w, b.String())
		}
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\n\nSitemap: %s/sitemap.xml\n", origin)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/c</loc></url></urlset>`, origin)
		case "/":
			page("/a", "/private/x", "https://elsewhere.example.com/", "#top")
		case "/a":
			page("/b", "/a#again")
		case "/b", "/c", "/private/x":
			page("/")
		default:
			if strings.HasPrefix(r.URL.Path, "/many/") || r.URL.Path == "/many" {
				var links []string
				for i := 0; i < 20; i++ {
					links = append(links, fmt.Sprintf("/many/%s%d", strings.TrimPrefix(r.URL.Path, "/many"), i))
				}
				page(links...)
				return
			}
			http.NotFound(w, r)
		}
	}
}

func (w *world) waitCrawl(id string, status string) reply {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := w.call("GET", base+"/crawl/"+id, nil)
		if r.Status != http.StatusOK {
			w.t.Fatalf("crawl: %d %s", r.Status, r.Raw)
		}
		if r.Body["status"] == status {
			return r
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the crawl never reached %s: %s", status, r.Raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A crawl stays on the site, obeys robots.txt, seeds from the sitemap,
// is capped by the caller's tier, and reports every page's score and the
// averages.
func TestCrawl(t *testing.T) {
	site := audittest.Serve(t, crawlSite(0))
	w := newWorldWith(t, options{allow: []string{host(site)}, crawlDelay: -1})
	start := w.call("POST", base+"/crawl", map[string]any{"url": site.URL, "max_pages": 50}, "X-Test-Tier", "pro")
	if start.Status != http.StatusAccepted || start.Body["crawl_id"] == nil || start.Body["max_pages"] != float64(50) {
		t.Fatalf("start: %d %s", start.Status, start.Raw)
	}
	done := w.waitCrawl(start.Body["crawl_id"].(string), "completed")
	var urls []string
	for _, p := range done.Body["pages"].([]any) {
		urls = append(urls, strings.TrimPrefix(p.(map[string]any)["url"].(string), site.URL))
	}
	want := map[string]bool{"/": true, "/a": true, "/b": true, "/c": true}
	if len(urls) != len(want) || done.Body["pages_crawled"] != float64(len(want)) {
		t.Fatalf("pages %v, want %v: %s", urls, want, done.Raw)
	}
	for _, u := range urls {
		if !want[u] {
			t.Errorf("crawled %s", u)
		}
	}
	if n := site.Hits("GET /private/x"); n != 0 {
		t.Errorf("a page robots.txt disallows was fetched %d times", n)
	}
	dims := done.Body["dimension_averages"].(map[string]any)
	if len(dims) != 7 || done.Body["overall_score"] == nil {
		t.Errorf("figures: %s", done.Raw)
	}
	// The free tier crawls one page.
	free := w.call("POST", base+"/crawl", map[string]any{"url": site.URL, "max_pages": 50})
	if free.Status != http.StatusAccepted || free.Body["max_pages"] != float64(1) {
		t.Fatalf("free: %d %s", free.Status, free.Raw)
	}
	if r := w.waitCrawl(free.Body["crawl_id"].(string), "completed"); r.Body["pages_crawled"] != float64(1) {
		t.Errorf("free crawl: %s", r.Raw)
	}
	for _, bad := range []map[string]any{{"url": "http://127.0.0.1:1/"}, {"url": site.URL, "max_pages": -1}, {}} {
		if r := w.call("POST", base+"/crawl", bad, "X-Test-Tier", "pro"); r.Status != http.StatusBadRequest {
			t.Errorf("crawl %v: %d %s", bad, r.Status, r.Raw)
		}
	}
	if r := w.call("GET", base+"/crawl/00000000-0000-0000-0000-000000000000", nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown crawl: %d", r.Status)
	}
}

// At most five crawls run at once (a sixth is 429 with Retry-After); a
// crawl can be cancelled and says so; a finished crawl cannot be.
func TestCrawlConcurrencyAndCancel(t *testing.T) {
	site := audittest.Serve(t, crawlSite(200*time.Millisecond))
	w := newWorldWith(t, options{allow: []string{host(site)}, crawlDelay: 100 * time.Millisecond})
	var ids []string
	for i := 0; i < 5; i++ {
		r := w.call("POST", base+"/crawl", map[string]any{"url": site.URL + "/many", "max_pages": 400}, "X-Test-Tier", "pro")
		if r.Status != http.StatusAccepted {
			t.Fatalf("crawl %d: %d %s", i, r.Status, r.Raw)
		}
		ids = append(ids, r.Body["crawl_id"].(string))
	}
	sixth := w.call("POST", base+"/crawl", map[string]any{"url": site.URL, "max_pages": 5}, "X-Test-Tier", "pro")
	if sixth.Status != http.StatusTooManyRequests || sixth.Header.Get("Retry-After") == "" {
		t.Fatalf("a sixth crawl: %d %s", sixth.Status, sixth.Raw)
	}
	for _, id := range ids {
		if r := w.call("DELETE", base+"/crawl/"+id, nil); r.Status != http.StatusAccepted {
			t.Fatalf("cancel: %d %s", r.Status, r.Raw)
		}
	}
	for _, id := range ids {
		r := w.waitCrawl(id, "cancelled")
		if r.Body["pages_crawled"].(float64) >= 400 {
			t.Errorf("a cancelled crawl crawled everything: %s", r.Raw)
		}
	}
	if r := w.call("POST", base+"/crawl/"+ids[0]+"/cancel", nil); r.Status != http.StatusConflict {
		t.Errorf("cancel a finished crawl: %d %s", r.Status, r.Raw)
	}
	if r := w.call("POST", base+"/crawl", map[string]any{"url": site.URL, "max_pages": 5}, "X-Test-Tier", "pro"); r.Status != http.StatusAccepted {
		t.Errorf("a crawl after the others ended: %d %s", r.Status, r.Raw)
	}
}

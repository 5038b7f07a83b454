package apidocs_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi/apidocs"
	"github.com/strata-platform/strata/readapi/httpx"
)

// inline returns the text of every <tag>...</tag> of page.
func inline(page, tag string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<`+tag+`>(.*?)</`+tag+`>`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// directives parses a Content-Security-Policy header.
func directives(csp string) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

func TestHandlerHeadersAndPolicy(t *testing.T) {
	h := apidocs.Handler(`Voice <API> & "docs"`, `/openapi.json?v="1"&x=<y>`)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/docs", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET: %d", rec.Code)
	}
	hd := rec.Header()
	for k, want := range map[string]string{
		"Content-Type":           "text/html; charset=utf-8",
		"Cache-Control":          "no-store",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
	} {
		if got := hd.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	page := rec.Body.String()

	// The policy: nothing by default, the inline script and stylesheet by
	// hash (and they are the page's), requests only to the page's origin.
	csp := directives(hd.Get("Content-Security-Policy"))
	scripts, styles := inline(page, "script"), inline(page, "style")
	if len(scripts) != 1 || len(styles) != 1 {
		t.Fatalf("want one inline script and one stylesheet, got %d and %d", len(scripts), len(styles))
	}
	for name, want := range map[string][]string{
		"default-src":     {"'none'"},
		"script-src":      {sha(scripts[0])},
		"style-src":       {sha(styles[0])},
		"connect-src":     {"'self'"},
		"base-uri":        {"'none'"},
		"form-action":     {"'none'"},
		"frame-ancestors": {"'self'"},
	} {
		if got := csp[name]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("CSP %s = %v, want %v", name, got, want)
		}
	}
	if raw := hd.Get("Content-Security-Policy"); strings.Contains(raw, "unsafe") || strings.Contains(raw, "http:") ||
		strings.Contains(raw, "https:") || strings.Contains(raw, "*") {
		t.Errorf("the policy allows more than the page's origin and its own inline code: %s", raw)
	}

	// Nothing is loaded from elsewhere: no src or href leaves the page.
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the page refers to another origin: %s", m)
	}
	if strings.Contains(scripts[0], "innerHTML") || strings.Contains(scripts[0], "eval(") || strings.Contains(scripts[0], "new Function") {
		t.Error("the script puts text into the page as HTML or evaluates code")
	}

	// Title and spec URL are escaped.
	if !strings.Contains(page, "<title>Voice &lt;API&gt; &amp; &#34;docs&#34;</title>") ||
		!strings.Contains(page, `data-spec="/openapi.json?v=&#34;1&#34;&amp;x=&lt;y&gt;"`) || strings.Contains(page, "<API>") {
		t.Errorf("title or spec URL not escaped:\n%.600s", page)
	}
	if rec.Header().Get("Content-Length") != "" && rec.Header().Get("Content-Length") != itoa(len(page)) {
		t.Errorf("Content-Length %s for %d bytes", rec.Header().Get("Content-Length"), len(page))
	}

	// HEAD: the headers without the page; other methods: 405 in the
	// surface's error style.
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/docs", nil))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	rec = httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/docs", nil)
	httpx.WithSurface(httpx.SurfaceInfo{Name: "voice", Style: httpx.StyleVoice})(h).ServeHTTP(rec, req)
	var e struct{ Code string }
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" ||
		json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Code != "method_not_allowed" {
		t.Errorf("POST: %d Allow %q %s", rec.Code, rec.Header().Get("Allow"), rec.Body)
	}
}

func TestPageIsTheSameOnEveryRequest(t *testing.T) {
	h := apidocs.Handler("A", "/openapi.json")
	get := func() string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/docs", nil))
		return rec.Body.String() + rec.Header().Get("Content-Security-Policy")
	}
	if get() != get() {
		t.Fatal("the page changes between requests (a hash-based policy needs it fixed)")
	}
	if string(apidocs.Page("A", "/openapi.json")) != get()[:len(apidocs.Page("A", "/openapi.json"))] {
		t.Fatal("Page and Handler disagree")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

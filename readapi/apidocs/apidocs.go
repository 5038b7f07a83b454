// Package apidocs serves interactive API documentation for a surface: one
// self-contained HTML page (its stylesheet and script inline, nothing
// fetched from elsewhere) that loads the surface's OpenAPI description,
// renders the API's description and its operations grouped by tag (method,
// path, summary, parameters, request body schema, responses, and the
// webhooks the API sends), and has a "Try it" form per operation that
// sends the request from the browser and shows the status, headers and
// body.
//
// The page's Content-Security-Policy allows its own inline script and
// stylesheet by hash and nothing else but requests to its own origin
// ('self'): the description must be served from the same origin as the
// page, and "Try it" sends requests only there. Credentials typed into the
// form (Authorization or X-API-Key) are kept in the tab's sessionStorage,
// never in a cookie or on the server.
package apidocs

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

//go:embed docs.js
var script string

//go:embed docs.css
var style string

// csp is the page's Content-Security-Policy: nothing by default; the inline
// script and stylesheet by their SHA-256; fetches (the description, "Try
// it") and images only from the page's origin; no base URI, no form
// submission, framed only by its own origin.
var csp = "default-src 'none'; script-src " + hash(script) + "; style-src " + hash(style) +
	"; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Page returns the HTML page for title and specURL (both escaped).
func Page(title, specURL string) []byte {
	var b strings.Builder
	t := html.EscapeString(title)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"referrer\" content=\"no-referrer\">\n")
	b.WriteString("<title>" + t + "</title>\n<style>" + style + "</style>\n</head>\n")
	b.WriteString("<body data-spec=\"" + html.EscapeString(specURL) + "\" data-state=\"loading\">\n")
	b.WriteString("<header class=\"top\"><h1>" + t + "</h1></header>\n")
	b.WriteString("<main id=\"main\"><p>Loading the API description&hellip;</p>")
	b.WriteString("<noscript><p>This page needs JavaScript to render the API description; the description itself is at <a href=\"" +
		html.EscapeString(specURL) + "\">" + html.EscapeString(specURL) + "</a>.</p></noscript></main>\n")
	b.WriteString("<script>" + script + "</script>\n</body>\n</html>\n")
	return []byte(b.String())
}

// Handler serves the documentation page for GET and HEAD: title names the
// API (the page's title and heading) and specURL is where the page fetches
// the OpenAPI description from (a path on the same origin, for example
// "/openapi.json"). The page is the same on every request and never cached
// (Cache-Control: no-store), so a new description shows on the next load.
// Other methods are answered 405 in the surface's error style.
func Handler(title, specURL string) http.Handler {
	page := Page(title, specURL)
	length := strconv.Itoa(len(page))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpx.WriteError(w, r, kernel.E(kernel.KindMethodNotAllowed, "method "+r.Method+" is not allowed here; allowed: GET, HEAD"))
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", length)
		h.Set("Content-Security-Policy", csp)
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(page)
		}
	})
}

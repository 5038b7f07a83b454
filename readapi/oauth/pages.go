package oauth

import (
	"bytes"
	"embed"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/strata-platform/strata/readapi/httpx"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// scopeDescriptions explain each scope on the consent page.
var scopeDescriptions = map[string]string{
	"openid":        "confirm your identity (your Strata user id)",
	"profile":       "see your name and plan",
	"email":         "see your email address",
	"memory:read":   "read your memory store",
	"memory:write":  "add to and change your memory store",
	"vector:search": "query your vector store",
	"vector:write":  "index documents into your vector store",
	"agent:read":    "list and inspect your agents",
	"agent:write":   "create and deploy agents for you, and call models with your credits",
}

type scopeLine struct{ Name, Description string }

// pageData is what every page template gets.
type pageData struct {
	Title        string
	ClientName   string
	Error        string
	CSRF         string
	Request      string
	Email        string
	Scopes       []scopeLine
	RedirectHost string
}

// render writes an HTML page with headers that keep it out of frames and
// caches. formTarget, when set, is the origin a form on the page may be
// redirected to after its POST (the client's redirect URI).
func render(w http.ResponseWriter, r *http.Request, status int, name string, d pageData, formTarget string) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, d); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	formAction := "'self'"
	if formTarget != "" {
		formAction += " " + formTarget
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action "+formAction+
		"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		slog.Debug("oauth page write", "err", err)
	}
}

// errorPage shows a failure that must not be redirected to the client
// (unknown client, unregistered redirect URI, a stale form).
func errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	render(w, r, status, "error.html", pageData{Title: title, Error: msg}, "")
}

// origin returns scheme://host[:port] of a URL.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

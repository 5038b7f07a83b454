package badge

import (
	"net/http"
	"strconv"
	"strings"
)

// CacheControl is the badge's Cache-Control: anyone may cache it for a
// day (the ETag and the URL both change with the input).
const CacheControl = "public, max-age=86400"

// Handler serves a badge. parse reads the Input from the request (the
// route's query: url, score, grade); its errors, and Check's, go to
// writeErr. A valid request gets the ETag and Cache-Control; when
// If-None-Match matches the ETag (weak comparison, a list, or "*", RFC
// 9110 13.1.2) on a GET or HEAD the answer is 304 Not Modified and
// nothing is rendered; otherwise it is 200 with the PNG (from the cache
// when it was rendered before).
func Handler(parse func(r *http.Request) (Input, error), writeErr func(w http.ResponseWriter, r *http.Request, err error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := parse(r)
		if err == nil {
			err = in.Check()
		}
		if err != nil {
			writeErr(w, r, err)
			return
		}
		tag := ETag(in)
		h := w.Header()
		h.Set("ETag", tag)
		h.Set("Cache-Control", CacheControl)
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && noneMatch(r.Header.Values("If-None-Match"), tag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		b, _, err := cached(in)
		if err != nil {
			h.Del("ETag")
			h.Del("Cache-Control")
			writeErr(w, r, err)
			return
		}
		h.Set("Content-Type", "image/png")
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(b)
		}
	})
}

// noneMatch reports whether the If-None-Match field values name tag:
// "*", or an entity tag whose opaque part equals tag's (weak comparison:
// a W/ prefix on either side is ignored). Parsing stops at the first
// malformed member, so a broken field matches only what came before it.
func noneMatch(values []string, tag string) bool {
	want := strings.TrimPrefix(tag, "W/")
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			if v[0] == '*' {
				return true
			}
			v = strings.TrimPrefix(v, "W/")
			if v == "" || v[0] != '"' {
				break
			}
			end := strings.IndexByte(v[1:], '"')
			if end < 0 {
				break
			}
			if v[:end+2] == want {
				return true
			}
			v = v[end+2:]
		}
	}
	return false
}

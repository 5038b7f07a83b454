package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// passRatio: a check passes when it earns at least 70% of its maximum
// (score*10 >= max*7), the same threshold for every check.
func checkPassed(score, max int) bool { return max > 0 && score*10 >= max*7 }

// finding builds a Finding; Passed is earned == points.
func finding(id, title string, points, earned int, evidence, fix string) Finding {
	if earned < 0 {
		earned = 0
	}
	if earned > points {
		earned = points
	}
	f := Finding{ID: id, Title: title, Points: points, Earned: earned, Passed: earned == points, Evidence: evidence}
	if earned < points {
		f.Fix = fix
	}
	return f
}

// infoFinding is worth nothing and only informs.
func infoFinding(id, title, evidence string) Finding {
	return Finding{ID: id, Title: title, Passed: true, Evidence: evidence, Info: true}
}

// result sums the findings into a CheckResult with a one-sentence summary.
func result(name string, max int, findings []Finding) CheckResult {
	score, met, scored := 0, 0, 0
	var missing []string
	for _, f := range findings {
		score += f.Earned
		if f.Info {
			continue
		}
		scored++
		if f.Passed {
			met++
		} else {
			missing = append(missing, f.ID)
		}
	}
	details := fmt.Sprintf("%d/%d points; %d of %d sub-points met", score, max, met, scored)
	if len(missing) > 0 {
		details += "; short on: " + strings.Join(missing, ", ")
	}
	return CheckResult{Name: name, Passed: checkPassed(score, max), Score: score, MaxScore: max, Details: details + ".", Findings: findings}
}

const excerptMax = 120

// excerpt is a short single-line quote of b, at most 120 characters.
func excerpt(b []byte) string { return excerptString(string(b)) }

func excerptString(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	if utf8.RuneCountInString(s) <= excerptMax {
		return s
	}
	r := []rune(s)
	return string(r[:excerptMax-1]) + "…"
}

// describe says what a response was: "GET https://x/llms.txt: 200 text/plain".
func describe(r *Response) string {
	if r == nil {
		return "not fetched"
	}
	m := r.Method
	if m == "" {
		m = http.MethodGet
	}
	s := m + " " + r.URL
	if r.Err != "" {
		return s + ": request failed (" + excerptString(r.Err) + ")"
	}
	s += fmt.Sprintf(": %d", r.Status)
	if ct := r.Header.Get("Content-Type"); ct != "" {
		s += " " + ct
	} else {
		s += " (no Content-Type)"
	}
	if r.Final != "" && r.Final != r.URL {
		s += " after redirect to " + r.Final
	}
	if r.Truncated {
		s += " (body truncated at the size limit)"
	}
	return s
}

// describeBody is describe plus a short excerpt of the body.
func describeBody(r *Response) string {
	s := describe(r)
	if r != nil && r.Err == "" && len(bytes.TrimSpace(r.Body)) > 0 {
		s += `; body: "` + excerpt(r.Body) + `"`
	}
	return s
}

// mediaType is the response's media type, lower case, without parameters.
func mediaType(r *Response) string {
	if r == nil || r.Header == nil {
		return ""
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// charsetOf is the charset parameter of the Content-Type, if any.
func charsetOf(r *Response) string {
	if r == nil || r.Header == nil {
		return ""
	}
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return params["charset"]
}

func isJSONType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// trimBOM removes a UTF-8 byte order mark and surrounding white space.
func trimBOM(b []byte) []byte {
	return bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
}

// looksHTML reports whether the body is an HTML document.
func looksHTML(b []byte) bool {
	b = trimBOM(b)
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	head := strings.ToLower(string(b[:min(len(b), 512)]))
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<meta", "<title", "<!--", "<script", "<div", "<p>", "<h1"} {
		if strings.Contains(head, p) {
			return true
		}
	}
	return strings.HasPrefix(http.DetectContentType(b), "text/html")
}

// jsonBody decodes the body as JSON; ok is false when it is not JSON.
func jsonBody(r *Response) (any, bool) {
	if r == nil || r.Err != "" {
		return nil, false
	}
	b := trimBOM(r.Body)
	if len(b) == 0 || !json.Valid(b) {
		return nil, false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// originOf is scheme://host[:port] of a URL, lower case, default ports dropped.
func originOf(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return strings.ToLower(u.Scheme) + "://" + host, true
}

// sameOrigin reports whether raw is on origin.
func sameOrigin(origin, raw string) bool {
	a, ok1 := originOf(origin)
	b, ok2 := originOf(raw)
	return ok1 && ok2 && a == b
}

// resolve resolves ref against base; ok is false when either does not parse
// or the result is not http(s).
func resolve(base, ref string) (string, bool) {
	b, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return "", false
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return "", false
	}
	u := b.ResolveReference(r)
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", false
	}
	u.Fragment = ""
	return u.String(), true
}

// baseURL is where a response's relative references resolve from.
func baseURL(r *Response) string {
	if r == nil {
		return ""
	}
	if r.Final != "" {
		return r.Final
	}
	return r.URL
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

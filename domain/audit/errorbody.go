package audit

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
)

// errorBody is what the audit reads in an error response's body.
type errorBody struct {
	JSON      bool   // the body is JSON
	Problem   bool   // RFC 9457: application/problem+json, or a JSON object with title and status
	Machine   bool   // machine-readable: Problem, or an object with a code and a message
	Detail    string // the most specific human text found (detail, message, error_description...)
	Signature string // the envelope's shape: "rfc9457", "json{code,message}", "text/html"...
}

var (
	codeKeys    = []string{"code", "error_code", "errorCode", "type"}
	messageKeys = []string{"detail", "message", "error_description", "description", "msg", "hint"}
)

// readErrorBody classifies an error response's body.
func readErrorBody(r *Response) errorBody {
	var eb errorBody
	mt := mediaType(r)
	v, ok := jsonBody(r)
	if !ok {
		eb.Signature = firstNonEmpty(mt, "none")
		if len(trimBOM(r.Body)) == 0 {
			eb.Signature = "empty"
		}
		return eb
	}
	eb.JSON = true
	obj, isObj := v.(map[string]any)
	if !isObj {
		eb.Signature = "json-non-object"
		return eb
	}
	_, hasTitle := obj["title"]
	_, hasStatus := obj["status"]
	eb.Problem = mt == "application/problem+json" || hasTitle && hasStatus
	eb.Detail = errorText(obj)
	if eb.Problem {
		eb.Machine = true
		eb.Signature = "rfc9457"
		return eb
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	eb.Signature = "json{" + strings.Join(keys, ",") + "}"
	// {"code": ..., "message": ...}, {"error": {"code": ..., "message": ...}},
	// {"errors": [{...}]}, or OAuth's {"error": "code", "error_description": ...}.
	inner := obj
	if e, ok := obj["error"].(map[string]any); ok {
		inner = e
	} else if l, ok := obj["errors"].([]any); ok && len(l) > 0 {
		if e, ok := l[0].(map[string]any); ok {
			inner = e
		}
	}
	errStr, errIsStr := obj["error"].(string)
	hasCode := hasAny(inner, codeKeys) || hasAny(obj, codeKeys) || errIsStr && strings.TrimSpace(errStr) != ""
	msg := ""
	for _, m := range []map[string]any{inner, obj} {
		for _, k := range messageKeys {
			if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" && msg == "" {
				msg = s
			}
		}
	}
	if msg == "" && errIsStr && (hasAny(obj, codeKeys)) {
		msg = errStr
	}
	eb.Machine = hasCode && msg != ""
	return eb
}

func hasAny(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if v, ok := m[k]; ok && present(v) {
			return true
		}
	}
	return false
}

// errorText finds the most specific human-readable text of an error object.
func errorText(obj map[string]any) string {
	try := func(m map[string]any) string {
		for _, k := range messageKeys {
			if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
		return ""
	}
	if s := try(obj); s != "" {
		return s
	}
	if e, ok := obj["error"].(map[string]any); ok {
		if s := try(e); s != "" {
			return s
		}
	}
	if l, ok := obj["errors"].([]any); ok && len(l) > 0 {
		if e, ok := l[0].(map[string]any); ok {
			if s := try(e); s != "" {
				return s
			}
		}
	}
	if s, ok := obj["error"].(string); ok {
		return strings.TrimSpace(s)
	}
	if s, ok := obj["title"].(string); ok {
		return strings.TrimSpace(s)
	}
	return ""
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// actionable: the text says more than the status phrase: not the phrase
// itself (ignoring case and punctuation), at least three words or 20
// characters.
func actionable(text string, status int) bool {
	t := strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(text), " "))
	if t == "" {
		return false
	}
	phrase := strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(http.StatusText(status)), " "))
	if t == phrase || t == "error" || t == "an error occurred" {
		return false
	}
	return len(strings.Fields(t)) >= 3 || len(text) >= 20
}

// errorResponses are the probe responses that answered with an error
// status (4xx, 5xx), in a fixed order: unauthenticated, accept-json,
// not-found, wrong-method. A response shared by two purposes counts once.
func errorResponses(s Snapshot) []*Response {
	var out []*Response
	for _, r := range []*Response{s.Unauthenticated, s.AcceptJSON, s.NotFound, s.WrongMethod} {
		if r == nil || r.Err != "" || r.Status < 400 {
			continue
		}
		dup := false
		for _, o := range out {
			if o == r {
				dup = true
			}
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

// allResponses lists every response of the snapshot once, in a fixed order.
func allResponses(s Snapshot) []*Response {
	var out []*Response
	for _, r := range []*Response{s.Home, s.LLMsTxt, s.Robots, s.APICatalog, s.OpenAPI, s.AuthServerMeta, s.ProtectedMeta, s.Unauthenticated, s.AcceptJSON, s.NotFound, s.WrongMethod} {
		if r == nil {
			continue
		}
		dup := false
		for _, o := range out {
			if o == r {
				dup = true
			}
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

// stackTracePatterns match stack traces and framework debug pages.
var stackTracePatterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"Java stack trace", regexp.MustCompile(`(?m)\bat [\w$.<>]+\([\w$]+\.(java|kt|scala):\d+\)|Exception in thread "|\bjava\.lang\.[A-Za-z]+(Exception|Error)\b`)},
	{"Python traceback", regexp.MustCompile(`Traceback \(most recent call last\)|File "[^"]+\.py", line \d+`)},
	{"Go panic", regexp.MustCompile(`goroutine \d+ \[[a-z ]+\]:|panic: .*\n|\.go:\d+ \+0x[0-9a-f]+`)},
	{".NET stack trace", regexp.MustCompile(`(?m)\bat [\w.<>` + "`" + `]+\(.*\) in .*:line \d+|System\.[A-Za-z.]+Exception:|Server Error in '.*' Application`)},
	{"PHP error", regexp.MustCompile(`(?i)(Fatal error|Parse error|Warning|Notice)(</b>)?:.* on line (<b>)?\d+|Stack trace:\s*(\\n|\n)#0 `)},
	{"Node.js stack trace", regexp.MustCompile(`(?m)\bat .*\(?(/|[A-Za-z]:\\|node:)[^)\s]*\.?[cm]?js:\d+:\d+\)?`)},
	{"Ruby backtrace", regexp.MustCompile(`\.rb:\d+:in ` + "[`']")},
	{"framework debug page", regexp.MustCompile(`Whitelabel Error Page|Werkzeug Debugger|DJANGO_SETTINGS_MODULE|You're seeing this error because you have <code>DEBUG = True|Action Controller: Exception caught|Whoops! There was an error|<title>[^<]*Exception[^<]*</title>`)},
}

// stackTrace names the first trace pattern found in b, or "".
func stackTrace(b []byte) (string, string) {
	for _, p := range stackTracePatterns {
		if loc := p.re.FindIndex(b); loc != nil {
			return p.name, excerpt(b[loc[0]:min(len(b), loc[0]+120)])
		}
	}
	return "", ""
}

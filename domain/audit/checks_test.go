package audit

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

func scoresOf(c CheckResult, prefix string) map[string]int {
	out := map[string]int{}
	for _, f := range c.Findings {
		out[f.ID[len(prefix):]] = f.Earned
	}
	return out
}

func TestReadErrorBody(t *testing.T) {
	cases := []struct {
		name, ct, body string
		status         int
		machine, act   bool
		sig            string
	}{
		{"problem+json", "application/problem+json", problem(404, "Not Found", "No widget 42; list them at /v1/widgets"), 404, true, true, "rfc9457"},
		{"problem shape under json", "application/json", `{"title":"Not Found","status":404}`, 404, true, false, "rfc9457"},
		{"code and message", "application/json", `{"code":"not_found","message":"Widget 42 does not exist"}`, 404, true, true, "json{code,message}"},
		{"nested error", "application/json", `{"error":{"code":"bad_request","message":"name is required (string, 1-80 chars)"}}`, 400, true, true, "json{error}"},
		{"errors array", "application/json", `{"errors":[{"code":"invalid","detail":"email must be an address like a@b.co"}]}`, 422, true, true, "json{errors}"},
		{"oauth error", "application/json", `{"error":"invalid_token","error_description":"The access token expired at 12:00 UTC"}`, 401, true, true, "json{error,error_description}"},
		{"error string only", "application/json", `{"error":"Not Found"}`, 404, false, false, "json{error}"},
		{"status phrase only", "application/json", `{"code":"not_found","message":"Not Found"}`, 404, true, false, "json{code,message}"},
		{"html", "text/html", notFoundHTML, 404, false, false, "text/html"},
		{"empty", "", "", 404, false, false, "empty"},
		{"json array", "application/json", `["x"]`, 400, false, false, "json-non-object"},
	}
	for _, c := range cases {
		eb := readErrorBody(get("/x", c.status, c.ct, c.body))
		if eb.Machine != c.machine || actionable(eb.Detail, c.status) != c.act || eb.Signature != c.sig {
			t.Errorf("%s: machine %v actionable %v (%q) sig %q", c.name, eb.Machine, actionable(eb.Detail, c.status), eb.Detail, eb.Signature)
		}
	}
}

func TestActionable(t *testing.T) {
	for text, want := range map[string]bool{
		"Not Found": false, "not found.": false, "Error": false, "": false,
		"Widget 42 does not exist": true, "Missing bearer token": true, "quota_exceeded_for_key": true,
	} {
		if got := actionable(text, 404); got != want {
			t.Errorf("%q: %v", text, got)
		}
	}
}

func TestStackTraces(t *testing.T) {
	cases := map[string]string{
		"Java stack trace":     "java.lang.NullPointerException\n\tat com.acme.Foo.bar(Foo.java:12)",
		"Python traceback":     "Traceback (most recent call last):\n  File \"/app/main.py\", line 3, in <module>",
		"Go panic":             "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:8 +0x1d",
		".NET stack trace":     "System.InvalidOperationException: boom\n   at Acme.Api.Get() in C:\\src\\Api.cs:line 42",
		"PHP error":            "<b>Fatal error</b>: Uncaught Exception: boom in /var/www/index.php on line 7",
		"Node.js stack trace":  "TypeError: x is undefined\n    at handler (/srv/app/index.js:10:15)",
		"Ruby backtrace":       "app/controllers/widgets_controller.rb:12:in `show'",
		"framework debug page": "<h1>Whitelabel Error Page</h1>",
	}
	for want, body := range cases {
		if got, _ := stackTrace([]byte(body)); got != want {
			t.Errorf("%q: got %q, want %q", body, got, want)
		}
	}
	for _, clean := range []string{problem(500, "Internal Server Error", "Something failed on our side; retry with the id 01J8 in support requests"), notFoundHTML, `{"message":"at least one field is required"}`} {
		if got, _ := stackTrace([]byte(clean)); got != "" {
			t.Errorf("false positive %q on %q", got, clean)
		}
	}
}

func TestCheckErrorsSubPoints(t *testing.T) {
	s := excellent()
	s.NotFound = get("/missing", 302, "", "", "Location", "/")
	s.WrongMethod = resp(http.MethodDelete, "/v1/status", 405, "application/problem+json", problem(405, "Method Not Allowed", "Use GET on /v1/status"))
	got := scoresOf(checkErrors(s), "agent_friendly_errors.")
	want := map[string]int{"real_404": 0, "machine_readable": 4, "actionable": 3, "no_stack_traces": 2, "method_not_allowed": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	s.NotFound = get("/missing", 400, "application/problem+json", problem(400, "Bad Request", "Path segments must be lower case"))
	if got := scoresOf(checkErrors(s), "agent_friendly_errors.")["real_404"]; got != 2 {
		t.Errorf("400 for a missing page: %d", got)
	}
	s.NotFound = get("/missing", 410, "application/problem+json", problem(410, "Gone", "This page was removed in 2025"))
	if got := scoresOf(checkErrors(s), "agent_friendly_errors.")["real_404"]; got != 4 {
		t.Errorf("410: %d", got)
	}
}

func TestCheckFormatSubPoints(t *testing.T) {
	s := excellent()
	s.AcceptJSON = get("/v1/status", 406, "text/plain", "Not Acceptable")
	if got := scoresOf(checkFormat(s), "response_format.")["accept_json"]; got != 5 {
		t.Errorf("406: %d", got)
	}
	s.AcceptJSON = get("/v1/status", 200, "text/plain", `{"status":"ok"}`)
	got := scoresOf(checkFormat(s), "response_format.")
	if got["accept_json"] != 2 || got["content_type_matches"] != 4 {
		t.Errorf("json as text: %v", got)
	}
	s.AcceptJSON = get("/v1/status", 200, "application/json", `<html>oops</html>`)
	got = scoresOf(checkFormat(s), "response_format.")
	if got["accept_json"] != 0 || got["content_type_matches"] != 2 {
		t.Errorf("html as json: %v", got)
	}
	// Charset only in a meta tag; missing Content-Type.
	s = excellent()
	s.Home = get("/", 200, "text/html", `<!doctype html><html><head><meta charset="utf-8"></head></html>`)
	if got := scoresOf(checkFormat(s), "response_format.")["charset"]; got != 1 {
		t.Errorf("meta charset: %d", got)
	}
	s.Home = get("/", 200, "", `<!doctype html><html></html>`)
	if got := scoresOf(checkFormat(s), "response_format."); got["content_type_matches"] != 2 || got["charset"] != 0 {
		t.Errorf("no content type: %v", got)
	}
	// One error response only: consistency is not observable.
	s = excellent()
	s.Unauthenticated = get("/v1/widgets", 200, "application/json", `[]`)
	s.WrongMethod = resp(http.MethodDelete, "/v1/status", 204, "", "")
	if got := scoresOf(checkFormat(s), "response_format.")["one_error_envelope"]; got != 2 {
		t.Errorf("one error: %d", got)
	}
}

func TestContentMatches(t *testing.T) {
	cases := []struct {
		ct, body string
		want     bool
	}{
		{"application/json", `{"a":1}`, true},
		{"application/vnd.api+json", `{"data":[]}`, true},
		{"application/json", `{"a":`, false},
		{"text/html; charset=utf-8", `<!DOCTYPE html><html></html>`, true},
		{"text/html", `{"a":1}`, false},
		{"text/plain", `<html><body>x</body></html>`, false},
		{"text/markdown", "# Title", true},
		{"application/xml", `<?xml version="1.0"?><a/>`, true},
		{"image/png", "\x89PNG\r\n\x1a\n0000", true},
		{"image/png", `<html><body>x</body></html>`, false},
		{"", `{}`, false},
		{"application/json", ``, true},
	}
	for _, c := range cases {
		if got, why := contentMatches(get("/", 200, c.ct, c.body)); got != c.want {
			t.Errorf("%q %q: %v (%s)", c.ct, c.body, got, why)
		}
	}
}

func TestCheckAuthSubPoints(t *testing.T) {
	s := excellent()
	s.Unauthenticated.Header.Set("WWW-Authenticate", `realm="api"`)
	if got := scoresOf(checkAuth(s), "api_authentication.")["www_authenticate"]; got != 0 {
		t.Errorf("parameter without scheme: %d", got)
	}
	s = excellent()
	s.AuthServerMeta = get("/.well-known/oauth-authorization-server", 404, "", "")
	s.ProtectedMeta = get("/.well-known/oauth-protected-resource", 200, "application/json", `{"authorization_servers":[]}`)
	if got := scoresOf(checkAuth(s), "api_authentication.")["oauth_metadata"]; got != 1 {
		t.Errorf("protected resource without resource: %d", got)
	}
	s.ProtectedMeta = get("/.well-known/oauth-protected-resource", 200, "application/json", `{"resource":"https://example.com/v1"}`)
	if got := scoresOf(checkAuth(s), "api_authentication.")["oauth_metadata"]; got != 3 {
		t.Errorf("protected resource alone: %d", got)
	}
	// Schemes declared but never required: 2 of 3.
	var spec map[string]any
	_ = json.Unmarshal([]byte(excellentSpec), &spec)
	delete(spec, "security")
	b, _ := json.Marshal(spec)
	s = excellent()
	s.OpenAPI = get("/openapi.json", 200, "application/json", string(b))
	if got := scoresOf(checkAuth(s), "api_authentication.")["security_schemes"]; got != 2 {
		t.Errorf("unused schemes: %d", got)
	}
	// A 401 the description does not document loses the 401/403 point.
	s = excellent()
	s.OpenAPI = get("/openapi.json", 200, "application/json", publicSpec)
	if got := scoresOf(checkAuth(s), "api_authentication."); got["401_vs_403"] != 0 || got["unauthenticated_401"] != 4 {
		t.Errorf("undocumented 401: %v", got)
	}
}

func TestAuthScheme(t *testing.T) {
	for v, want := range map[string]string{
		`Bearer realm="api"`: "Bearer", `Basic`: "Basic", `DPoP algs="ES256", Bearer`: "DPoP",
		`realm="x"`: "", ``: "", `  Digest realm="a"`: "Digest",
	} {
		if got := authScheme(v); got != want {
			t.Errorf("%q: %q", v, got)
		}
	}
}

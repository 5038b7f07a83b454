package readapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// errShape is an error body of any style reduced to what the tests compare.
type errShape struct {
	Message   string // the human message
	Code      string // the style's code (kind for problem, CODE for captable, snake for voice, "" for hackathon)
	Field     string // "" when the body has no field
	RequestID string
}

// codes gives, per status, the code each style prints: problem, captable, voice.
func codes(status int) [3]string {
	switch status {
	case 400:
		return [3]string{"invalid", "VALIDATION_ERROR", "bad_request"}
	case 404:
		return [3]string{"not_found", "NOT_FOUND", "not_found"}
	case 405:
		return [3]string{"method_not_allowed", "METHOD_NOT_ALLOWED", "method_not_allowed"}
	case 413:
		return [3]string{"too_large", "PAYLOAD_TOO_LARGE", "payload_too_large"}
	case 415:
		return [3]string{"unsupported_media_type", "UNSUPPORTED_MEDIA_TYPE", "unsupported_media_type"}
	case 500:
		return [3]string{"internal", "INTERNAL_ERROR", "internal_error"}
	}
	return [3]string{}
}

// parseError checks that body has exactly the keys of surface's style, with
// the right types, Content-Type, status and path, and returns its contents.
func parseError(t *testing.T, surface string, resp *http.Response, body []byte, path string) errShape {
	t.Helper()
	wantCT := "application/json"
	if surface == "api" || surface == "builder" {
		wantCT = "application/problem+json"
	}
	if ct := resp.Header.Get("Content-Type"); ct != wantCT {
		t.Fatalf("Content-Type = %q, want %q; body %s", ct, wantCT, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, body)
	}
	status := resp.StatusCode
	c := codes(status)
	var s errShape
	switch surface {
	case "api", "builder":
		keys(t, m, []string{"type", "title", "status", "detail", "instance", "code", "request_id"}, []string{"field", "rule"})
		s = errShape{Message: str(t, m, "detail"), Code: str(t, m, "code"), RequestID: str(t, m, "request_id")}
		if f, ok := m["field"]; ok {
			s.Field = f.(string)
			if r, _ := m["rule"].(string); r == "" {
				t.Errorf("problem has field %q but no rule", s.Field)
			}
		}
		eq(t, "type", m["type"], "https://strata.dev/problems/"+c[0])
		eq(t, "title", m["title"], http.StatusText(status))
		eq(t, "status", m["status"], float64(status))
		eq(t, "instance", m["instance"], path)
		eq(t, "code", s.Code, c[0])
	case "captable":
		keys(t, m, []string{"error", "message", "field", "statusCode", "requestId"}, nil)
		s = errShape{Message: str(t, m, "message"), Code: str(t, m, "error"), RequestID: str(t, m, "requestId")}
		if m["field"] != nil {
			s.Field = str(t, m, "field")
		}
		eq(t, "statusCode", m["statusCode"], float64(status))
		eq(t, "error", s.Code, c[1])
	case "voice":
		keys(t, m, []string{"error", "code", "request_id"}, []string{"details"})
		s = errShape{Message: str(t, m, "error"), Code: str(t, m, "code"), RequestID: str(t, m, "request_id")}
		if d, ok := m["details"].(map[string]any); ok {
			keys(t, d, []string{"field", "message"}, []string{"rule"})
			s.Field = str(t, d, "field")
			if str(t, d, "message") == "" {
				t.Errorf("details.message is empty")
			}
		} else if _, present := m["details"]; present {
			t.Errorf("details = %v, want an object or absent", m["details"])
		}
		eq(t, "code", s.Code, c[2])
	case "hackathon":
		keys(t, m, []string{"error"}, nil)
		e, ok := m["error"].(map[string]any)
		if !ok {
			t.Fatalf("error is %T, want an object: %s", m["error"], body)
		}
		keys(t, e, []string{"status_code", "message", "path", "request_id"}, nil)
		s = errShape{Message: str(t, e, "message"), RequestID: str(t, e, "request_id")}
		eq(t, "status_code", e["status_code"], float64(status))
		eq(t, "path", e["path"], path)
	default:
		t.Fatalf("unknown surface %q", surface)
	}
	if got := resp.Header.Get("X-Request-ID"); got == "" || got != s.RequestID {
		t.Errorf("X-Request-ID header %q, body request id %q", got, s.RequestID)
	}
	return s
}

// keys fails unless m has every required key, and no key outside required+optional.
func keys(t *testing.T, m map[string]any, required, optional []string) {
	t.Helper()
	for _, k := range required {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q in %v", k, m)
		}
	}
	for k := range m {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			t.Errorf("unexpected key %q in %v", k, m)
		}
	}
}

func str(t *testing.T, m map[string]any, k string) string {
	t.Helper()
	v, ok := m[k].(string)
	if !ok {
		t.Errorf("%s = %#v, want a string", k, m[k])
	}
	return v
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func contains(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s = %q, want it to contain %q", what, s, sub)
		}
	}
}

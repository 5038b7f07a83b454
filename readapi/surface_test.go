package readapi_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/readapi"
)

func TestErrorBodiesPerSurface(t *testing.T) {
	type errCase struct {
		name, method, path, contentType, body string
		status                                int
		field                                 string   // expected field ("" = none)
		message                               []string // substrings of the message
		header                                [2]string
	}
	for _, surface := range readapi.Surfaces() {
		t.Run(surface, func(t *testing.T) {
			ts := startSurface(t, surface, readapi.Readiness{})
			cases := []errCase{
				{name: "unknown route", method: "GET", path: "/no/such/route", status: 404, message: []string{"/no/such/route"}},
				{name: "wrong method", method: "POST", path: healthPath(surface), status: 405, message: []string{"POST"}, header: [2]string{"Allow", "GET, HEAD"}},
				{name: "malformed JSON", method: "POST", path: "/test/json", contentType: "application/json", body: `{"email" "x"}`, status: 400, field: "body", message: []string{"body", "json_syntax", "byte offset"}},
				{name: "wrong type", method: "POST", path: "/test/json", contentType: "application/json", body: `{"amount":"ten"}`, status: 400, field: "amount", message: []string{"amount", "must be an integer"}},
				{name: "empty body", method: "POST", path: "/test/json", contentType: "application/json", status: 400, field: "body", message: []string{"body: required"}},
				{name: "unknown field", method: "POST", path: "/test/json", contentType: "application/json", body: `{"emial":"x"}`, status: 400, field: "emial", message: []string{"emial", "unknown_field"}},
				{name: "wrong content type", method: "POST", path: "/test/json", contentType: "text/plain", body: `{}`, status: 415, message: []string{"application/json"}},
				{name: "kernel invalid", method: "GET", path: "/test/invalid", status: 400, field: "email", message: []string{"email: required"}},
				{name: "internal error", method: "GET", path: "/test/internal", status: 500, message: []string{"internal server error"}},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					var body io.Reader
					if c.body != "" {
						body = strings.NewReader(c.body)
					}
					resp, raw := call(t, c.method, ts.srv.URL+c.path, c.contentType, body)
					if resp.StatusCode != c.status {
						t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, c.status, raw)
					}
					got := parseError(t, surface, resp, raw, c.path)
					if surface != "hackathon" { // the hackathon shape has no field key
						eq(t, "field", got.Field, c.field)
					}
					if c.field != "" {
						contains(t, "message", got.Message, c.field+": ") // every style names the field in the text
					}
					contains(t, "message", got.Message, c.message...)
					if c.header[0] != "" {
						eq(t, c.header[0], resp.Header.Get(c.header[0]), c.header[1])
					}
					if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "10.0.0.7") {
						t.Errorf("body leaks the internal cause: %s", raw)
					}
					if c.status == 500 {
						logLine(t, ts.logs, `"internal error"`, internalCause, `"request_id":"`+got.RequestID+`"`)
					}
				})
			}
		})
	}
}

func TestRequestIDPerSurface(t *testing.T) {
	for _, surface := range readapi.Surfaces() {
		t.Run(surface, func(t *testing.T) {
			ts := startSurface(t, surface, readapi.Readiness{})
			cases := []struct {
				name, path, incoming string
			}{
				{"echoed on success", healthPath(surface), "abc-123"},
				{"echoed on error", "/test/invalid", "abc-123"},
				{"generated on success", healthPath(surface), ""},
				{"generated on error", "/test/invalid", ""},
			}
			seen := map[string]bool{}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					var hdr []string
					if c.incoming != "" {
						hdr = []string{"X-Request-ID", c.incoming}
					}
					resp, raw := call(t, "GET", ts.srv.URL+c.path, "", nil, hdr...)
					id := resp.Header.Get("X-Request-ID")
					switch {
					case c.incoming != "" && id != c.incoming:
						t.Fatalf("X-Request-ID = %q, want %q echoed", id, c.incoming)
					case c.incoming == "" && (len(id) != 26 || seen[id]):
						t.Fatalf("X-Request-ID = %q, want a fresh ULID", id)
					}
					seen[id] = true
					if resp.StatusCode >= 400 {
						eq(t, "body request id", parseError(t, surface, resp, raw, c.path).RequestID, id)
					}
				})
			}
		})
	}
}

func TestBodyLimitPerSurface(t *testing.T) {
	big := `{"note":"` + strings.Repeat("x", 64*testMaxBody) + `"}`
	for _, surface := range readapi.Surfaces() {
		t.Run(surface, func(t *testing.T) {
			ts := startSurface(t, surface, readapi.Readiness{})
			cases := []struct {
				name    string
				chunked bool
				handler string // X-Test-Handler: "" when refused before the handler ran
			}{
				{"content-length", false, ""},
				// The text check reads a JSON body before any handler, so an
				// oversized chunked body is refused there too.
				{"chunked", true, ""},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					req, err := http.NewRequest("POST", ts.srv.URL+"/test/json", bytes.NewReader([]byte(big)))
					if err != nil {
						t.Fatal(err)
					}
					req.Header.Set("Content-Type", "application/json")
					if c.chunked {
						req.Body = io.NopCloser(strings.NewReader(big)) // unknown length
						req.ContentLength = -1
					}
					resp, raw := send(t, req)
					if resp.StatusCode != http.StatusRequestEntityTooLarge {
						t.Fatalf("status = %d, want 413; body %s", resp.StatusCode, raw)
					}
					got := parseError(t, surface, resp, raw, "/test/json")
					contains(t, "message", got.Message, "1024 bytes")
					eq(t, "X-Test-Handler", resp.Header.Get("X-Test-Handler"), c.handler)
				})
			}
			// A body within the limit still goes through.
			resp, raw := call(t, "POST", ts.srv.URL+"/test/json", "application/json", strings.NewReader(`{"note":"small"}`))
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(raw), `"small"`) {
				t.Fatalf("small body: status %d body %s", resp.StatusCode, raw)
			}
		})
	}
}

func TestPanicRecoveryPerSurface(t *testing.T) {
	for _, surface := range readapi.Surfaces() {
		t.Run(surface, func(t *testing.T) {
			ts := startSurface(t, surface, readapi.Readiness{})
			for i := range 2 { // twice: the server survives the first panic
				resp, raw := call(t, "GET", ts.srv.URL+"/test/panic", "", nil)
				if resp.StatusCode != http.StatusInternalServerError {
					t.Fatalf("round %d: status = %d, want 500; body %s", i, resp.StatusCode, raw)
				}
				got := parseError(t, surface, resp, raw, "/test/panic")
				eq(t, "message", got.Message, "internal server error")
				for _, leak := range []string{"kaboom", "secret panic", "goroutine", ".go:"} {
					if strings.Contains(string(raw), leak) {
						t.Fatalf("body leaks %q: %s", leak, raw)
					}
				}
				logLine(t, ts.logs, `"panic recovered"`, panicText, "goroutine", `"request_id":"`+got.RequestID+`"`)
			}
			resp, raw := call(t, "GET", ts.srv.URL+healthPath(surface), "", nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("after panics: health status %d body %s", resp.StatusCode, raw)
			}
		})
	}
}

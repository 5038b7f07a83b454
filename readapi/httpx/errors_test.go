package httpx_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

func TestWriteError(t *testing.T) {
	const secret = "pq: password authentication failed for user strata"
	cases := []struct {
		name       string
		err        error
		status     int
		detail     string
		retryAfter string
		logged     bool
	}{
		{"invalid with message", kernel.Invalid("email", "required", "email is required"), 400, "email: required (email is required)", "", false},
		{"invalid without message", kernel.Invalid("email", "required", ""), 400, "email: required", "", false},
		{"wrapped conflict", fmt.Errorf("issue grant: %w", kernel.Conflict("grant already exists", errors.New(secret))), 409, "grant already exists", "", false},
		{"payment required", kernel.E(kernel.KindPaymentRequired, "deck export needs a paid plan"), 402, "deck export needs a paid plan", "", false},
		{"rate limited", httpx.RateLimited("slow down", 1500*time.Millisecond), 429, "slow down", "2", false},
		{"rate limited below a second", httpx.RateLimited("slow down", time.Millisecond), 429, "slow down", "1", false},
		{"unavailable with retry", &httpx.RetryAfter{After: 30 * time.Second, Err: kernel.Unavailable("telephony circuit open", errors.New(secret))}, 503, "telephony circuit open", "30", false},
		{"retry after ignored on 400", &httpx.RetryAfter{After: time.Minute, Err: kernel.Invalid("x", "y", "")}, 400, "x: y", "", false},
		{"plain error", errors.New(secret), 500, "internal server error", "", true},
		{"kernel internal", &kernel.Error{Kind: kernel.KindInternal, Message: secret}, 500, "internal server error", "", true},
		{"unknown kind", kernel.E(kernel.Kind(999), secret), 500, "internal server error", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := mux.NewRouter()
			rt.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { httpx.WriteError(w, r, c.err) })
			srv, logs := serve(t, httpx.StyleProblem, 0, rt)
			resp, body := do(t, http.MethodGet, srv.URL+"/x", "", nil, httpx.HeaderRequestID, "req-42")
			if resp.StatusCode != c.status {
				t.Fatalf("status = %d, want %d", resp.StatusCode, c.status)
			}
			p := problem(t, resp, body)
			if p["detail"] != c.detail {
				t.Errorf("detail = %q, want %q", p["detail"], c.detail)
			}
			if p["request_id"] != "req-42" || p["instance"] != "/x" || p["status"] != float64(c.status) {
				t.Errorf("request_id/instance/status = %v/%v/%v", p["request_id"], p["instance"], p["status"])
			}
			if !strings.HasPrefix(p["type"].(string), "https://strata.dev/problems/") || p["title"] != http.StatusText(c.status) {
				t.Errorf("type/title = %v/%v", p["type"], p["title"])
			}
			if got := resp.Header.Get("Retry-After"); got != c.retryAfter {
				t.Errorf("Retry-After = %q, want %q", got, c.retryAfter)
			}
			if strings.Contains(string(body), "password") {
				t.Errorf("body leaks the cause: %s", body)
			}
			if c.logged {
				var line map[string]any
				for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
					if strings.Contains(l, `"internal error"`) {
						_ = json.Unmarshal([]byte(l), &line)
					}
				}
				if line["request_id"] != "req-42" || !strings.Contains(fmt.Sprint(line["error"]), secret) {
					t.Errorf("internal error not logged with its text and request id: %s", logs)
				}
			}
		})
	}
}

func TestRouterNotFoundAndMethodNotAllowed(t *testing.T) {
	rt := httpx.NewRouter(httpx.StyleProblem)
	ok := func(w http.ResponseWriter, r *http.Request) {}
	rt.HandleFunc("/items/{id}", ok).Methods(http.MethodGet)
	rt.HandleFunc("/items/{id}", ok).Methods(http.MethodPut, http.MethodDelete)
	sub := rt.PathPrefix("/v1").Subrouter()
	sub.HandleFunc("/things", ok).Methods(http.MethodPost)
	srv, _ := serve(t, httpx.StyleProblem, 0, rt)

	cases := []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodPost, "/items/7", 405, "GET, PUT, DELETE"},
		{http.MethodGet, "/v1/things", 405, "POST"},
		{http.MethodGet, "/nowhere", 404, ""},
		{http.MethodGet, "/items/7", 200, ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			resp, body := do(t, c.method, srv.URL+c.path, "", nil)
			if resp.StatusCode != c.status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			if got := resp.Header.Get("Allow"); got != c.allow {
				t.Errorf("Allow = %q, want %q", got, c.allow)
			}
			if c.status != 200 {
				p := problem(t, resp, body)
				if p["instance"] != c.path {
					t.Errorf("instance = %v", p["instance"])
				}
			}
		})
	}
}

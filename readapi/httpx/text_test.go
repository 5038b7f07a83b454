package httpx_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/httpx"
)

// TestCheckTextRefusesWhatPostgreSQLCannotKeep: NUL and invalid UTF-8 are
// refused with 400 naming where they were, in the path, the query, a
// header, a JSON body and a form body, before any handler runs.
func TestCheckTextRefusesWhatPostgreSQLCannotKeep(t *testing.T) {
	reached := 0
	rt := httpx.NewRouter(httpx.StyleProblem)
	rt.Use(httpx.CheckText)
	rt.PathPrefix("/").HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	})
	srv, _ := serve(t, httpx.StyleProblem, 1<<20, rt)

	cases := []struct {
		name, method, path, contentType, body string
		header                                []string
		status                                int
		field, rule                           string
	}{
		{"plain request", "GET", "/things?group_id=abc&q=caf%C3%A9", "", "", nil, 204, "", ""},
		{"NUL in a query value", "GET", "/things?group_id=%00", "", "", nil, 400, "group_id", "no_nul"},
		{"invalid UTF-8 in a query value", "GET", "/things?q=caf%E9", "", "", nil, 400, "q", "utf8"},
		{"NUL in a query name", "GET", "/things?a%00=1", "", "", nil, 400, "query string", "no_nul"},
		{"NUL in the path", "GET", "/things/a%00b", "", "", nil, 400, "path", "no_nul"},
		{"invalid UTF-8 in the path", "GET", "/things/caf%E9", "", "", nil, 400, "path", "utf8"},
		{"invalid UTF-8 in a header", "GET", "/things", "", "", []string{"X-Organization-ID", "caf\xe9"}, 400, "X-Organization-Id", "utf8"},
		{"NUL in a JSON body", "POST", "/things", "application/json", `{"title":"a\u0000"}`, nil, 400, "title", "no_nul"},
		{"duplicate member in a JSON body", "POST", "/things", "application/json", `{"title":"a","title":"b"}`, nil, 400, "title", "duplicate_key"},
		{"NUL in a form body", "POST", "/things", "application/x-www-form-urlencoded", "client_name=a%00", nil, 400, "client_name", "no_nul"},
		{"good form body", "POST", "/things", "application/x-www-form-urlencoded", "client_name=caf%C3%A9", nil, 204, "", ""},
		{"multipart is left to its handler", "POST", "/things", "multipart/form-data; boundary=x", "--x--\r\n", nil, 204, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := reached
			resp, body := do(t, c.method, srv.URL+c.path, c.contentType, strings.NewReader(c.body), c.header...)
			if resp.StatusCode != c.status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			if c.status != 400 {
				return
			}
			if reached != before {
				t.Fatal("the handler ran for a refused request")
			}
			p := problem(t, resp, body)
			if got, _ := p["field"].(string); got != c.field {
				t.Errorf("field = %q, want %q", got, c.field)
			}
			if got, _ := p["rule"].(string); got != c.rule {
				t.Errorf("rule = %q, want %q", got, c.rule)
			}
		})
	}
}

// TestCheckTextKeepsTheBodyForTheHandler: the handler reads the same bytes.
func TestCheckTextKeepsTheBodyForTheHandler(t *testing.T) {
	rt := mux.NewRouter()
	rt.Use(httpx.CheckText)
	rt.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		var v struct {
			Title string `json:"title"`
		}
		if err := httpx.DecodeJSON(r, &v); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		_, _ = io.WriteString(w, v.Title)
	})
	srv, _ := serve(t, httpx.StyleProblem, 1<<20, rt)
	resp, body := do(t, "POST", srv.URL+"/", "application/json", strings.NewReader(`{"title":"héllo"}`))
	if resp.StatusCode != 200 || string(body) != "héllo" {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
}

package httpx_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/httpx"
)

type order struct {
	Email  string `json:"email"`
	Amount int    `json:"amount"`
	Items  []struct {
		Qty int `json:"qty"`
	} `json:"items"`
}

func TestDecodeJSON(t *testing.T) {
	rt := httpx.NewRouter(httpx.StyleProblem)
	rt.HandleFunc("/orders", func(w http.ResponseWriter, r *http.Request) {
		var o order
		if err := httpx.DecodeJSON(r, &o); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if err := httpx.WriteJSON(w, http.StatusCreated, o); err != nil {
			httpx.WriteError(w, r, err)
		}
	}).Methods(http.MethodPost)
	srv, _ := serve(t, httpx.StyleProblem, 256, rt)

	cases := []struct {
		name, contentType, body string
		status                  int
		field, rule, detail     string // detail: substring of the message
	}{
		{"ok", "application/json", `{"email":"a@b.c","amount":3}`, 201, "", "", ""},
		{"ok with charset", "application/json; charset=UTF-8", `{"email":"a@b.c"}` + "\n", 201, "", "", ""},
		{"missing content type", "", `{}`, 415, "", "", "application/json"},
		{"text/plain", "text/plain", `{}`, 415, "", "", "application/json"},
		{"latin1 charset", "application/json; charset=latin1", `{}`, 415, "", "", "utf-8"},
		{"empty body", "application/json", ``, 400, "body", "required", "body: required"},
		{"whitespace body", "application/json", "  \n", 400, "body", "required", "body: required"},
		{"syntax error", "application/json", `{"email" "a"}`, 400, "body", "json_syntax", "byte offset 10"},
		{"truncated", "application/json", `{"email":`, 400, "body", "json_syntax", "unexpected end"},
		{"wrong type", "application/json", `{"amount":"ten"}`, 400, "amount", "type:integer", "amount: type:integer (must be an integer)"},
		{"nested wrong type", "application/json", `{"items":[{"qty":true}]}`, 400, "items.qty", "type:integer", "items.qty"},
		{"array instead of object", "application/json", `[1]`, 400, "body", "type:object", "must be an object"},
		{"unknown field", "application/json", `{"emial":"x"}`, 400, "emial", "unknown_field", "emial: unknown_field"},
		{"trailing object", "application/json", `{"email":"a"}{"email":"b"}`, 400, "body", "single_value", "after the JSON value"},
		{"trailing garbage", "application/json", `{"email":"a"} x`, 400, "body", "single_value", ""},
		{"NUL in a value", "application/json", `{"email":"a\u0000b"}`, 400, "email", "no_nul", "NUL"},
		{"NUL in a nested value", "application/json", `{"items":[{"qty":1},{"note":"x\u0000"}]}`, 400, "items[1].note", "no_nul", ""},
		{"NUL in a member name", "application/json", `{"a\u0000":1}`, 400, "a\u0000", "no_nul", ""},
		{"invalid UTF-8", "application/json", "{\"email\":\"caf\xe9\"}", 400, "email", "utf8", "UTF-8"},
		{"lone surrogate escape", "application/json", `{"email":"\ud800"}`, 400, "email", "utf8", "UTF-8"},
		{"duplicate member", "application/json", `{"email":"a","email":"b"}`, 400, "email", "duplicate_key", "more than once"},
		{"duplicate nested member", "application/json", `{"items":[{"qty":1,"qty":2}]}`, 400, "items[0].qty", "duplicate_key", ""},
		{"deep nesting", "application/json", strings.Repeat("[", 100) + strings.Repeat("]", 100), 400, "body", "max_depth", "at most 64 levels"},
		{"too large", "application/json", `{"email":"` + strings.Repeat("a", 400) + `"}`, 413, "", "", "256 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := do(t, http.MethodPost, srv.URL+"/orders", c.contentType, strings.NewReader(c.body))
			if resp.StatusCode != c.status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			if c.status == http.StatusCreated {
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
					t.Fatalf("Content-Type = %q", ct)
				}
				return
			}
			p := problem(t, resp, body)
			if got, _ := p["field"].(string); got != c.field {
				t.Errorf("field = %q, want %q", got, c.field)
			}
			if got, _ := p["rule"].(string); got != c.rule {
				t.Errorf("rule = %q, want %q", got, c.rule)
			}
			if d, _ := p["detail"].(string); !strings.Contains(d, c.detail) {
				t.Errorf("detail = %q, want it to contain %q", d, c.detail)
			}
		})
	}
}

func TestWriteJSONMarshalErrorWritesNothing(t *testing.T) {
	rt := mux.NewRouter()
	rt.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {
		if err := httpx.WriteJSON(w, http.StatusOK, map[string]any{"f": func() {}}); err != nil {
			httpx.WriteError(w, r, err)
		}
	})
	srv, logs := serve(t, httpx.StyleProblem, 0, rt)
	resp, body := do(t, http.MethodGet, srv.URL+"/x", "", nil)
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500; body %s", resp.StatusCode, body)
	}
	if p := problem(t, resp, body); p["detail"] != "internal server error" {
		t.Fatalf("detail = %v", p["detail"])
	}
	if !strings.Contains(logs.String(), "unsupported type") {
		t.Fatalf("marshal error not logged: %s", logs)
	}
}

package builder_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The preview's API is the generated app's own server, started on the
// preview's first API request (health-checked), answering the sandboxed
// page's cross-origin calls (Origin: null) under the preview's prefix.
func TestPreviewRunsTheApp(t *testing.T) {
	c := startChats(t)
	if !c.apps {
		t.Skip("node is not on PATH: the preview's server cannot run (the e2e suite and CI install it)")
	}
	evs := read(t, c.post(`{"message":"book yoga classes at my studio"}`, "").Body, -1)
	chatID := evs[0].Data["chatId"].(string)
	var spec struct {
		Entities []struct {
			Plural string
			Fields []struct {
				Name, Type string
				Required   bool
				Options    []string
			}
		}
	}
	if err := json.Unmarshal(mustJSON(t, evs[2].Data["spec"]), &spec); err != nil || len(spec.Entities) == 0 {
		t.Fatalf("%v %v", err, evs[2].Data)
	}
	base := c.url + "/api/preview/" + chatID + "/"
	do := func(method, path, body string) (int, http.Header, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Origin", "null")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	status, h, body := do(http.MethodGet, "healthz", "")
	if status != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("healthz: %d %s", status, body)
	}
	e := spec.Entities[0]
	status, h, body = do(http.MethodGet, "api/"+e.Plural, "")
	if status != 200 || h.Get("Access-Control-Allow-Origin") != "null" {
		t.Fatalf("list: %d %v %s", status, h, body)
	}
	// A body with every required field, by type.
	rec := map[string]any{}
	for _, f := range e.Fields {
		if !f.Required {
			continue
		}
		switch f.Type {
		case "number":
			rec[f.Name] = 3
		case "money":
			rec[f.Name] = "12.50"
		case "date":
			rec[f.Name] = "2026-12-01"
		case "time":
			rec[f.Name] = "09:30"
		case "email":
			rec[f.Name] = "ada@example.com"
		case "url":
			rec[f.Name] = "https://example.com"
		case "bool":
			rec[f.Name] = true
		case "enum":
			rec[f.Name] = f.Options[0]
		case "phone":
			rec[f.Name] = "+14155550100"
		default:
			rec[f.Name] = "Morning flow"
		}
	}
	status, _, body = do(http.MethodPost, "api/"+e.Plural, string(mustJSON(t, rec)))
	if status != 201 {
		t.Fatalf("create: %d %s", status, body)
	}
	status, _, body = do(http.MethodGet, "api/"+e.Plural, "")
	if status != 200 || !strings.Contains(body, `"id"`) {
		t.Fatalf("list after create: %d %s", status, body)
	}
	if status, _, body = do(http.MethodPost, "api/"+e.Plural, `{}`); status != 400 {
		t.Fatalf("a record without its required fields: %d %s", status, body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every answer under the preview, the app's own included, carries the
// sandbox CSP: an app answering HTML there still runs in an opaque origin.
func TestPreviewAppAnswersAreSandboxed(t *testing.T) {
	c := startChats(t)
	if !c.apps {
		t.Skip("node is not on PATH: the preview's server cannot run (the e2e suite and CI install it)")
	}
	evs := read(t, c.post(`{"message":"a directory of vegan restaurants in Berlin"}`, "").Body, -1)
	base := c.url + "/api/preview/" + evs[0].Data["chatId"].(string) + "/"
	for _, path := range []string{"healthz", "api/nothing-here", ""} {
		r, _ := get(t, base+path)
		if !strings.HasPrefix(r.Header.Get("Content-Security-Policy"), "sandbox allow-scripts") {
			t.Errorf("%s: %d without the sandbox CSP: %v", path, r.StatusCode, r.Header)
		}
	}
}

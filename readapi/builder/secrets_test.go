package builder_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// canary is the distinctive value whose every trace the test looks for.
const canary = "sk_live_Zq7LEAKCANARY4b9e1f0c"

func keysOf(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// The secrets routes end to end, with real founder sessions: 401 without
// one, 403 for another founder's company or an anonymous chat, 400s that
// name the field and rule, add, edit (versions count up), a masked and
// sorted list, delete and 404; then the value is looked for, and not
// found, in every response of every builder route called, in every row
// of the event store (payload and metadata), the key and sealed tables
// as text, and the server's log.
func TestSecretsRoutes(t *testing.T) {
	t.Parallel()
	w := newSecretsWorld(t)
	anon, grace, ada := newBrowser(t), newBrowser(t), newBrowser(t)
	for method, body := range map[string]string{
		http.MethodGet:    "",
		http.MethodPost:   `{"companyId":"chat_0000000000","name":"A","value":"` + canary + `"}`,
		http.MethodDelete: `{"companyId":"chat_0000000000","name":"A"}`,
	} {
		if st, _, _ := w.call(anon, method, "/api/build/secrets?companyId=chat_0000000000", body); st != http.StatusUnauthorized {
			t.Fatalf("%s without a session: %d", method, st)
		}
	}
	w.signInAs(grace, "grace@example.com")
	w.signInAs(ada, "ada@example.com")
	_, me, _ := w.call(grace, http.MethodGet, "/api/session", "")
	graceID := me["user"].(map[string]any)["id"].(string)
	mine := w.generate(grace, `{"message":"book yoga classes at my studio"}`)
	adas := w.generate(ada, `{"message":"a helpdesk for my SaaS customers"}`)
	orphan := w.generate(anon, `{"message":"track my running workouts"}`)

	set := func(b *browser, company, name, value string) (int, map[string]any) {
		t.Helper()
		st, out, _ := w.call(b, http.MethodPost, "/api/build/secrets",
			fmt.Sprintf(`{"companyId":%q,"name":%q,"value":%q}`, company, name, value))
		return st, out
	}
	st, out := set(grace, mine, "STRIPE_SECRET_KEY", canary)
	if st != 200 || keysOf(out) != "companyId,name,pending_redeploy,updated_at,version" || out["companyId"] != mine ||
		out["name"] != "STRIPE_SECRET_KEY" || out["version"] != 1.0 || out["pending_redeploy"] != true {
		t.Fatalf("add: %d %v", st, out)
	}
	if st, out = set(grace, mine, "STRIPE_SECRET_KEY", canary+"-v2"); st != 200 || out["version"] != 2.0 {
		t.Fatalf("edit: %d %v", st, out)
	}
	if st, out = set(grace, mine, "STRIPE_SECRET_KEY", canary); st != 200 || out["version"] != 3.0 {
		t.Fatalf("edit back: %d %v", st, out)
	}
	if st, out = set(grace, mine, "API_BASE", "https://api.example.com"); st != 200 || out["version"] != 1.0 {
		t.Fatalf("second secret: %d %v", st, out)
	}
	st, list, raw := w.call(grace, http.MethodGet, "/api/build/secrets?companyId="+mine, "")
	if st != 200 || list["companyId"] != mine || strings.Contains(raw, canary) {
		t.Fatalf("list: %d %s", st, raw)
	}
	items := list["secrets"].([]any)
	if len(items) != 2 {
		t.Fatalf("list: %s", raw)
	}
	for i, want := range []struct {
		name    string
		version float64
	}{{"API_BASE", 1}, {"STRIPE_SECRET_KEY", 3}} {
		it := items[i].(map[string]any)
		if keysOf(it) != "name,pending_redeploy,updated_at,updated_by,version" || it["name"] != want.name || it["version"] != want.version ||
			it["updated_by"] != graceID || it["pending_redeploy"] != true {
			t.Fatalf("item %d: %v", i, it)
		}
	}

	// Companies that are not hers: 403 on every route, nothing written.
	for _, company := range []string{adas, orphan} {
		for method, body := range map[string]string{
			http.MethodGet:    "",
			http.MethodPost:   `{"companyId":"` + company + `","name":"STOLEN","value":"` + canary + `"}`,
			http.MethodDelete: `{"companyId":"` + company + `","name":"STOLEN"}`,
		} {
			if st, out, _ := w.call(grace, method, "/api/build/secrets?companyId="+company, body); st != http.StatusForbidden {
				t.Fatalf("%s on %s: %d %v", method, company, st, out)
			}
		}
	}
	if st, _, _ := w.call(ada, http.MethodGet, "/api/build/secrets?companyId="+mine, ""); st != http.StatusForbidden {
		t.Fatalf("ada reading grace's secrets: %d", st)
	}

	for _, c := range []struct {
		label, method, path, body, field, rule string
	}{
		{"no companyId", http.MethodGet, "/api/build/secrets", "", "companyId", "required"},
		{"malformed companyId", http.MethodGet, "/api/build/secrets?companyId=" + url.QueryEscape("../etc"), "", "companyId", "format"},
		{"post without companyId", http.MethodPost, "", `{"name":"A","value":"v"}`, "companyId", "required"},
		{"post without name", http.MethodPost, "", `{"companyId":"` + mine + `","value":"v"}`, "name", "required"},
		{"lower-case name", http.MethodPost, "", `{"companyId":"` + mine + `","name":"api_key","value":"v"}`, "name", "pattern"},
		{"name with a dash", http.MethodPost, "", `{"companyId":"` + mine + `","name":"API-KEY","value":"v"}`, "name", "pattern"},
		{"long name", http.MethodPost, "", `{"companyId":"` + mine + `","name":"` + strings.Repeat("N", 65) + `","value":"v"}`, "name", "max_length:64"},
		{"PORT", http.MethodPost, "", `{"companyId":"` + mine + `","name":"PORT","value":"v"}`, "name", "reserved"},
		{"NODE_OPTIONS", http.MethodPost, "", `{"companyId":"` + mine + `","name":"NODE_OPTIONS","value":"v"}`, "name", "reserved"},
		{"STRATA_ prefix", http.MethodPost, "", `{"companyId":"` + mine + `","name":"STRATA_MASTER_KEY","value":"v"}`, "name", "reserved"},
		{"empty value", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK","value":""}`, "value", "required"},
		{"no value", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK"}`, "value", "required"},
		{"large value", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK","value":"` + strings.Repeat("v", 32<<10+1) + `"}`, "value", "max_bytes:32768"},
		{"number value", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK","value":42}`, "value", "type:string"},
		{"NUL in value", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK","value":"a\u0000b"}`, "value", "no_nul"},
		{"unknown field", http.MethodPost, "", `{"companyId":"` + mine + `","name":"OK","value":"v","scope":"all"}`, "scope", "unknown_field"},
		{"delete a malformed name", http.MethodDelete, "", `{"companyId":"` + mine + `","name":"not a name"}`, "name", "pattern"},
		{"delete with a value", http.MethodDelete, "", `{"companyId":"` + mine + `","name":"OK","value":"v"}`, "value", "unknown_field"},
		{"delete without companyId", http.MethodDelete, "", `{"name":"OK"}`, "companyId", "required"},
	} {
		path := c.path
		if path == "" {
			path = "/api/build/secrets"
		}
		st, out, _ := w.call(grace, c.method, path, c.body)
		if st != http.StatusBadRequest || out["field"] != c.field || out["rule"] != c.rule {
			t.Errorf("%s: %d %v, want 400 %s %s", c.label, st, out, c.field, c.rule)
		}
	}

	st, out, _ = w.call(grace, http.MethodDelete, "/api/build/secrets", `{"companyId":"`+mine+`","name":"NOT_THERE"}`)
	if st != http.StatusNotFound || out["field"] != "name" {
		t.Fatalf("delete an unknown name: %d %v", st, out)
	}
	st, out, _ = w.call(grace, http.MethodDelete, "/api/build/secrets", `{"companyId":"`+mine+`","name":"API_BASE"}`)
	if st != 200 || keysOf(out) != "companyId,deleted,name,pending_redeploy" || out["deleted"] != true || out["name"] != "API_BASE" {
		t.Fatalf("delete: %d %v", st, out)
	}
	st, list, _ = w.call(grace, http.MethodGet, "/api/build/secrets?companyId="+mine, "")
	if items := list["secrets"].([]any); st != 200 || len(items) != 1 || items[0].(map[string]any)["name"] != "STRIPE_SECRET_KEY" {
		t.Fatalf("after delete: %d %v", st, list)
	}
	if st, out = set(grace, mine, "API_BASE", "https://api.example.com"); st != 200 || out["version"] != 2.0 {
		t.Fatalf("re-added after delete: %d %v", st, out)
	}

	// Every other builder route, after the value was set: a generation
	// continuing the chat (its whole stream), the session, versions, a
	// restore, the export and the preview.
	w.generate(grace, `{"message":"add a waiting list","chatId":"`+mine+`"}`)
	w.call(grace, http.MethodGet, "/api/session", "")
	w.call(grace, http.MethodGet, "/api/build/versions?chatId="+mine, "")
	w.call(grace, http.MethodPost, "/api/build/versions/restore", `{"chatId":"`+mine+`","version":"1"}`)
	w.call(grace, http.MethodGet, "/api/build/export/"+mine, "")
	w.call(grace, http.MethodGet, "/api/preview/"+mine+"/", "")
	w.call(grace, http.MethodGet, "/api/preview/"+mine+"/app.js", "")
	w.call(anon, http.MethodGet, "/api/build/secrets?companyId="+mine, "")
	w.assertNoTrace(t, canary)
}

// assertNoTrace looks for value (as is, hex, base64) in every response
// kept, every event's payload and metadata, the key and sealed tables as
// text, and the log.
func (w *secretsWorld) assertNoTrace(t *testing.T, value string) {
	t.Helper()
	forms := []string{value, hex.EncodeToString([]byte(value)), base64.StdEncoding.EncodeToString([]byte(value)),
		base64.RawURLEncoding.EncodeToString([]byte(value))}
	look := func(where, text string) {
		t.Helper()
		for _, f := range forms {
			if strings.Contains(text, f) {
				t.Fatalf("the value is in %s", where)
			}
		}
	}
	w.mu.Lock()
	bodies := append([]string(nil), w.bodies...)
	w.mu.Unlock()
	if len(bodies) < 40 {
		t.Fatalf("only %d responses kept", len(bodies))
	}
	for i, b := range bodies {
		look(fmt.Sprintf("response %d", i), b)
	}
	tables := map[string]string{
		"es.events":                `SELECT event_type || ' ' || payload::text || ' ' || metadata::text FROM es.events`,
		"es.subject_keys":          `SELECT key_id || owner || encode(wrapped, 'escape') FROM es.subject_keys`,
		"platform.builder_secrets": `SELECT company_id || name || version::text || key_id || sealed FROM platform.builder_secrets`,
	}
	types := map[string]bool{}
	for table, q := range tables {
		rows, err := w.api.DB.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			n++
			look(table, s)
			if table == "es.events" {
				types[strings.Fields(s)[0]] = true
			}
		}
		rows.Close()
		if n == 0 {
			t.Fatalf("%s: no rows", table)
		}
	}
	if !types["builder.secret_set"] || !types["builder.secret_deleted"] || !types["builder.generation_completed"] {
		t.Fatalf("the scan missed events: %v", types)
	}
	logs := w.logs.String()
	if !strings.Contains(logs, "/api/build/secrets") {
		t.Fatal("the log holds no request to the secrets routes")
	}
	look("the log", logs)
}

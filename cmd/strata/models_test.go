package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// catalogFile writes the built-in catalog changed by fn to a file.
func catalogFile(t *testing.T, name string, fn func(doc map[string]any)) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(catalog.BuiltinJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if fn != nil {
		fn(doc)
	}
	raw, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func addModel(id string) func(doc map[string]any) {
	return func(doc map[string]any) {
		doc["models"] = append(doc["models"].([]any), map[string]any{"id": id, "provider": "acme", "label": "Acme 70B",
			"tier": "basic", "context_window": 65536, "max_tokens": 8192, "supports_tools": true, "tags": []string{"text"},
			"pricing": map[string]any{"input": 0.5, "output": 1.5, "cache_read": 0}, "upstream": map[string]any{"id": "acme"}})
	}
}

// `strata models import` validates the file (naming the entry and the
// field), imports it, and records nothing for the same file again; `models
// list --json` prints a file that imports back to the same catalog.
func TestModelsImportAndList(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error"}}
	events := func() int {
		var n int
		if err := db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE stream_id = $1`, catalog.StreamID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if out, _, code := c.runWith(productionWiring, "models", "list"); code != 0 || !strings.Contains(out, "no catalog yet") {
		t.Fatalf("list before any import: %d %q", code, out)
	}

	bad := catalogFile(t, "bad.json", func(doc map[string]any) {
		doc["models"].([]any)[1].(map[string]any)["max_tokens"] = 500000
	})
	_, errOut, code := c.runWith(productionWiring, "models", "import", bad)
	if code != 1 || !strings.Contains(errOut, "models[1].max_tokens") || !strings.Contains(errOut, `"strata-dev-32b-code"`) ||
		!strings.Contains(errOut, "max:131072") {
		t.Fatalf("an invalid file: exit %d, %q", code, errOut)
	}
	unknown := catalogFile(t, "unknown.json", func(doc map[string]any) { doc["models"].([]any)[4].(map[string]any)["vendor"] = "x" })
	if _, errOut, code := c.runWith(productionWiring, "models", "import", unknown); code != 1 || !strings.Contains(errOut, "models[4].vendor") {
		t.Fatalf("an unknown field: exit %d, %q", code, errOut)
	}
	if n := events(); n != 0 {
		t.Fatalf("refused imports recorded %d events", n)
	}

	good := catalogFile(t, "catalog.json", addModel("acme-70b-chat"))
	out, errOut, code := c.runWith(productionWiring, "models", "import", good)
	if code != 0 || !strings.Contains(out, "imported "+good+": catalog version 8") || !strings.Contains(out, "added: ") {
		t.Fatalf("import: exit %d, %q %q", code, out, errOut)
	}
	first := events()
	out, _, code = c.runWith(productionWiring, "models", "import", good)
	if code != 0 || !strings.Contains(out, "is the catalog already: nothing recorded (catalog version 8") || events() != first {
		t.Fatalf("the same file again: exit %d, %q, %d events (was %d)", code, out, events(), first)
	}

	out, _, code = c.runWith(productionWiring, "models", "list")
	if code != 0 || !strings.Contains(out, "acme-70b-chat") || !strings.Contains(out, "router software-engineering (professional+)") ||
		!strings.Contains(out, "defaults: free=strata-dev-7b-text") {
		t.Fatalf("list: %d %q", code, out)
	}
	exported, _, code := c.runWith(productionWiring, "models", "list", "--json")
	back, err := catalog.Parse([]byte(exported))
	if code != 0 || err != nil || !slices.ContainsFunc(back.Models, func(m catalog.Model) bool { return m.ID == "acme-70b-chat" }) {
		t.Fatalf("list --json: %d %v", code, err)
	}
	path := filepath.Join(t.TempDir(), "exported.json")
	if err := os.WriteFile(path, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, code := c.runWith(productionWiring, "models", "import", path); code != 0 || !strings.Contains(out, "nothing recorded") {
		t.Fatalf("the exported catalog imported back: %d %q", code, out)
	}

	dropped := catalogFile(t, "dropped.json", nil) // without acme-70b-chat
	if _, errOut, code := c.runWith(productionWiring, "models", "import", dropped); code != 1 ||
		!strings.Contains(errOut, `drops "acme-70b-chat"`) || events() != first {
		t.Fatalf("a file that drops a model: exit %d, %q", code, errOut)
	}
	out, errOut, code = c.runWith(productionWiring, "models", "retire", "acme-70b-chat", "--replaced-by", "strata-dev-frontier")
	if code != 0 || !strings.Contains(out, "retired acme-70b-chat in favour of strata-dev-frontier: catalog version 9") {
		t.Fatalf("retire: %d %q %q", code, out, errOut)
	}
	if _, errOut, code := c.runWith(productionWiring, "models", "retire", "nope", "--replaced-by", "strata-dev-frontier"); code != 1 ||
		!strings.Contains(errOut, `"nope" is not in the catalog`) {
		t.Fatalf("retire an unknown model: %d %q", code, errOut)
	}
	if _, _, code := c.runWith(productionWiring, "models", "import"); code != 2 {
		t.Fatalf("import without a file: exit %d, want 2", code)
	}
}

// `strata serve` has the built-in catalog; the catalog routes answer API
// keys by the account's plans, which `strata users set-plan` changes, and
// a catalog imported with the CLI while serving is listed at once.
func TestServeServesTheModelCatalog(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error"}
	api, _ := serveInProcess(t, env)
	email := fmt.Sprintf("models-%d@models.test", time.Now().UnixNano())
	token := register(api, email)
	if token == "" {
		t.Fatal("register failed")
	}
	status, k := call(t, "POST", api+"/api/v1/api-keys", token, map[string]any{"name": "models"})
	if status != http.StatusCreated {
		t.Fatalf("key: %d %v", status, k)
	}
	key := k["api_key"].(string)
	available := func() map[string]any {
		_, body := call(t, "GET", api+"/v1/public/models/available", "", nil, "X-API-Key", key)
		return body
	}
	if b := available(); b["tier"] != "free" || b["default_model"] != "strata-dev-7b-text" {
		t.Fatalf("a new account: %v", b)
	}
	c := cli{t: t, env: env}
	if out, errOut, code := c.runWith(productionWiring, "users", "set-plan", email, "professional"); code != 0 {
		t.Fatalf("set-plan: %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool {
		b := available()
		return b["tier"] == "professional" && b["default_model"] == "strata-dev-32b-code"
	})

	if out, errOut, code := c.runWith(productionWiring, "models", "import", catalogFile(t, "acme.json", addModel("acme-70b-chat"))); code != 0 {
		t.Fatalf("import while serving: %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool {
		_, body := call(t, "GET", api+"/v1/public/models", "", nil, "X-API-Key", key)
		list, _ := body["models"].([]any)
		return slices.ContainsFunc(list, func(m any) bool { return m.(map[string]any)["id"] == "acme-70b-chat" })
	})
	if status, body := call(t, "POST", api+"/v1/public/models/resolve", "", map[string]any{"model": "strata-dev-text-legacy"},
		"X-API-Key", key); status != 400 || body["rule"] != "model_deprecated" || body["replaced_by"] != "strata-dev-7b-text" {
		t.Fatalf("a retired alias: %d %v", status, body)
	}
	if status, body := call(t, "GET", api+"/v1/public/models", "", nil, "X-API-Key", "sk-ant-api03-xyz"); status != 401 || body["rule"] != "sk_key" {
		t.Fatalf("a vendor key: %d %v", status, body)
	}
}

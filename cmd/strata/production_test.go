package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// STRATA_ENV is development (the default) or production; production
// refuses the test-auth routes and `strata dev-upstream`.
func TestStrataEnv(t *testing.T) {
	t.Parallel()
	if cfg, err := loadConfig(map[string]string{}); err != nil || cfg.Production {
		t.Fatalf("%v %v", cfg.Production, err)
	}
	if cfg, err := loadConfig(map[string]string{"STRATA_ENV": "production"}); err != nil || !cfg.Production {
		t.Fatalf("%v %v", cfg.Production, err)
	}
	for env, want := range map[string]string{
		"STRATA_ENV=prod": "STRATA_ENV: want development or production",
		"STRATA_ENV=production STRATA_ENABLE_TEST_AUTH=true": "STRATA_ENABLE_TEST_AUTH",
	} {
		m := map[string]string{}
		for _, kv := range strings.Fields(env) {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		_, errOut, code := (cli{t: t, env: m}).run("version")
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d: %s", env, code, errOut)
		}
	}
	_, errOut, code := (cli{t: t, env: map[string]string{"STRATA_ENV": "production"}}).run("dev-upstream", "--addr", freeAddr(t))
	if code != 1 || !strings.Contains(errOut, "STRATA_ENV=production") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// `strata serve` with STRATA_ENV=production applies no built-in
// development catalog (the listing is empty until an operator imports
// one) and never serves a development upstream's answers.
func TestServeInProductionServesNothingOfDevelopment(t *testing.T) {
	t.Parallel()
	_, base := devupstream.Start(t)
	file := filepath.Join(t.TempDir(), "upstreams.json")
	if err := os.WriteFile(file, []byte(`{"upstreams":[{"id":"dev","format":"openai","base_url":"`+base+`/v1","retries":0}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	api, _ := serveInProcess(t, map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_ENV": "production", "STRATA_GATEWAY_UPSTREAMS": file})
	token := register(api, fmt.Sprintf("prod-%d@gateway.test", time.Now().UnixNano()))
	status, k := call(t, "POST", api+"/api/v1/api-keys", token, map[string]any{"name": "prod"})
	if status != http.StatusCreated {
		t.Fatalf("key: %d %v", status, k)
	}
	key := k["api_key"].(string)
	status, body := call(t, "GET", api+"/v1/public/models", "", nil, "X-API-Key", key)
	if models, _ := body["models"].([]any); status != 200 || len(models) != 0 {
		t.Fatalf("%d %v", status, body)
	}
	status, body = call(t, "POST", api+"/v1/chat/completions", "", map[string]any{"model": "strata-dev-7b-text",
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}}, "X-API-Key", key)
	if e, _ := body["error"].(map[string]any); status != 404 || e["code"] != "model_not_found" {
		t.Fatalf("%d %v", status, body)
	}
	// An operator's catalog whose model the (mis)configured development
	// upstream serves: 502 naming it, never its invented text.
	catalogFile := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(catalogFile, []byte(`{"models":[{"id":"m1","provider":"p","label":"M1","upstream":{"id":"dev","model":"m1"},
		"context_window":8192,"tier":"free","free":true}],"defaults":{"free":"m1","basic":"m1","professional":"m1","enterprise":"m1"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := (cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_ENV": "production"}}).runWith(productionWiring, "models", "import", catalogFile); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) { // the serving process follows the import
		status, body = call(t, "POST", api+"/v1/chat/completions", "", map[string]any{"model": "m1",
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}}, "X-API-Key", key)
		if status != 404 || time.Now().After(deadline) {
			break
		}
	}
	if e, _ := body["error"].(map[string]any); status != 502 || e["code"] != "development_upstream" {
		t.Fatalf("%d %v", status, body)
	}
}

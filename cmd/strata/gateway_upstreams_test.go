package main

import (
	"context"
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

// STRATA_GATEWAY_UPSTREAMS is read at start: a valid file gives the
// upstreams (keys from the environment), an invalid one stops the command
// naming the variable and the field.
func TestGatewayUpstreamsConfiguration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "upstreams.yaml")
	if err := os.WriteFile(good, []byte("upstreams:\n  - id: dev\n    format: openai\n    base_url: http://127.0.0.1:8099/v1\n    api_key_env: DEV_KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(map[string]string{"STRATA_GATEWAY_UPSTREAMS": good, "DEV_KEY": "k"})
	if err != nil || len(cfg.GatewayUpstreams) != 1 || cfg.GatewayUpstreams[0].APIKey != "k" {
		t.Fatalf("%v %+v", err, cfg.GatewayUpstreams)
	}
	if cfg, err := loadConfig(map[string]string{}); err != nil || len(cfg.GatewayUpstreams) != 0 {
		t.Fatalf("%v %+v", err, cfg.GatewayUpstreams)
	}
	_, errOut, code := (cli{t: t, env: map[string]string{"STRATA_GATEWAY_UPSTREAMS": good}}).run("version")
	if code != 2 || !strings.Contains(errOut, "STRATA_GATEWAY_UPSTREAMS") || !strings.Contains(errOut, "DEV_KEY is not set") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// `strata serve` answers chat through the upstreams of
// STRATA_GATEWAY_UPSTREAMS (a development upstream here, in the OpenAI
// format, behind a messages-format client), and without the variable
// answers 503 naming it.
func TestServeAnswersChatThroughTheConfiguredUpstreams(t *testing.T) {
	t.Parallel()
	_, base := devupstream.Start(t)
	file := filepath.Join(t.TempDir(), "upstreams.json")
	if err := os.WriteFile(file, []byte(`{"upstreams":[{"id":"dev","format":"openai","base_url":"`+base+`/v1","retries":0}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, configured := range []bool{true, false} {
		db := pgtest.DB(t)
		env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error"}
		if configured {
			env["STRATA_GATEWAY_UPSTREAMS"] = file
		}
		api, _ := serveInProcess(t, env)
		token := register(api, fmt.Sprintf("chat-%d@gateway.test", time.Now().UnixNano()))
		if token == "" {
			t.Fatal("register failed")
		}
		status, k := call(t, "POST", api+"/api/v1/api-keys", token, map[string]any{"name": "chat"})
		if status != http.StatusCreated {
			t.Fatalf("key: %d %v", status, k)
		}
		status, body := call(t, "POST", api+"/v1/messages", "", map[string]any{"model": "strata-dev-7b-text", "max_tokens": 50,
			"messages": []any{map[string]any{"role": "user", "content": "Hello, world!"}}},
			"X-API-Key", k["api_key"].(string), "anthropic-version", "2023-06-01")
		if configured {
			streamsUnbuffered(t, api, k["api_key"].(string))
			content, _ := body["content"].([]any)
			if status != 200 || len(content) != 1 || content[0].(map[string]any)["text"] != "You said: Hello, world!" ||
				body["model"] != "strata-dev-7b-text" {
				t.Fatalf("%d %v", status, body)
			}
		} else {
			e, _ := body["error"].(map[string]any)
			if status != 503 || body["type"] != "error" || !strings.Contains(fmt.Sprint(e["message"]), "STRATA_GATEWAY_UPSTREAMS") {
				t.Fatalf("%d %v", status, body)
			}
		}
	}
}

// streamsUnbuffered checks that serve's middleware lets a stream through
// event by event: the first events of a 20-second stream come at once.
func streamsUnbuffered(t *testing.T, api, key string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := `{"model":"strata-dev-7b-text","stream":true,"messages":[{"role":"user","content":"[[tokens:100]] [[slow:200ms]]"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("X-API-Key", key)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	n, err := resp.Body.Read(buf)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" ||
		!strings.Contains(string(buf[:n]), "chat.completion.chunk") {
		t.Fatalf("%d %q %v", resp.StatusCode, buf[:n], err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the first event of a 20 s stream took %v: buffered", d)
	}
}

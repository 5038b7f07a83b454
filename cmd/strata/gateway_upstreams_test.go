package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// TestIdentityOperatorCommandsReachARunningServer registers over HTTP, then
// changes the plan and role with the CLI in another "process" (run call) and
// sees the serving process apply it; keys rotate adds a JWKS key.
func TestIdentityOperatorCommandsReachARunningServer(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error", "STRATA_DATA_DIR": t.TempDir(),
		"STRATA_MASTER_KEY": base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{3}, 32)),
		"STRATA_API_ADDR":   freeAddr(t), "STRATA_ADMIN_ADDR": freeAddr(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--surfaces", "api"}, env, &bytes.Buffer{}, &bytes.Buffer{}, productionWiring)
	}()
	defer func() { cancel(); <-done }()
	api := "http://" + env["STRATA_API_ADDR"]
	waitFor(t, func() bool {
		resp, err := http.Get(api + "/health")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	resp, err := http.Post(api+"/api/v1/auth/register", "application/json",
		strings.NewReader(`{"email":"ops@example.com","password":"Op3rator-pass","full_name":"Op"}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %v %v", resp, err)
	}
	var reg struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()

	c := cli{t: t, env: env}
	if out, errOut, code := c.runWith(productionWiring, "users", "set-plan", "ops@example.com", "professional", "--credits", "250"); code != 0 || !strings.Contains(out, "plan professional, 250 credits") {
		t.Fatalf("set-plan: %d %q %q", code, out, errOut)
	}
	if out, _, code := c.runWith(productionWiring, "users", "promote", "ops@example.com", "--role", "ADMIN"); code != 0 || !strings.Contains(out, "role ADMIN") {
		t.Fatalf("promote: %d %q", code, out)
	}
	if _, errOut, code := c.runWith(productionWiring, "users", "set-plan", "ops@example.com", "gold"); code != 1 || !strings.Contains(errOut, "plan") {
		t.Errorf("bad plan: %d %q", code, errOut)
	}
	waitFor(t, func() bool {
		req, _ := http.NewRequest("GET", api+"/api/v1/auth/me", nil)
		req.Header.Set("Authorization", "Bearer "+reg.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var me struct {
			Plan, Role string
			Credits    int64
		}
		_ = json.NewDecoder(resp.Body).Decode(&me)
		return me.Plan == "professional" && me.Credits == 250 && me.Role == "ADMIN"
	})
	jwksKeys := func() int {
		resp, err := http.Get(api + "/.well-known/jwks.json")
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		var set struct{ Keys []map[string]any }
		_ = json.NewDecoder(resp.Body).Decode(&set)
		return len(set.Keys)
	}
	if n := jwksKeys(); n != 1 {
		t.Fatalf("JWKS before rotation: %d keys", n)
	}
	if out, _, code := c.runWith(productionWiring, "keys", "rotate"); code != 0 || !strings.Contains(out, "new signing key") {
		t.Fatalf("rotate: %d %q", code, out)
	}
	waitFor(t, func() bool { return jwksKeys() == 2 })
}

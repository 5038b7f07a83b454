package identity_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestVerifyReachesEveryStatusThroughRealState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, freeTok := e.register("free@example.com")
	freeKey, _ := e.newKey(freeTok, map[string]any{"name": "free"})
	_, paidTok := e.register("paid@example.com")
	paidKey, _ := e.newKey(paidTok, map[string]any{"name": "paid"})
	_, brokeTok := e.register("broke@example.com")
	brokeKey, _ := e.newKey(brokeTok, map[string]any{"name": "broke"})
	credits, none := int64(500), int64(0)
	if _, err := e.svc.SetPlan(ctx, "paid@example.com", "professional", &credits); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.SetPlan(ctx, "broke@example.com", "basic", &none); err != nil {
		t.Fatal(err)
	}
	st, tmp, _ := e.call("POST", "/api/v1/public/api-keys/temporary", nil)
	if st != http.StatusCreated || !strings.HasPrefix(tmp["api_key"].(string), "tmp_") {
		t.Fatalf("temporary key: %d %v", st, tmp)
	}
	tmpKey := tmp["api_key"].(string)
	if exp, _ := time.Parse(time.RFC3339, tmp["expires_at"].(string)); exp.Sub(e.clock.Now()) != 72*time.Hour {
		t.Errorf("tmp key expires at %v, want 72 hours after %v", exp, e.clock.Now())
	}

	cases := []struct {
		name, key, header, status, tier string
		chat, db                        bool
		credits                         float64
	}{
		{"paid with credits", paidKey, "X-API-Key", "READY", "professional", true, true, 500},
		{"paid without credits", brokeKey, "Authorization", "insufficient_credits", "basic", false, true, 0},
		{"free plan", freeKey, "X-API-Key", "upgrade_required", "free", false, true, 0},
		{"fresh tmp key", tmpKey, "Authorization", "trial_active", "trial", false, true, 0},
	}
	for _, c := range cases {
		h := []string{c.header, c.key}
		if c.header == "Authorization" {
			h = bearerH(c.key)
		}
		st, v, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, h...)
		caps, _ := v["capabilities"].(map[string]any)
		sub, _ := v["subscription"].(map[string]any)
		if st != http.StatusOK || v["status"] != c.status || v["tier"] != c.tier || caps["chat_completions"] != c.chat ||
			caps["database"] != c.db || sub["credits_remaining"] != c.credits {
			t.Errorf("%s: %d %v", c.name, st, v)
		}
		for _, f := range []string{"email", "user_id", "organization_id", "organization_name", "user_plan"} {
			if _, ok := v[f]; !ok {
				t.Errorf("%s: verification lacks %s: %v", c.name, f, v)
			}
		}
	}
	e.clock.Advance(72*time.Hour + time.Second)
	st, v, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", tmpKey)
	if st != http.StatusOK || v["status"] != "trial_expired" {
		t.Errorf("expired tmp key: %d %v", st, v)
	}
	if st := e.whoami("X-API-Key", tmpKey); st != http.StatusUnauthorized {
		t.Errorf("expired tmp key on another endpoint: %d", st)
	}
}

func TestRevokedUnknownAndExpiredKeysGet401BeforeVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("keys@example.com")
	key, id := e.newKey(tok, map[string]any{"name": "ci", "expires_in_days": 1})
	if st := e.whoami("X-API-Key", key); st != http.StatusOK {
		t.Fatalf("fresh key: %d", st)
	}
	last := "A"
	if strings.HasSuffix(key, "A") {
		last = "B"
	}
	forged := key[:len(key)-1] + last // same lookup id, wrong secret
	for name, k := range map[string]string{"wrong secret": forged, "unknown": "sk_live_" + strings.Repeat("a", 48), "garbage": "sk_live_nope"} {
		if st, _, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", k); st != http.StatusUnauthorized {
			t.Errorf("%s key: %d", name, st)
		}
	}
	if st, _, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil); st != http.StatusUnauthorized {
		t.Errorf("no key: %d", st)
	}
	if st, body, _ := e.call("DELETE", "/api/v1/api-keys/"+id, nil, bearerH(tok)...); st != http.StatusOK || body["message"] == nil {
		t.Fatalf("revoke: %d %v", st, body)
	}
	if st, _, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", key); st != http.StatusUnauthorized {
		t.Errorf("verify after revoke: %d", st)
	}
	if st := e.whoami(bearerH(key)...); st != http.StatusUnauthorized {
		t.Errorf("use after revoke: %d", st)
	}
	key2, _ := e.newKey(tok, map[string]any{"name": "short", "expires_in_days": 1})
	e.clock.Advance(24*time.Hour + time.Second)
	if st, _, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", key2); st != http.StatusUnauthorized {
		t.Errorf("expired key: %d", st)
	}
}

func TestKeyRecordsOwnershipAndUsage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("owner@example.com")
	_, other := e.register("intruder@example.com")
	st, created, _ := e.call("POST", "/api/v1/api-keys", map[string]any{"name": "sandbox", "environment": "test"}, bearerH(tok)...)
	if st != http.StatusCreated || !strings.HasPrefix(created["api_key"].(string), "sk_test_") || created["prefix"] != "sk_test" ||
		!strings.HasPrefix(created["id"].(string), "key_") {
		t.Fatalf("create: %d %v", st, created)
	}
	exp, _ := time.Parse(time.RFC3339, created["expires_at"].(string))
	if d := exp.Sub(e.clock.Now()); d != 90*24*time.Hour {
		t.Errorf("default lifetime %v, want 90 days", d)
	}
	key, id := created["api_key"].(string), created["id"].(string)
	for range 3 {
		if st := e.whoami("X-API-Key", key); st != http.StatusOK {
			t.Fatalf("use: %d", st)
		}
	}
	if err := e.svc.FlushUsage(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, list, _ := e.call("GET", "/api/v1/api-keys", nil, bearerH(tok)...)
	items, _ := list["list"].([]any)
	if st != http.StatusOK || len(items) != 1 {
		t.Fatalf("list: %d %v", st, list)
	}
	rec := items[0].(map[string]any)
	if _, leaked := rec["api_key"]; leaked || rec["usage_count"] != float64(3) || rec["last_used_at"] == nil || rec["is_active"] != true {
		t.Errorf("record: %v", rec)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/api-keys/"+id, nil, bearerH(other)...); st != http.StatusNotFound {
		t.Errorf("another user's revoke: %d", st)
	}
	if st, list, _ := e.call("GET", "/api/v1/api-keys", nil, bearerH(other)...); st != http.StatusOK || len(list["list"].([]any)) != 0 {
		t.Errorf("another user's list: %d %v", st, list)
	}
	// A key cannot mint keys; bad input is named.
	if st, _, _ := e.call("POST", "/api/v1/api-keys", map[string]any{"name": "x"}, "X-API-Key", key); st != http.StatusForbidden {
		t.Errorf("key creating a key: %d", st)
	}
	for _, c := range []struct {
		body        map[string]any
		field, rule string
	}{
		{map[string]any{}, "name", "required"},
		{map[string]any{"name": "x", "expires_in_days": 0}, "expires_in_days", "range:1..3650"},
		{map[string]any{"name": "x", "environment": "prod"}, "environment", "enum:live,test"},
	} {
		st, body, _ := e.call("POST", "/api/v1/api-keys", c.body, bearerH(tok)...)
		if st != http.StatusBadRequest || body["field"] != c.field || body["rule"] != c.rule {
			t.Errorf("%v: %d %v", c.body, st, body)
		}
	}
}

func TestTemporaryKeysAreRateLimitedPerClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 10 {
		if st, _, _ := e.call("POST", "/api/v1/public/api-keys/temporary", nil); st != http.StatusCreated {
			t.Fatalf("tmp key %d: %d", i+1, st)
		}
	}
	st, _, h := e.call("POST", "/api/v1/public/api-keys/temporary", nil)
	if st != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("11th tmp key: %d %q", st, h.Get("Retry-After"))
	}
}

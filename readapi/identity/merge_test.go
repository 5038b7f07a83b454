package identity_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestMergeMovesProjectsAndKeysAndRetiresTheTemporaryIdentity(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	st, tmp, _ := e.call("POST", "/api/v1/public/api-keys/temporary", nil)
	if st != http.StatusCreated {
		t.Fatal(st, tmp)
	}
	tmpKey, tmpKeyID, tmpProject := tmp["api_key"].(string), tmp["id"].(string), tmp["project_id"].(string)
	_, st2, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", tmpKey)
	tempUser := st2["user_id"].(string)
	_, tok := e.register("claimer@example.com")
	_, me, _ := e.call("GET", "/api/v1/auth/me", nil, bearerH(tok)...)
	workspace := me["organization"].(map[string]any)["name"].(string)

	// Bad input first: nothing moves.
	for _, body := range []map[string]any{{}, {"temp_api_key": "sk_live_" + strings.Repeat("a", 48)}} {
		if st, b, _ := e.call("POST", "/api/v1/auth/merge-identity", body, bearerH(tok)...); st != http.StatusBadRequest || b["field"] != "temp_api_key" {
			t.Errorf("merge %v: %d %v", body, st, b)
		}
	}
	e.clock.Advance(73 * time.Hour) // an expired trial can still be claimed
	_, login, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "claimer@example.com", "password": goodPassword})
	tok = login["access_token"].(string)
	st, merged, _ := e.call("POST", "/api/v1/auth/merge-identity", map[string]any{"temp_api_key": tmpKey}, bearerH(tok)...)
	if st != http.StatusOK {
		t.Fatalf("merge: %d %v", st, merged)
	}
	claimed := merged["api_key"].(map[string]any)
	claimedKey := claimed["api_key"].(string)
	if !strings.HasPrefix(claimedKey, "sdb_live_") || claimed["project_id"] != tmpProject {
		t.Fatalf("claimed key: %v", claimed)
	}
	if moved := merged["projects_moved"].([]any); len(moved) != 1 || moved[0] != tmpProject {
		t.Errorf("projects moved: %v", merged["projects_moved"])
	}
	if moved := merged["keys_moved"].([]any); len(moved) != 1 || moved[0] != tmpKeyID {
		t.Errorf("keys moved: %v", merged["keys_moved"])
	}

	// The claimed key acts in the caller's workspace on the moved project.
	st, v, _ := e.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", claimedKey)
	if st != http.StatusOK || v["email"] != "claimer@example.com" || v["organization_name"] != workspace {
		t.Errorf("claimed key verification: %d %v", st, v)
	}
	// The old tmp_ key: 403 with workspace_name and suggested_api_key (no secret).
	for _, path := range []string{"/api/v1/public/api-keys/verify", "/test/whoami"} {
		method := "POST"
		if path == "/test/whoami" {
			method = "GET"
		}
		st, body, _ := e.call(method, path, nil, "X-API-Key", tmpKey)
		sugg, _ := body["suggested_api_key"].(map[string]any)
		if st != http.StatusForbidden || body["workspace_name"] != workspace || sugg["id"] != claimed["id"] || sugg["prefix"] != "sdb_live" {
			t.Errorf("%s with the old tmp key: %d %v", path, st, body)
		}
		if strings.Contains(strings.Join([]string{sugg["id"].(string), sugg["prefix"].(string)}, ""), claimedKey[9:]) {
			t.Error("suggested_api_key leaks the secret")
		}
	}
	// The caller's key list holds the moved (inactive) tmp key and the claimed key.
	_, list, _ := e.call("GET", "/api/v1/api-keys", nil, bearerH(tok)...)
	active := map[string]bool{}
	for _, it := range list["list"].([]any) {
		rec := it.(map[string]any)
		active[rec["id"].(string)] = rec["is_active"].(bool)
	}
	if len(active) != 2 || active[tmpKeyID] || !active[claimed["id"].(string)] {
		t.Errorf("caller's keys after merge: %v", active)
	}
	// The temporary user is deactivated, its data kept; a second merge is a conflict.
	if u, ok := e.svc.Directory().User(tempUser); !ok || u.Active || u.MergedInto == "" {
		t.Errorf("temp user after merge: %+v", u)
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/merge-identity", map[string]any{"temp_api_key": tmpKey}, bearerH(tok)...); st != http.StatusConflict {
		t.Errorf("second merge: %d", st)
	}
}

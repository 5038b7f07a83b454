package captable_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// TestPlatformLogin signs a platform user in to the cap table with a
// platform access token, verified against the platform's JWKS over HTTP.
func TestPlatformLogin(t *testing.T) {
	w := start(t)
	res, err := http.Post(w.platform.URL+"/api/v1/auth/register", "application/json",
		bytes.NewBufferString(`{"email":"grace@platform.test","password":"Correct-Horse-9!","full_name":"Grace Hopper"}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string]any
	_ = json.NewDecoder(res.Body).Decode(&reg)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("platform register: %d %v", res.StatusCode, reg)
	}
	anon := &client{w: w}
	first := anon.must(http.StatusCreated, "POST", "/auth/platform-login", map[string]any{"accessToken": reg["access_token"], "companyName": "Hopper Labs"}).body
	again := anon.must(http.StatusOK, "POST", "/auth/platform-login", map[string]any{"accessToken": reg["access_token"]}).body
	u1, u2 := first["user"].(map[string]any), again["user"].(map[string]any)
	if u1["id"] != u2["id"] || u1["email"] != "grace@platform.test" {
		t.Fatalf("platform login: %v then %v", u1, u2)
	}
	c := &client{w: w, token: str(again["accessToken"])}
	me := c.must(http.StatusOK, "GET", "/auth/me", nil).body
	if me["companies"].([]any)[0].(map[string]any)["name"] != "Hopper Labs" {
		t.Fatalf("me %v", me)
	}
	// A tampered platform token, and a cap-table token, are refused.
	tok := str(reg["access_token"])
	field(t, anon.do("POST", "/auth/platform-login", map[string]any{"accessToken": tok[:len(tok)-4] + "AAAA"}), 401, "UNAUTHORIZED", "")
	field(t, anon.do("POST", "/auth/platform-login", map[string]any{"accessToken": again["accessToken"]}), 401, "UNAUTHORIZED", "")
	// The platform's session token does not say the email is verified, so
	// an existing cap-table account with that email is never linked.
	anon.must(http.StatusCreated, "POST", "/auth/register", map[string]any{"name": "Al", "email": "al@platform.test",
		"password": "correct-horse-9", "companyName": "Al Co"})
	res, _ = http.Post(w.platform.URL+"/api/v1/auth/register", "application/json",
		bytes.NewBufferString(`{"email":"al@platform.test","password":"Correct-Horse-9!","full_name":"Al"}`))
	reg = map[string]any{}
	_ = json.NewDecoder(res.Body).Decode(&reg)
	res.Body.Close()
	field(t, anon.do("POST", "/auth/platform-login", map[string]any{"accessToken": reg["access_token"]}), 409, "CONFLICT", "email")
}

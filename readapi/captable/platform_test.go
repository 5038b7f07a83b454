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

// platformRegister registers a platform user and returns its access token.
func platformRegister(t *testing.T, w *world, email string) string {
	t.Helper()
	res, err := http.Post(w.platform.URL+"/api/v1/auth/register", "application/json",
		bytes.NewBufferString(`{"email":"`+email+`","password":"Correct-Horse-9!","full_name":"Ada"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reg map[string]any
	_ = json.NewDecoder(res.Body).Decode(&reg)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("platform register: %d %v", res.StatusCode, reg)
	}
	return str(reg["access_token"])
}

// platformCall calls the platform API with a bearer token.
func platformCall(t *testing.T, w *world, path, token, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.platform.URL+path, bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestPlatformLoginRevoked: a platform token that logout or a password
// change revoked is refused by platform-login as the platform refuses it;
// a live token still signs in.
func TestPlatformLoginRevoked(t *testing.T) {
	w := start(t)
	anon := &client{w: w}

	out := platformRegister(t, w, "out@platform.test")
	anon.must(http.StatusCreated, "POST", "/auth/platform-login", map[string]any{"accessToken": out})
	if st := platformCall(t, w, "/api/v1/auth/logout", out, ""); st != http.StatusOK {
		t.Fatalf("platform logout: %d", st)
	}
	field(t, anon.do("POST", "/auth/platform-login", map[string]any{"accessToken": out}), 401, "UNAUTHORIZED", "")

	old := platformRegister(t, w, "pw@platform.test")
	if st := platformCall(t, w, "/api/v1/auth/change-password", old,
		`{"current_password":"Correct-Horse-9!","new_password":"Other-Horse-10!"}`); st != http.StatusOK {
		t.Fatalf("change password: %d", st)
	}
	field(t, anon.do("POST", "/auth/platform-login", map[string]any{"accessToken": old}), 401, "UNAUTHORIZED", "")

	live := platformRegister(t, w, "live@platform.test")
	anon.must(http.StatusCreated, "POST", "/auth/platform-login", map[string]any{"accessToken": live})
}

package identity_test

import (
	"net/http"
	"testing"
)

// TestKeyAndBearerMustNameOneIdentity: a request with both X-API-Key and
// Authorization: Bearer naming different accounts is refused with 400
// naming the header conflict; the same account twice passes; a bearer that
// does not verify is not ignored because a key came along.
func TestKeyAndBearerMustNameOneIdentity(t *testing.T) {
	e := newEnv(t)
	aliceID, alice := e.register("alice@creds.example")
	_, bob := e.register("bob@creds.example")
	aliceKey, _ := e.newKey(alice, map[string]any{"name": "ci"})
	bobKey, _ := e.newKey(bob, map[string]any{"name": "ci"})

	st, body, _ := e.call("GET", "/test/whoami", nil, "X-API-Key", aliceKey, "Authorization", "Bearer "+alice)
	if st != http.StatusOK || body["user_id"] != aliceID {
		t.Fatalf("same account twice: %d %v", st, body)
	}
	if st := e.whoami("X-API-Key", aliceKey, "Authorization", "Bearer "+aliceKey); st != http.StatusOK {
		t.Fatalf("the same key twice: %d", st)
	}
	for name, h := range map[string][]string{
		"key and another account's token": {"X-API-Key", aliceKey, "Authorization", "Bearer " + bob},
		"key and another account's key":   {"X-API-Key", aliceKey, "Authorization", "Bearer " + bobKey},
	} {
		st, body, _ := e.call("GET", "/test/whoami", nil, h...)
		if st != http.StatusBadRequest || body["field"] != "X-API-Key" || body["rule"] != "one_identity" {
			t.Fatalf("%s: %d %v", name, st, body)
		}
		// The same refusal on a route that reads a body.
		st, body, _ = e.call("POST", "/api/v1/organizations", map[string]any{"name": "x"}, h...)
		if st != http.StatusBadRequest || body["rule"] != "one_identity" {
			t.Fatalf("%s on a write: %d %v", name, st, body)
		}
	}
	if st := e.whoami("X-API-Key", aliceKey, "Authorization", "Bearer "+alice[:len(alice)-4]+"AAAA"); st != http.StatusUnauthorized {
		t.Fatalf("key with a forged token: %d", st)
	}
}

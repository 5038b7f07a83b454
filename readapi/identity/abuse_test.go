package identity_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/signin"
	ident "github.com/strata-platform/strata/domain/identity"
)

func TestParallelWrongPasswordsCannotOutrunTheLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("victim@example.com")
	var wg sync.WaitGroup
	codes := make([]int, 30)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, _ = e.call("POST", "/api/v1/auth/login", map[string]any{"email": "victim@example.com", "password": "Wrong-pass-1"})
		}()
	}
	wg.Wait()
	checked := 0
	for _, c := range codes {
		switch c {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("unexpected status %d", c)
		}
	}
	if checked != signin.PairFreeFailures {
		t.Errorf("%d of 30 parallel guesses were checked, want exactly %d", checked, signin.PairFreeFailures)
	}
}

func TestAnAPIKeyCannotManageMembersOrRevokeKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, victim := e.register("victim@example.com")
	e.register("attacker@example.com")
	_, me, _ := e.call("GET", "/api/v1/auth/me", nil, bearerH(victim)...)
	orgID := me["organization_id"].(string)
	leaked, _ := e.newKey(victim, map[string]any{"name": "leaked", "environment": "test"})
	_, liveID := e.newKey(victim, map[string]any{"name": "live"})
	if st, _, _ := e.call("POST", "/api/v1/organizations/"+orgID+"/members", map[string]any{"email": "attacker@example.com", "role": "admin"}, "X-API-Key", leaked); st != http.StatusForbidden {
		t.Errorf("key adding a member: %d", st)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/api-keys/"+liveID, nil, "X-API-Key", leaked); st != http.StatusForbidden {
		t.Errorf("key revoking a key: %d", st)
	}
}

func TestKeyPrefixMustMatchItsRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("pfx@example.com")
	test, _ := e.newKey(tok, map[string]any{"name": "sandbox", "environment": "test"})
	swapped := "sk_live_" + strings.TrimPrefix(test, "sk_test_")
	if st := e.whoami("X-API-Key", swapped); st != http.StatusUnauthorized {
		t.Errorf("sk_test_ body under sk_live_: %d", st)
	}
	if st := e.whoami("X-API-Key", test); st != http.StatusOK {
		t.Errorf("the real key: %d", st)
	}
}

func TestAdminLogRedactsSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("root@example.com")
	if _, err := e.svc.SetRole(context.Background(), "root@example.com", "ADMIN"); err != nil {
		t.Fatal(err)
	}
	_, login, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "root@example.com", "password": goodPassword})
	admin := login["access_token"].(string)
	e.newKey(admin, map[string]any{"name": "k"})
	if _, err := e.svc.RegisterClient(context.Background(), ident.ClientMetadata{RedirectURIs: []string{"https://app.example/cb"}}, "test"); err != nil {
		t.Fatal(err)
	}
	st, page, _ := e.call("GET", "/api/v1/admin/events?limit=1000", nil, bearerH(admin)...)
	if st != http.StatusOK {
		t.Fatal(st, page)
	}
	seen := 0
	for _, ev := range page["events"].([]any) {
		payload := ev.(map[string]any)["payload"].(map[string]any)
		for f, v := range payload {
			if strings.HasSuffix(f, "_hash") || strings.HasPrefix(f, "sealed_") {
				seen++
				if v != "[redacted]" {
					t.Errorf("%s shown in %v", f, ev.(map[string]any)["event_type"])
				}
			}
		}
	}
	if seen < 4 { // password, API key and client secret hashes, the sealed signing key
		t.Errorf("only %d secret fields found to check", seen)
	}
	key, _ := e.newKey(admin, map[string]any{"name": "k2"})
	if st, _, _ := e.call("GET", "/api/v1/admin/events", nil, "X-API-Key", key); st != http.StatusForbidden {
		t.Errorf("admin log with an API key: %d", st)
	}
}

func TestPasswordChangeRetiresAnOutstandingResetLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("both@example.com")
	e.forgot("both@example.com")
	link := e.resetToken(1)
	st, _, _ := e.call("POST", "/api/v1/auth/change-password", map[string]any{"current_password": goodPassword, "new_password": "N3w-password!"}, bearerH(tok)...)
	if st != http.StatusOK {
		t.Fatal(st)
	}
	if st, _ := e.reset(link, "Oth3r-password!"); st != http.StatusBadRequest {
		t.Errorf("reset link after a password change: %d", st)
	}
}

func TestForgotPasswordCannotFloodAMailbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("flood@example.com")
	for range 6 {
		e.forgot("flood@example.com") // the same 202 every time
	}
	e.resetToken(3)
	time.Sleep(200 * time.Millisecond)
	if paths, _ := e.mailbox.Messages(); len(paths) != 3 {
		t.Errorf("%d mails for 6 requests, want 3", len(paths))
	}
}

package identity_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/strata-platform/strata/readapi/identity"
)

func TestAdminEventLogIsForAdminsAndPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	adminID, _ := e.register("root@example.com")
	_, user := e.register("user@example.com")
	if st, _, _ := e.call("GET", "/api/v1/admin/events", nil, bearerH(user)...); st != http.StatusForbidden {
		t.Errorf("USER reading the log: %d", st)
	}
	if _, err := e.svc.SetRole(context.Background(), "root@example.com", "ADMIN"); err != nil {
		t.Fatal(err)
	}
	_, login, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "root@example.com", "password": goodPassword})
	admin := login["access_token"].(string)

	st, page, _ := e.call("GET", "/api/v1/admin/events?type=identity.user_registered&limit=1", nil, bearerH(admin)...)
	evs := page["events"].([]any)
	if st != http.StatusOK || len(evs) != 1 || page["has_more"] != true || page["next_from_position"] == nil {
		t.Fatalf("first page: %d %v", st, page)
	}
	first := evs[0].(map[string]any)
	if first["event_type"] != "identity.user_registered" || first["stream_id"] != adminID {
		t.Errorf("first event: %v", first)
	}
	next := int(page["next_from_position"].(float64))
	st, page, _ = e.call("GET", "/api/v1/admin/events?type=identity.user_registered&limit=1&from_position="+strconv.Itoa(next), nil, bearerH(admin)...)
	if evs := page["events"].([]any); st != http.StatusOK || len(evs) != 1 || page["has_more"] != false {
		t.Errorf("second page: %d %v", st, page)
	}
	st, page, _ = e.call("GET", "/api/v1/admin/events?stream="+adminID, nil, bearerH(admin)...)
	for _, ev := range page["events"].([]any) {
		if ev.(map[string]any)["stream_id"] != adminID {
			t.Errorf("stream filter let through %v", ev)
		}
	}
	for q, field := range map[string]string{"limit=0": "limit", "from_position=x": "from_position", "until=yesterday": "until"} {
		if st, b, _ := e.call("GET", "/api/v1/admin/events?"+q, nil, bearerH(admin)...); st != http.StatusBadRequest || b["field"] != field {
			t.Errorf("%s: %d %v", q, st, b)
		}
	}
}

func TestTestAuthRoutesOnlyWhenEnabled(t *testing.T) {
	t.Parallel()
	off := newEnv(t)
	if st, _, _ := off.call("GET", "/api/v1/test-auth/auth-status", nil); st != http.StatusNotFound {
		t.Errorf("disabled auth-status: %d", st)
	}
	on := newEnvWith(t, identity.Options{TestAuth: true})
	if st, b, _ := on.call("GET", "/api/v1/test-auth/auth-status", nil); st != http.StatusOK || b["test_auth_enabled"] != true {
		t.Errorf("auth-status: %d %v", st, b)
	}
	creds := map[string]any{"email": "qa@example.com", "password": goodPassword}
	if st, b, _ := on.call("POST", "/api/v1/test-auth/create-test-user", creds); st != http.StatusCreated || b["id"] == nil {
		t.Errorf("create-test-user: %d %v", st, b)
	}
	st, b, _ := on.call("POST", "/api/v1/test-auth/test-login", creds)
	if st != http.StatusOK || on.whoami(bearerH(b["access_token"].(string))...) != http.StatusOK {
		t.Errorf("test-login: %d %v", st, b)
	}
}

package captable_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// TestSessionEndStopsAccessTokens: when a session ends (its spent refresh
// token presented again, or logout) the session's access tokens are
// refused on the next request, here and in another process, not at their
// expiry; the account's other sessions keep working.
func TestSessionEndStopsAccessTokens(t *testing.T) {
	w := start(t)
	anon := &client{w: w}
	owner := w.register("Ada", "ada@reuse.test", "Reuse Co")
	login := anon.must(http.StatusOK, "POST", "/auth/login", map[string]any{"email": "ada@reuse.test", "password": "correct-horse-9"}).body
	first := &client{w: w, token: str(login["accessToken"])}
	first.must(http.StatusOK, "GET", "/auth/me", nil)

	// Another process on the same store, which has already seen the session.
	other := cmd.New(w.platform.Store, w.platform.Clock, eventstore.NewULIDs(w.platform.Clock),
		slog.New(slog.NewTextHandler(io.Discard, nil)), cmd.Config{TokenKey: bytes.Repeat([]byte{5}, 32), Argon2: identitytest.CheapArgon2})
	caller, err := other.VerifyAccess(first.token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.LiveAccount(context.Background(), caller); err != nil {
		t.Fatalf("live session refused by the other process: %v", err)
	}

	rotated := anon.must(http.StatusOK, "POST", "/auth/refresh", map[string]any{"refreshToken": login["refreshToken"]}).body
	second := &client{w: w, token: str(rotated["accessToken"])}
	second.must(http.StatusOK, "GET", "/auth/me", nil)
	// The spent refresh token again: the session ends, both its access tokens stop.
	field(t, anon.do("POST", "/auth/refresh", map[string]any{"refreshToken": login["refreshToken"]}), 401, "UNAUTHORIZED", "")
	field(t, second.do("GET", "/auth/me", nil), 401, "UNAUTHORIZED", "")
	field(t, first.do("GET", "/stakeholders", nil), 401, "UNAUTHORIZED", "")
	if _, err := other.LiveAccount(context.Background(), caller); kernel.KindOf(err) != kernel.KindUnauthenticated {
		t.Fatalf("the other process still honours the ended session: %v", err)
	}
	// The registration's session is another session: it still works.
	owner.must(http.StatusOK, "GET", "/auth/me", nil)

	// Logout ends the caller's session at once, refresh token included.
	again := anon.must(http.StatusOK, "POST", "/auth/login", map[string]any{"email": "ada@reuse.test", "password": "correct-horse-9"}).body
	third := &client{w: w, token: str(again["accessToken"])}
	third.must(http.StatusOK, "GET", "/auth/me", nil)
	third.must(http.StatusNoContent, "POST", "/auth/logout", nil)
	field(t, third.do("GET", "/auth/me", nil), 401, "UNAUTHORIZED", "")
	field(t, third.do("POST", "/auth/logout", nil), 401, "UNAUTHORIZED", "")
	field(t, anon.do("POST", "/auth/refresh", map[string]any{"refreshToken": again["refreshToken"]}), 401, "UNAUTHORIZED", "")
	field(t, anon.do("POST", "/auth/logout", nil), 401, "UNAUTHORIZED", "")
	owner.must(http.StatusOK, "GET", "/auth/me", nil)
}

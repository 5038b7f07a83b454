package identity_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/signin"
)

func TestLogoutRevokesTheTokenEverywhereUntilItExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("leave@example.com")
	if st := e.whoami(bearerH(tok)...); st != http.StatusOK {
		t.Fatalf("before logout: %d", st)
	}
	st, body, _ := e.call("POST", "/api/v1/auth/logout", nil, bearerH(tok)...)
	if st != http.StatusOK || body["message"] == nil {
		t.Fatalf("logout: %d %v", st, body)
	}
	for _, path := range []string{"/test/whoami", "/api/v1/auth/me", "/api/v1/api-keys"} {
		if st, _, h := e.call("GET", path, nil, bearerH(tok)...); st != http.StatusUnauthorized || h.Get("WWW-Authenticate") == "" {
			t.Errorf("GET %s after logout: %d, WWW-Authenticate %q", path, st, h.Get("WWW-Authenticate"))
		}
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/refresh", nil, bearerH(tok)...); st != http.StatusUnauthorized {
		t.Errorf("refresh with a logged-out token: %d", st)
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/logout", nil, bearerH(tok)...); st != http.StatusUnauthorized {
		t.Errorf("second logout: %d", st)
	}
	// Another session of the same user is unaffected.
	st, body, _ = e.call("POST", "/api/v1/auth/login", map[string]any{"email": "leave@example.com", "password": goodPassword})
	if st != http.StatusOK {
		t.Fatalf("login: %d %v", st, body)
	}
	if st := e.whoami(bearerH(body["access_token"].(string))...); st != http.StatusOK {
		t.Errorf("new session after logout: %d", st)
	}
}

func TestRefreshIssuesANewWorkingToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.register("fresh@example.com")
	st, body, _ := e.call("POST", "/api/v1/auth/refresh", nil, bearerH(tok)...)
	if st != http.StatusOK || body["token_type"] != "bearer" || body["expires_in"] != float64(28800) {
		t.Fatalf("refresh: %d %v", st, body)
	}
	next := body["access_token"].(string)
	if next == tok {
		t.Fatal("refresh returned the same token")
	}
	if st := e.whoami(bearerH(next)...); st != http.StatusOK {
		t.Errorf("refreshed token: %d", st)
	}
	if st, _, _ := e.call("POST", "/api/v1/auth/refresh", nil); st != http.StatusUnauthorized {
		t.Errorf("refresh without a token: %d", st)
	}
}

func TestBruteForceGets429WithRetryAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("target@example.com")
	for i := range signin.PairFreeFailures {
		st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "target@example.com", "password": "Wrong-pass" + strconv.Itoa(i)})
		if st != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, st)
		}
	}
	// The next attempt from this address is refused before the password is
	// checked, even the right one, for the first delay.
	st, body, h := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "TARGET@example.com", "password": goodPassword})
	ra, _ := strconv.Atoi(h.Get("Retry-After"))
	if st != http.StatusTooManyRequests || ra != int(signin.PairBaseDelay/time.Second) {
		t.Fatalf("after %d failures: %d Retry-After %q %v", signin.PairFreeFailures, st, h.Get("Retry-After"), body)
	}
	// Other accounts from the same client still work (below the address ceiling).
	e.register("other@example.com")
	if st, _, _ := e.call("POST", "/api/v1/auth/login-json", map[string]any{"username": "other@example.com", "password": goodPassword}); st != http.StatusOK {
		t.Errorf("other account: %d", st)
	}
	e.clock.Advance(signin.PairBaseDelay)
	if st, _, _ := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "target@example.com", "password": goodPassword}); st != http.StatusOK {
		t.Errorf("after the delay: %d", st)
	}
}

func TestClientLimitCoversManyAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var wg sync.WaitGroup
	codes := make([]int, signin.AddressFailureLimit)
	for i := range signin.AddressFailureLimit { // unknown accounts: one client probing many emails
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, _ = e.call("POST", "/api/v1/auth/login", map[string]any{"email": "probe" + strconv.Itoa(i) + "@example.com", "password": "Whatever-1"})
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusUnauthorized {
			t.Fatalf("probe %d: %d", i, c)
		}
	}
	st, _, h := e.call("POST", "/api/v1/auth/login", map[string]any{"email": "probe-next@example.com", "password": "Whatever-1"})
	if st != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("failure %d from one client: %d %q", signin.AddressFailureLimit+1, st, h.Get("Retry-After"))
	}
}

package hackathon_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
)

// TestNoCredentials: every route but the invitation link needs the
// platform's credentials; the 401 carries the hackathon error body.
func TestNoCredentials(t *testing.T) {
	s := newServer(t)
	for _, path := range []string{base, base + "/0190d3a4-0000-7000-8000-000000000000"} {
		r := s.raw("GET", path, "", nil)
		refused(t, r, http.StatusUnauthorized, path, "credentials")
		if r.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("GET %s: no WWW-Authenticate challenge", path)
		}
	}
	tok, _ := s.user(t, "ada@hackathon.test")
	s.must(t, http.StatusOK, "GET", base, tok, nil)
}

// TestAPIKey: an X-API-Key of the platform works as well as a bearer JWT,
// and acts as the key's user.
func TestAPIKey(t *testing.T) {
	s := newServer(t)
	tok, id := s.user(t, "ada@hackathon.test")
	key := s.apiKey(t, id)
	hdr := http.Header{"X-Api-Key": {key}}
	r := s.call(s.URL, "POST", base, map[string]any{"name": "Keyed", "start_date": "2026-03-01T09:00:00Z",
		"end_date": "2026-03-02T09:00:00Z"}, hdr)
	if r.Status != http.StatusCreated || r.Body["created_by"] != id {
		t.Fatalf("create with X-API-Key: %d %s", r.Status, r.Raw)
	}
	hid := r.Body["id"].(string)
	// The key's user sees their DRAFT through either credential.
	if r := s.call(s.URL, "GET", path(hid, ""), nil, hdr); r.Status != http.StatusOK {
		t.Fatalf("GET with X-API-Key: %d %s", r.Status, r.Raw)
	}
	s.must(t, http.StatusOK, "GET", path(hid, ""), tok, nil)
	s.must(t, http.StatusOK, "GET", path(hid, ""), key, nil) // the key as a bearer credential
	// A wrong key is 401 in the hackathon error shape.
	bad := s.call(s.URL, "GET", base, nil, http.Header{"X-Api-Key": {key + "x"}})
	refused(t, bad, http.StatusUnauthorized, base)
}

// TestRateLimit: past the limit a user's request is 429 with Retry-After
// until the minute ends; another user is counted apart.
func TestRateLimit(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 40, 0, time.UTC)
	s := newServerWith(t, options{Limiter: readhackathon.NewLimiter(3, func() time.Time { return now })})
	ada, _ := s.user(t, "ada@hackathon.test")
	bob, _ := s.user(t, "bob@hackathon.test")
	for i := 1; i <= 3; i++ {
		r := s.raw("GET", base, ada, nil)
		if r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(3-i) {
			t.Fatalf("request %d: %d, remaining %q: %s", i, r.Status, r.Header.Get("X-RateLimit-Remaining"), r.Raw)
		}
	}
	r := s.raw("GET", base, ada, nil)
	refused(t, r, http.StatusTooManyRequests, base, "rate limit")
	if got := r.Header.Get("Retry-After"); got != "20" {
		t.Fatalf("Retry-After %q, want 20 (the minute ends in 20 s)", got)
	}
	s.must(t, http.StatusOK, "GET", base, bob, nil)
}

package hackathon_test

import (
	"net/http"
	"testing"
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

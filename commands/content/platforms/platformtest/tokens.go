package platformtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// tokenState is what a bearer token is worth.
type tokenState int

const (
	tokenOK tokenState = iota
	tokenMissing
	tokenInvalid
	tokenExpired
)

// issueLocked creates a grant for account and its access and refresh tokens.
func (s *Server) issueLocked(account string) (string, *grant) {
	access := s.nextLocked("at")
	g := &grant{account: account, refresh: s.nextLocked("rt")}
	if s.ttl > 0 {
		g.expires = time.Now().Add(s.ttl)
	}
	s.access[access] = g
	s.refresh[g.refresh] = g
	return access, g
}

// Mint returns valid tokens for the account with id account (registered
// with its id as handle if unknown), without the OAuth steps: for
// dispatcher tests and benchmarks.
func (s *Server) Mint(account string) connections.Tokens {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.accounts[account]; !ok {
		s.accounts[account] = Account{ID: account, Handle: account, Name: account}
	}
	access, g := s.issueLocked(account)
	return connections.Tokens{AccessToken: access, RefreshToken: g.refresh, TokenType: "Bearer", Expiry: g.expires}
}

// ttlSeconds is the lifetime of tokens issued now (0: none).
func (s *Server) ttlSeconds() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(s.ttl / time.Second)
}

// redeem checks a code exchange and issues tokens; errCode is the OAuth
// error when it is refused.
func (s *Server) redeem(clientID, secret, code, redirect, verifier string) (access string, g *grant, errCode string) {
	if clientID != s.clientID || secret != s.secret {
		return "", nil, "invalid_client"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.codes[code]
	if !ok || c.clientID != clientID {
		return "", nil, "invalid_grant"
	}
	delete(s.codes, code) // a code is good once
	if c.redirect != redirect {
		return "", nil, "redirect_uri_mismatch"
	}
	if c.challenge != "" && Challenge(verifier) != c.challenge {
		return "", nil, "invalid_grant"
	}
	access, g = s.issueLocked(c.account)
	return access, g, ""
}

// renew refreshes with a refresh token; the old access token stops working.
func (s *Server) renew(clientID, secret, refresh string) (access string, g *grant, errCode string) {
	if clientID != s.clientID || secret != s.secret {
		return "", nil, "invalid_client"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.refresh[refresh]
	if old == nil || old.revoked {
		return "", nil, "invalid_grant"
	}
	old.revoked = true
	delete(s.refresh, refresh)
	access, g = s.issueLocked(old.account)
	return access, g, ""
}

// revokeFor revokes token if it was issued (checking the client where
// clientID is not "").
func (s *Server) revokeFor(clientID, secret, token string) string {
	if clientID != "" && (clientID != s.clientID || secret != s.secret) {
		return "invalid_client"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.revokeLocked(token) {
		return "invalid_token"
	}
	return ""
}

// bearerToken is the request's bearer token ("" when none).
func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// check looks the token up.
func (s *Server) check(token string) (Account, tokenState) {
	if token == "" {
		return Account{}, tokenMissing
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.access[token]
	switch {
	case g == nil || g.revoked:
		return Account{}, tokenInvalid
	case g.expired || !g.expires.IsZero() && time.Now().After(g.expires):
		return Account{}, tokenExpired
	}
	a, ok := s.accounts[g.account]
	if !ok {
		a = Account{ID: g.account, Handle: g.account}
	}
	return a, tokenOK
}

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decode reads a JSON request body into v.
func decode(r *http.Request, v any) bool {
	return json.NewDecoder(r.Body).Decode(v) == nil
}

// polled counts status polls per id, for SetProcessing.
func (s *Server) polled(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pollCount == nil {
		s.pollCount = map[string]int{}
	}
	s.pollCount[id]++
	return s.pollCount[id]
}

// store and load keep a fake's per-object state (containers, uploads).
func (s *Server) store(id string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.objects == nil {
		s.objects = map[string]any{}
	}
	s.objects[id] = v
}

func (s *Server) load(id string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.objects[id]
	return v, ok
}

// processState is where a polled object is after its n-th poll: "" in
// progress, "done", or the failure reason.
func (s *Server) processState(id string) (done bool, failReason string) {
	polls, fail := s.processing()
	n := s.polled(id)
	if n <= polls {
		return false, ""
	}
	return true, fail
}

// SetTokenTTL sets the lifetime of the access tokens issued from now on.
func (s *Server) SetTokenTTL(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ttl = d
}

// Expire makes an access token expired.
func (s *Server) Expire(accessToken string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.access[accessToken]; g != nil {
		g.expired = true
	}
}

// ExpireAll makes every access token issued so far expired.
func (s *Server) ExpireAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.access {
		g.expired = true
	}
}

// Revoke revokes a token (access or refresh) and its grant.
func (s *Server) Revoke(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revokeLocked(token)
}

// Revoked reports whether token was revoked.
func (s *Server) Revoked(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.access[token]
	if g == nil {
		g = s.refresh[token]
	}
	return g != nil && g.revoked
}

func (s *Server) revokeLocked(token string) bool {
	g := s.access[token]
	if g == nil {
		g = s.refresh[token]
	}
	if g == nil {
		return false
	}
	g.revoked = true
	return true
}

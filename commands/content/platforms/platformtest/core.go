// Package platformtest runs loopback fakes of the four social platforms
// (httptest servers speaking the wire protocol the adapters in
// commands/content/platforms/... use): OAuth code and token endpoints with
// PKCE checks, identity, publishing with uploads and asynchronous
// processing, insights. Tests and benchmarks configure the tokens the
// fakes issue, inject failures (transient, rate limit, refusal with the
// platform's reason, an expired token, a dropped connection or a hang
// after the request was received), list the posts each fake really
// created and set daily insight numbers. Every fake is safe for concurrent
// use and sleeps only when told to.
package platformtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Kind is a failure a fake can be told to answer with.
type Kind int

// The failures.
const (
	// Transient answers 503 in the platform's error shape, without acting.
	Transient Kind = iota + 1
	// RateLimit answers the platform's rate-limit error, without acting.
	RateLimit
	// Refuse answers the platform's refusal with Failure.Reason as its
	// error code, without acting.
	Refuse
	// Expired answers the platform's expired-token error, without acting.
	Expired
	// Drop reads the request, acts on it (a post is created), then closes
	// the connection without answering: the caller cannot know it posted.
	Drop
	// Hang reads the request and never answers (until the client gives up
	// or the fake is closed); it does not act.
	Hang
	// DropUnacted reads the request and closes the connection at once
	// without acting: unconfirmed for the caller, though nothing was done.
	DropUnacted
)

// Failure is an injected failure: calls whose "METHOD /path" starts with
// Match ("" matches every call) get Kind, Times times (0: once).
type Failure struct {
	Match  string
	Kind   Kind
	Reason string
	Times  int
}

// Account is a platform account the fakes know.
type Account struct {
	ID     string
	Handle string
	Name   string
	Email  string
}

// Post is what a fake really created.
type Post struct {
	ID      string
	Account string
	Text    string
	Title   string
	// Media lists what was posted: a URL the platform was given, or
	// "upload:<bytes>" for uploaded bytes.
	Media []string
	// Key is the caller's idempotency key or reference where the platform
	// carries one (none of the four does: it stays "").
	Key  string
	Time time.Time
}

// Numbers are one day's insight numbers of an account (nil: not given).
type Numbers struct {
	Views, Likes, Comments, Shares, FollowersGained *int64
}

type grant struct {
	account string
	expires time.Time
	expired bool
	revoked bool
	refresh string
}

type authCode struct {
	account, clientID, redirect, challenge string
}

// Server is what the four fakes share: accounts, codes, tokens, failures,
// the request log, posts and insights. Its methods are safe for
// concurrent use.
type Server struct {
	srv      *httptest.Server
	dialect  dialect
	done     chan struct{}
	closeMu  sync.Once
	clientID string
	secret   string

	mu         sync.Mutex
	seq        int
	def        Account
	accounts   map[string]Account
	codes      map[string]authCode
	access     map[string]*grant
	refresh    map[string]*grant
	ttl        time.Duration
	failures   []*Failure
	log        []string
	posts      []Post
	insights   map[string]map[string]Numbers
	latency    time.Duration
	polls      int
	failReason string
	pollCount  map[string]int
	objects    map[string]any
}

// dialect is one platform's handlers and error shape.
type dialect interface {
	routes(mux *http.ServeMux)
	// problem answers an error in the platform's shape; code is the
	// platform's error code for kind (reason where given).
	problem(w http.ResponseWriter, kind Kind, reason string)
}

func newServer(d dialect, def Account, clientID, secret string, ttl time.Duration) *Server {
	s := &Server{dialect: d, done: make(chan struct{}), clientID: clientID, secret: secret, def: def,
		accounts: map[string]Account{def.ID: def}, codes: map[string]authCode{}, access: map[string]*grant{},
		refresh: map[string]*grant{}, ttl: ttl, insights: map[string]map[string]Numbers{}}
	mux := http.NewServeMux()
	d.routes(mux)
	s.srv = httptest.NewServer(s.middleware(mux))
	return s
}

// URL is the fake's base URL.
func (s *Server) URL() string { return s.srv.URL }

// Close stops the fake (releasing hung requests).
func (s *Server) Close() {
	s.closeMu.Do(func() { close(s.done) })
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// ClientID and ClientSecret are the credentials the fake accepts.
func (s *Server) ClientID() string { return s.clientID }

// ClientSecret is the client secret the fake accepts.
func (s *Server) ClientSecret() string { return s.secret }

// Account is the account codes from Authorize belong to.
func (s *Server) Account() Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.def
}

// AddAccount registers an account (for AuthorizeAs and Mint).
func (s *Server) AddAccount(a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[a.ID] = a
}

// Authorize is the authorization step for the default account: it returns
// the code the platform would redirect to redirectURI with (state is the
// caller's; it is not checked). A non-empty challenge is the S256 PKCE
// challenge the code exchange's verifier must match.
func (s *Server) Authorize(clientID, redirectURI, challenge, state string) string {
	return s.AuthorizeAs(s.Account().ID, clientID, redirectURI, challenge)
}

// AuthorizeAs is Authorize for the account with id account.
func (s *Server) AuthorizeAs(account, clientID, redirectURI, challenge string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.accounts[account]; !ok {
		s.accounts[account] = Account{ID: account, Handle: account, Name: account}
	}
	code := s.nextLocked("code")
	s.codes[code] = authCode{account: account, clientID: clientID, redirect: redirectURI, challenge: challenge}
	return code
}

// Challenge is the S256 PKCE challenge of verifier.
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Fail injects a failure.
func (s *Server) Fail(f Failure) {
	if f.Times <= 0 {
		f.Times = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, &f)
}

// FailNext makes the next call fail with kind.
func (s *Server) FailNext(kind Kind, reason string) { s.Fail(Failure{Kind: kind, Reason: reason}) }

// ClearFailures removes the failures not yet used.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = nil
}

// SetLatency makes every answer wait d.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// SetProcessing makes asynchronous publishing (containers, publish
// status, uploads) report "in progress" polls times before finishing, and
// fail with failReason instead when it is not "".
func (s *Server) SetProcessing(polls int, failReason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.polls, s.failReason = polls, failReason
}

func (s *Server) takeFailure(call string) *Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, call)
	for i, f := range s.failures {
		if strings.HasPrefix(call, f.Match) {
			f.Times--
			if f.Times <= 0 {
				s.failures = append(s.failures[:i:i], s.failures[i+1:]...)
			}
			c := *f
			return &c
		}
	}
	return nil
}

func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		f := s.takeFailure(r.Method + " " + r.URL.Path)
		s.mu.Lock()
		lat := s.latency
		s.mu.Unlock()
		if lat > 0 {
			select {
			case <-time.After(lat):
			case <-r.Context().Done():
				return
			}
		}
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		switch f.Kind {
		case Drop:
			next.ServeHTTP(httptest.NewRecorder(), r)
			hangUp(w)
		case DropUnacted:
			hangUp(w)
		case Hang:
			select {
			case <-r.Context().Done():
			case <-s.done:
			}
			hangUp(w)
		default:
			s.dialect.problem(w, f.Kind, f.Reason)
		}
	})
}

// Package builder holds the builder context's commands. Founder sessions:
// the builder surface is a confidential OAuth client of the platform's
// authorization server and speaks to it only over the OAuth protocol
// (authorization code with PKCE, the token and revocation endpoints, the
// ID token checked against the JWKS), like any third-party application.
package builder

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/strata-platform/strata/commands/sealed"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Config configures founder sessions.
type Config struct {
	Issuer       string // the platform API's base URL (the authorization server)
	ClientID     string // the builder's client registration
	ClientSecret string
	RedirectURL  string       // <builder base URL>/auth/callback
	Key          []byte       // 32 bytes, derived from the master key: seals tokens and the login cookie
	HTTPClient   *http.Client // for the token and revocation endpoints; nil: 10 s timeout
}

// Sessions starts and ends founder sessions.
type Sessions struct {
	store    *eventstore.Store
	wait     func(ctx context.Context, key eventstore.Key) error
	cfg      Config
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
	box      *sealed.Box
	clock    kernel.Clock
	log      *slog.Logger
}

// LoginTTL bounds the time between /auth/login and /auth/callback.
const LoginTTL = 10 * time.Minute

// NewSessions returns the founder session commands. wait blocks until the
// session read model has applied an append (read-your-writes).
func NewSessions(store *eventstore.Store, wait func(context.Context, eventstore.Key) error, clock kernel.Clock,
	logger *slog.Logger, cfg Config) (*Sessions, error) {
	box, err := sealed.New(cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("builder sessions key: %w", err)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	o := &oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURL,
		Scopes: []string{oidc.ScopeOpenID, "profile", "email"},
		Endpoint: oauth2.Endpoint{AuthURL: cfg.Issuer + "/oauth/authorize", TokenURL: cfg.Issuer + "/api/v1/oauth/token",
			AuthStyle: oauth2.AuthStyleInHeader}}
	keys := oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), cfg.HTTPClient), cfg.Issuer+"/.well-known/jwks.json")
	v := oidc.NewVerifier(cfg.Issuer, keys, &oidc.Config{ClientID: cfg.ClientID, Now: clock.Now})
	return &Sessions{store: store, wait: wait, cfg: cfg, oauth: o, verifier: v, box: box, clock: clock, log: logger}, nil
}

// login is the sealed content of the login cookie: what the callback must
// find again (state, PKCE verifier, nonce) and where to go afterwards.
type login struct {
	State    string `json:"s"`
	Verifier string `json:"v"`
	Nonce    string `json:"n"`
	ReturnTo string `json:"r"`
	Exp      int64  `json:"e"`
}

// Begin starts a sign-in: it returns the authorization URL to redirect the
// browser to and the login cookie's value. returnTo must be a path on the
// builder ("/..."), anything else is replaced by "/".
func (s *Sessions) Begin(returnTo string) (string, string, time.Time) {
	if !strings.HasPrefix(returnTo, "/") || strings.HasPrefix(returnTo, "//") || strings.HasPrefix(returnTo, "/\\") {
		returnTo = "/"
	}
	exp := s.clock.Now().Add(LoginTTL)
	l := login{State: random(24), Verifier: oauth2.GenerateVerifier(), Nonce: random(24), ReturnTo: returnTo, Exp: exp.Unix()}
	plain, _ := json.Marshal(l)
	authURL := s.oauth.AuthCodeURL(l.State, oauth2.S256ChallengeOption(l.Verifier), oidc.Nonce(l.Nonce))
	return authURL, s.box.Seal(plain, "login"), exp
}

// Signed is a completed sign-in: the session cookie's value (shown once),
// its expiry and where the browser goes next.
type Signed struct {
	Cookie    string
	ExpiresAt time.Time
	ReturnTo  string
}

// Complete finishes a sign-in from the callback's query and the login
// cookie: it checks the state, exchanges the code with the PKCE verifier,
// verifies the ID token (signature, issuer, audience, expiry, nonce), and
// records the session with the tokens sealed.
func (s *Sessions) Complete(ctx context.Context, cookie string, q url.Values) (Signed, error) {
	var l login
	plain, err := s.box.Open(cookie, "login")
	if err != nil || json.Unmarshal(plain, &l) != nil || s.clock.Now().Unix() >= l.Exp {
		return Signed{}, kernel.Invalid("state", "login_cookie", "the sign-in expired or was started in another browser; start again at /auth/login")
	}
	if q.Get("state") == "" || q.Get("state") != l.State {
		return Signed{}, kernel.Invalid("state", "match", "state does not match the sign-in this browser started")
	}
	if iss := q.Get("iss"); iss != "" && iss != s.cfg.Issuer {
		return Signed{}, kernel.Invalid("iss", "match", "the authorization response came from another issuer")
	}
	if e := q.Get("error"); e != "" {
		return Signed{}, kernel.E(kernel.KindForbidden, "sign-in was not completed: "+e+" "+q.Get("error_description"))
	}
	code := q.Get("code")
	if code == "" {
		return Signed{}, kernel.Invalid("code", "required", "code is required")
	}
	tok, err := s.oauth.Exchange(oidc.ClientContext(ctx, s.cfg.HTTPClient), code, oauth2.VerifierOption(l.Verifier))
	if err != nil {
		return Signed{}, kernel.Unavailable("the authorization server refused the code exchange; start again at /auth/login", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := s.verifier.Verify(ctx, raw)
	if err != nil || idt.Nonce != l.Nonce {
		return Signed{}, kernel.Unavailable("the ID token did not verify; start again at /auth/login", err)
	}
	var claims struct {
		Email string `json:"email"`
		Name  string `json:"name"`
	}
	if err := idt.Claims(&claims); err != nil {
		return Signed{}, err
	}
	return s.record(ctx, idt.Subject, claims.Email, claims.Name, tok, raw, l.ReturnTo)
}

// storedTokens are the platform tokens kept (sealed) with a session.
type storedTokens struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	IDToken      string    `json:"id_token"`
	Expiry       time.Time `json:"expiry"`
}

func (s *Sessions) record(ctx context.Context, userID, email, name string, tok *oauth2.Token, idToken, returnTo string) (Signed, error) {
	tokens, _ := json.Marshal(storedTokens{AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, IDToken: idToken, Expiry: tok.Expiry})
	now := s.clock.Now()
	cookie := random(32)
	scope, _ := tok.Extra("scope").(string)
	ev := &builder.FounderSignedIn{SessionID: uuid.NewString(), SessionHash: HashCookie(cookie), UserID: userID, Email: email,
		Name: name, Scope: scope, SealedTokens: []byte(s.box.Seal(tokens, "tokens")), ExpiresAt: now.Add(builder.SessionTTL), At: now}
	a, err := s.store.Append(ctx, eventstore.Stream{Type: builder.StreamSession, ID: ev.SessionID}, eventstore.NoStream, ev)
	if err != nil {
		return Signed{}, err
	}
	if err := s.wait(ctx, a.Last); err != nil {
		return Signed{}, err
	}
	return Signed{Cookie: cookie, ExpiresAt: ev.ExpiresAt, ReturnTo: returnTo}, nil
}

// End signs a session out: the refresh token is revoked at the
// authorization server (RFC 7009, which ends its whole grant) and the
// session is recorded as ended.
func (s *Sessions) End(ctx context.Context, sessionID string, sealedTokens []byte) error {
	var t storedTokens
	if plain, err := s.box.Open(string(sealedTokens), "tokens"); err == nil && json.Unmarshal(plain, &t) == nil && t.RefreshToken != "" {
		if err := s.revoke(ctx, t.RefreshToken); err != nil {
			s.log.Warn("builder logout: revoking the refresh token failed", "err", err)
		}
	}
	a, err := s.store.Append(ctx, eventstore.Stream{Type: builder.StreamSession, ID: sessionID}, eventstore.AnyVersion,
		&builder.FounderSignedOut{SessionID: sessionID, Reason: "logout", At: s.clock.Now()})
	if err != nil {
		return err
	}
	return s.wait(ctx, a.Last)
}

func (s *Sessions) revoke(ctx context.Context, token string) error {
	body := url.Values{"token": {token}, "token_type_hint": {"refresh_token"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Issuer+"/oauth/revoke", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(s.cfg.ClientID), url.QueryEscape(s.cfg.ClientSecret))
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("revocation endpoint answered %s", resp.Status)
	}
	return nil
}

// HashCookie is how a session cookie is looked up: its SHA-256 in hex.
func HashCookie(cookie string) string {
	sum := sha256.Sum256([]byte(cookie))
	return hex.EncodeToString(sum[:])
}

func random(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

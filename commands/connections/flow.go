package connections

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	domain "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/kernel"
)

// statePurpose binds sealed state values to this use.
const statePurpose = "connections oauth state"

// state is what an authorization carries through the provider and back,
// sealed: who started it, for which provider and redirect, the PKCE
// verifier, a nonce that makes it single-use, and its expiry.
type state struct {
	Owner    string `json:"o"`
	Provider string `json:"p"`
	Redirect string `json:"r"`
	Verifier string `json:"v,omitempty"`
	Nonce    string `json:"n"`
	Expires  int64  `json:"e"`
}

// Authorization is a started connect flow.
type Authorization struct {
	// URL is where to send the founder's browser.
	URL string `json:"authorization_url"`
	// State is the sealed state value in URL (the callback must return it).
	State     string `json:"state"`
	ExpiresIn int    `json:"expires_in"`
}

// CheckRedirect validates a redirect_uri: an absolute https URL (http only
// for a loopback host), no fragment, no user info.
func CheckRedirect(field, raw string) error {
	u, err := url.Parse(raw)
	bad := err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" || u.User != nil || len(raw) > 2000
	if !bad && u.Scheme == "http" {
		h := u.Hostname()
		bad = h != "localhost" && h != "127.0.0.1" && h != "::1"
	} else if !bad {
		bad = u.Scheme != "https"
	}
	if bad {
		return kernel.Invalid(field, "url", field+" must be an absolute https URL (http only for localhost), without a fragment or user info")
	}
	return nil
}

// Begin starts owner's authorization at provider: the provider's
// authorization URL with a sealed, single-use, expiring state bound to
// owner, and a PKCE S256 challenge where the provider supports it.
func (s *Service) Begin(ctx context.Context, owner, provider, redirectURI string) (Authorization, error) {
	p, err := s.Provider(provider)
	if err != nil {
		return Authorization{}, err
	}
	if err := configured(p); err != nil {
		return Authorization{}, err
	}
	if err := CheckRedirect("redirect_uri", redirectURI); err != nil {
		return Authorization{}, err
	}
	st := state{Owner: owner, Provider: provider, Redirect: redirectURI, Nonce: random(16),
		Expires: s.cfg.Clock.Now().Add(s.cfg.StateTTL).Unix()}
	challenge := ""
	if p.PKCE() {
		st.Verifier = random(32)
		sum := sha256.Sum256([]byte(st.Verifier))
		challenge = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return Authorization{}, err
	}
	sealedState := s.box.Seal(raw, statePurpose)
	return Authorization{URL: p.AuthCodeURL(sealedState, redirectURI, challenge), State: sealedState,
		ExpiresIn: int(s.cfg.StateTTL.Seconds())}, nil
}

// Complete finishes an authorization: the state must open, be unexpired,
// unused, for this provider and (when the callback is authenticated) for
// this owner; the code is exchanged, the account identified, the tokens
// stored sealed and the connection recorded. It returns the account.
func (s *Service) Complete(ctx context.Context, caller, provider, code, rawState string) (domain.Account, error) {
	p, err := s.Provider(provider)
	if err != nil {
		return domain.Account{}, err
	}
	if err := configured(p); err != nil {
		return domain.Account{}, err
	}
	if code == "" {
		return domain.Account{}, kernel.Invalid("code", "required", "code is required")
	}
	if rawState == "" {
		return domain.Account{}, kernel.Invalid("state", "required", "state is required")
	}
	badState := kernel.Invalid("state", "valid", "state is not one this server issued, was altered, or belongs to another provider or caller; start the connection again")
	raw, err := s.box.Open(rawState, statePurpose)
	if err != nil {
		return domain.Account{}, badState
	}
	var st state
	if json.Unmarshal(raw, &st) != nil || st.Provider != provider || (caller != "" && caller != st.Owner) {
		return domain.Account{}, badState
	}
	if s.cfg.Clock.Now().Unix() > st.Expires {
		return domain.Account{}, kernel.Invalid("state", "unexpired", "state has expired; start the connection again")
	}
	if err := s.useNonce(ctx, st); err != nil {
		return domain.Account{}, err
	}
	t, err := p.Exchange(ctx, code, st.Redirect, st.Verifier)
	if err != nil {
		return domain.Account{}, s.providerError(p, "code", "code exchange", err)
	}
	return s.store(ctx, p, st.Owner, st.Owner, "oauth", "code", t)
}

// ConnectToken connects owner's account with a token the owner holds (a
// personal access token, a bot token): the provider must accept it
// (Identify) before it is stored.
func (s *Service) ConnectToken(ctx context.Context, owner, by, provider string, t Tokens) (domain.Account, error) {
	p, err := s.Provider(provider)
	if err != nil {
		return domain.Account{}, err
	}
	if t.AccessToken == "" {
		return domain.Account{}, kernel.Invalid("access_token", "required", "access_token is required")
	}
	return s.store(ctx, p, owner, by, "token", "access_token", t)
}

// store identifies the account behind t and records it as owner's
// connection to p, replacing any earlier one; a refusal names field.
func (s *Service) store(ctx context.Context, p Provider, owner, by, method, field string, t Tokens) (domain.Account, error) {
	id, err := p.Identify(ctx, t)
	if err != nil {
		return domain.Account{}, s.providerError(p, field, "account lookup", err)
	}
	var out domain.Account
	err = s.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		cur, version, err := s.load(ctx, tx, owner, p.Name())
		if err != nil {
			return err
		}
		tv := cur.TokenVersion + 1
		sealedTokens, err := s.seal(owner, p.Name(), tv, t)
		if err != nil {
			return err
		}
		ev := &domain.Connected{AccountID: s.cfg.IDs.NewID(), Owner: owner, Provider: p.Name(), Subject: id.ID, Handle: id.Handle,
			Extra: id.Extra, Scope: t.Scope, Method: method, TokenVersion: tv, Expiry: t.Expiry, By: by, At: s.cfg.Clock.Now()}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, stream(owner, p.Name()), version, ev); err != nil {
			return err
		}
		out = cur
		out.Apply(ev)
		return writeRow(ctx, tx, owner, p.Name(), tokenRow{AccountID: ev.AccountID, Version: tv, Sealed: sealedTokens}, t)
	})
	return out, err
}

// useNonce records the state's nonce as used; a second use is refused.
func (s *Service) useNonce(ctx context.Context, st state) error {
	res, err := s.cfg.Store.DB().ExecContext(ctx, `INSERT INTO platform.connection_states (nonce, expires_at)
		VALUES ($1, to_timestamp($2)) ON CONFLICT (nonce) DO NOTHING`, st.Nonce, st.Expires)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return kernel.Invalid("state", "unused", "state was already used; start the connection again")
	}
	_, _ = s.cfg.Store.DB().ExecContext(ctx, `DELETE FROM platform.connection_states WHERE expires_at < now() - interval '1 hour'`)
	return nil
}

// providerError turns a provider's failure during a flow into a client
// error: a refusal is 400 on field (the code, or the token given); an
// unreachable provider 503.
func (s *Service) providerError(p Provider, field, what string, err error) error {
	var ce *CallError
	if !errors.As(err, &ce) {
		if kernel.KindOf(err) != kernel.KindInternal {
			return err
		}
		s.cfg.Logger.Warn("connections: provider call failed", "provider", p.Name(), "step", what, "err", err)
		return kernel.Unavailable(p.Label()+" could not complete the "+what+"; try again later", nil)
	}
	switch ce.Class {
	case Refused, Unauthorized:
		return &kernel.Error{Kind: kernel.KindInvalid, Field: field, Rule: "accepted_by_provider",
			Message: p.Label() + " refused the " + what + ": " + ce.Reason}
	}
	return kernel.Unavailable(p.Label()+" did not complete the "+what+" ("+string(ce.Class)+"); try again later", nil)
}

func random(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return strings.TrimRight(base64.RawURLEncoding.EncodeToString(b), "=")
}

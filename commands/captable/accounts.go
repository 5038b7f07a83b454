package captable

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"sync"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Uniqueness scopes in es.unique_keys.
const (
	scopeEmail    = "captable.email"
	scopePlatform = "captable.platform_user"
)

// accountEntry is a folded account and the lock its commands take.
type accountEntry struct {
	mu      sync.Mutex
	account captable.Account
}

func (s *Service) catchUpAccount(ctx context.Context, id string, e *accountEntry) error {
	evs, err := s.store.Load(ctx, id, eventstore.LoadOptions{AfterVersion: e.account.Version})
	if err != nil {
		return err
	}
	for _, env := range evs {
		e.account.Apply(env.Event)
		e.account.Version = env.StreamVersion
	}
	return nil
}

// Account returns a copy of an account's registration and plan; an unknown
// account is unauthenticated (its token names an account that is gone).
func (s *Service) Account(ctx context.Context, id string) (captable.AccountRegistered, error) {
	e := s.accounts.get(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.catchUpAccount(ctx, id, e); err != nil {
		return captable.AccountRegistered{}, err
	}
	if e.account.AccountID == "" {
		s.accounts.forget(id)
		return captable.AccountRegistered{}, kernel.Unauthenticated("the account no longer exists")
	}
	return e.account.AccountRegistered, nil
}

// onAccount runs fn on a caught-up account under its lock and appends what
// it returns at the account's version, deciding again after a clash.
func (s *Service) onAccount(ctx context.Context, id string, fn func(a *captable.Account) ([]kernel.Event, error)) (eventstore.Appended, error) {
	e := s.accounts.get(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if err := s.catchUpAccount(ctx, id, e); err != nil {
			return eventstore.Appended{}, err
		}
		if e.account.AccountID == "" {
			s.accounts.forget(id)
			return eventstore.Appended{}, kernel.Unauthenticated("unknown account")
		}
		evs, err := fn(&e.account)
		if len(evs) == 0 {
			return eventstore.Appended{}, err
		}
		app, aerr := s.store.Append(ctx, eventstore.Stream{Type: captable.StreamAccount, ID: id}, e.account.Version, evs...)
		if kernel.KindOf(aerr) == kernel.KindConflict && attempt < maxConflictRetries {
			continue
		}
		if aerr != nil {
			return eventstore.Appended{}, fmt.Errorf("append to account %s: %w", id, aerr)
		}
		if cerr := s.catchUpAccount(ctx, id, e); cerr != nil {
			return app, cerr
		}
		return app, err // fn may append and still refuse (a revoked session)
	}
}

// RegisterInput is the body of POST /auth/register.
type RegisterInput struct {
	Name        string `json:"name"`
	Email       string `json:"email"`
	Password    string `json:"password"`
	CompanyName string `json:"companyName"`
}

// Registered is the result of a registration: the account, its company and
// its first tokens.
type Registered struct {
	AccountID string
	CompanyID string
	Tokens    Tokens
}

func checkEmail(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", kernel.Invalid("email", "required", "email is required")
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v {
		return "", kernel.Invalid("email", "email", "email must be an email address")
	}
	return strings.ToLower(v), nil
}

func checkPassword(pw string) error {
	switch {
	case pw == "":
		return kernel.Invalid("password", "required", "password is required")
	case len(pw) < 8:
		return kernel.Invalid("password", "min_length:8", "password must be at least 8 characters")
	case len(pw) > 128:
		return kernel.Invalid("password", "max_length:128", "password must be at most 128 characters")
	}
	return nil
}

// Register opens an account with its company (the account owns it) and
// signs it in. An email already registered in the cap table is a conflict.
func (s *Service) Register(ctx context.Context, in RegisterInput) (Registered, error) {
	if strings.TrimSpace(in.Name) == "" {
		return Registered{}, kernel.Invalid("name", "required", "name is required")
	}
	email, err := checkEmail(in.Email)
	if err != nil {
		return Registered{}, err
	}
	if err := checkPassword(in.Password); err != nil {
		return Registered{}, err
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return Registered{}, err
	}
	return s.open(ctx, captable.AccountRegistered{Kind: captable.KindUser, Name: strings.TrimSpace(in.Name),
		Email: email, PasswordHash: hash}, in.CompanyName, "password")
}

// open appends a new account, its new company and its first session in one
// transaction, claiming its email (and platform user) as unique.
func (s *Service) open(ctx context.Context, reg captable.AccountRegistered, companyName, method string) (Registered, error) {
	now := s.clock.Now()
	reg.AccountID, reg.CompanyID, reg.At = s.ids.NewID(), s.ids.NewID(), now
	if reg.Plan == "" {
		reg.Plan = captable.PlanFree
	}
	company, err := captable.NewCompany(reg.CompanyID, companyName, reg.AccountID, now)
	if err != nil {
		return Registered{}, err
	}
	sid, secret := s.ids.NewID(), newSecret()
	started := &captable.SessionStarted{SessionID: sid, RefreshHash: sha256Hex(secret), Method: method,
		ExpiresAt: now.Add(s.cfg.RefreshTTL), At: now}
	var last eventstore.Appended
	err = s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.store.AppendTx(ctx, tx, eventstore.Stream{Type: captable.StreamAccount, ID: reg.AccountID},
			eventstore.NoStream, &reg, started); err != nil {
			return err
		}
		if reg.Email != "" {
			if err := eventstore.Claim(ctx, tx, scopeEmail, reg.Email, reg.AccountID, "email"); err != nil {
				return err
			}
		}
		if reg.PlatformUserID != "" {
			if err := eventstore.Claim(ctx, tx, scopePlatform, reg.PlatformUserID, reg.AccountID, "platformUserId"); err != nil {
				return err
			}
		}
		var err error
		last, err = s.store.AppendTx(ctx, tx, eventstore.Stream{Type: captable.StreamCompany, ID: reg.CompanyID},
			eventstore.NoStream, company...)
		return err
	})
	if err != nil {
		if kernel.KindOf(err) == kernel.KindConflict {
			return Registered{}, &kernel.Error{Kind: kernel.KindConflict, Field: "email", Rule: "unique",
				Message: "an account with this email already exists"}
		}
		return Registered{}, err
	}
	tokens, err := s.issue(reg.AccountID, sid, opaque(refreshPrefix, reg.AccountID, sid, secret), now)
	if err != nil {
		return Registered{}, err
	}
	return Registered{AccountID: reg.AccountID, CompanyID: reg.CompanyID, Tokens: tokens}, s.wait(ctx, last.Last)
}

// owner returns the account stream that claimed value in scope.
func (s *Service) owner(ctx context.Context, scope, value string) (string, bool, error) {
	var id string
	err := s.store.DB().QueryRowContext(ctx, `SELECT owner_stream FROM es.unique_keys WHERE scope = $1 AND value = $2`,
		scope, value).Scan(&id)
	if errors.Is(err, stdsql.ErrNoRows) {
		return "", false, nil
	}
	return id, err == nil, err
}

var errBadLogin = kernel.Unauthenticated("invalid email or password")

// SignInRealm is the cap-table accounts' namespace in the sign-in throttle.
const SignInRealm = "captable"

// Login checks an email and password and starts a session. client is the
// caller's address for the sign-in throttle (commands/signin): a throttled
// attempt is a *signin.Throttled, counted before the password is checked.
// Every failure answers the same, and an unknown email costs a hash
// verification and the same throttling too.
func (s *Service) Login(ctx context.Context, email, password, client string) (Tokens, string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return Tokens{}, "", kernel.Invalid("email", "required", "email is required")
	}
	if password == "" {
		return Tokens{}, "", kernel.Invalid("password", "required", "password is required")
	}
	attempt, err := s.cfg.SignIn.Begin(ctx, SignInRealm, email, client)
	if err != nil {
		return Tokens{}, "", err
	}
	id, found, err := s.owner(ctx, scopeEmail, email)
	if err != nil {
		return Tokens{}, "", err
	}
	hash := ""
	if found {
		acct, err := s.Account(ctx, id)
		if err != nil {
			return Tokens{}, "", err
		}
		hash = acct.PasswordHash
	}
	ok, err := s.hasher.Verify(ctx, password, hash)
	if err != nil {
		return Tokens{}, "", err
	}
	if !ok || !found {
		return Tokens{}, "", errBadLogin // Begin already counted the failure
	}
	if err := s.cfg.SignIn.Succeed(ctx, attempt); err != nil {
		return Tokens{}, "", err
	}
	t, err := s.startSession(ctx, id, "password")
	return t, id, err
}

// startSession appends a new session to an account and returns its tokens.
func (s *Service) startSession(ctx context.Context, accountID, method string) (Tokens, error) {
	now := s.clock.Now()
	sid, secret := s.ids.NewID(), newSecret()
	_, err := s.onAccount(ctx, accountID, func(*captable.Account) ([]kernel.Event, error) {
		return []kernel.Event{&captable.SessionStarted{SessionID: sid, RefreshHash: sha256Hex(secret), Method: method,
			ExpiresAt: now.Add(s.cfg.RefreshTTL), At: now}}, nil
	})
	if err != nil {
		return Tokens{}, err
	}
	return s.issue(accountID, sid, opaque(refreshPrefix, accountID, sid, secret), now)
}

var errBadRefresh = kernel.Unauthenticated("the refresh token is invalid, expired or already used")

// Refresh rotates a refresh token: the presented token is spent and a new
// pair is returned. Presenting a spent token again ends the session.
func (s *Service) Refresh(ctx context.Context, token string) (Tokens, error) {
	if strings.TrimSpace(token) == "" {
		return Tokens{}, kernel.Invalid("refreshToken", "required", "refreshToken is required")
	}
	account, sid, secret, ok := parseOpaque(refreshPrefix, token)
	if !ok {
		return Tokens{}, errBadRefresh
	}
	now := s.clock.Now()
	next := newSecret()
	_, err := s.onAccount(ctx, account, func(a *captable.Account) ([]kernel.Event, error) {
		sess := a.Sessions[sid]
		switch {
		case sess == nil || sess.Revoked || now.After(sess.ExpiresAt):
			return nil, errBadRefresh
		case !sameHash(sess.RefreshHash, sha256Hex(secret)):
			return []kernel.Event{&captable.SessionRevoked{SessionID: sid, Reason: "refresh_token_reused", At: now}}, errBadRefresh
		}
		return []kernel.Event{&captable.SessionRefreshed{SessionID: sid, RefreshHash: sha256Hex(next),
			ExpiresAt: now.Add(s.cfg.RefreshTTL), At: now}}, nil
	})
	if err != nil {
		if kernel.KindOf(err) == kernel.KindUnauthenticated {
			return Tokens{}, errBadRefresh
		}
		return Tokens{}, err
	}
	return s.issue(account, sid, opaque(refreshPrefix, account, sid, next), now)
}

// PlanOf returns the plan account is on: the platform's plans record when
// there is one (Config.PlanOf), else own (the account's own plan).
func (s *Service) PlanOf(account, own string) string {
	if s.cfg.PlanOf != nil {
		if p, ok := s.cfg.PlanOf(account); ok {
			return p
		}
	}
	return own
}

// SetPlan puts the account registered with email on plan (operators),
// through the platform's plans when Config.ChangePlan is set.
func (s *Service) SetPlan(ctx context.Context, email, plan string) error {
	if !captable.ValidPlan(plan) {
		return kernel.Invalid("plan", "one_of", "plan must be one of FREE, STARTER, PROFESSIONAL, ENTERPRISE")
	}
	id, found, err := s.owner(ctx, scopeEmail, strings.ToLower(strings.TrimSpace(email)))
	if err != nil {
		return err
	}
	if !found {
		return kernel.NotFound("no cap-table account with email " + email)
	}
	if s.cfg.ChangePlan != nil {
		return s.cfg.ChangePlan(ctx, id, plan)
	}
	_, err = s.onAccount(ctx, id, func(a *captable.Account) ([]kernel.Event, error) {
		if a.Plan == plan {
			return nil, nil
		}
		return []kernel.Event{&captable.AccountPlanChanged{AccountID: id, Plan: plan, At: s.clock.Now()}}, nil
	})
	return err
}

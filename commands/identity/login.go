package identity

import (
	"context"
	"strings"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// badCredentials is the one answer to every failed sign-in: it never says
// whether the account exists.
func badCredentials() error {
	return kernel.Unauthenticated("incorrect email or password")
}

// SignInRealm is the platform accounts' namespace in the sign-in throttle.
const SignInRealm = "identity"

// SignInKeyPurpose derives the sign-in throttle's HMAC key from the master
// key (cmd/strata builds the one throttle of every surface with it).
const SignInKeyPurpose = "sign-in throttle"

// Login signs in with email and password. client identifies the caller (its
// address) for the sign-in throttle (commands/signin). An unknown email
// costs the same argon2id work and the same throttling as a known one, so
// neither timing nor answers reveal accounts.
func (s *Service) Login(ctx context.Context, email, password, client string) (Session, error) {
	u, err := s.CheckPassword(ctx, email, password, client)
	if err != nil {
		return Session{}, err
	}
	return s.session(u)
}

// CheckPassword signs a user in with email and password under the same
// sign-in throttle as Login (a refusal is a *Throttled), without issuing a token (the authorization
// server's sign-in page keeps its own browser session).
func (s *Service) CheckPassword(ctx context.Context, email, password, client string) (ident.User, error) {
	if strings.TrimSpace(email) == "" {
		return ident.User{}, kernel.Invalid("email", "required", "email is required")
	}
	if password == "" {
		return ident.User{}, kernel.Invalid("password", "required", "password is required")
	}
	if len(password) > 4*ident.MaxPasswordLen {
		return ident.User{}, badCredentials() // never hash unbounded input
	}
	account := strings.ToLower(strings.TrimSpace(email))
	attempt, err := s.signIn.Begin(ctx, SignInRealm, account, client)
	if err != nil {
		return ident.User{}, err // *Throttled, or the database failed
	}
	u, found := s.dir.UserByEmail(account)
	hash := ""
	if found && u.Active && !u.Temporary {
		hash = u.PasswordHash
	}
	ok, err := s.hasher.Verify(ctx, password, hash)
	if err != nil {
		return ident.User{}, err
	}
	if !ok {
		return ident.User{}, badCredentials() // Begin already counted the failure
	}
	if err := s.signIn.Succeed(ctx, attempt); err != nil {
		return ident.User{}, err
	}
	return u, nil
}

// Refresh issues a new access token for the holder of a valid one.
func (s *Service) Refresh(ctx context.Context, userID string) (Session, error) {
	u, ok := s.dir.User(userID)
	if !ok || !u.Active {
		return Session{}, kernel.Unauthenticated("the account is not active")
	}
	return s.session(u)
}

// Logout revokes the presented token (its jti) until it expires.
func (s *Service) Logout(ctx context.Context, claims *Claims) error {
	ev := &ident.TokenRevoked{UserID: claims.Subject, TokenID: claims.ID, ExpiresAt: claims.ExpiresAt.Time, At: s.clock.Now()}
	return s.appendUser(ctx, claims.Subject, eventstore.AnyVersion, ev)
}

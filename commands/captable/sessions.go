package captable

import (
	"context"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
)

var errSessionEnded = kernel.Unauthenticated("the session has ended (logged out, or its refresh token was reused); sign in again")

// LiveAccount returns the account of a verified caller. For an access
// token it also requires the token's session to be live: an ended session
// (logout, a spent refresh token presented again) stops its access tokens
// at once, not at their expiry. The account is folded in memory and caught
// up from its stream first, so a session ended by any process counts on the
// next request. Agent keys have no session.
func (s *Service) LiveAccount(ctx context.Context, c Caller) (captable.AccountRegistered, error) {
	e := s.accounts.get(c.AccountID)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.catchUpAccount(ctx, c.AccountID, e); err != nil {
		return captable.AccountRegistered{}, err
	}
	if e.account.AccountID == "" {
		s.accounts.forget(c.AccountID)
		return captable.AccountRegistered{}, kernel.Unauthenticated("the account no longer exists")
	}
	if c.KeyID == "" && !live(e.account.Sessions[c.SessionID], s.clock) {
		return captable.AccountRegistered{}, errSessionEnded
	}
	return e.account.AccountRegistered, nil
}

func live(sess *captable.Session, clock kernel.Clock) bool {
	return sess != nil && !sess.Revoked && !clock.Now().After(sess.ExpiresAt)
}

// Logout ends the caller's session: its access tokens and its refresh
// token stop working at once. An agent key is not a session and is
// refused (400).
func (s *Service) Logout(ctx context.Context, c Caller) error {
	if c.KeyID != "" || c.SessionID == "" {
		return kernel.Invalid("Authorization", "session_token",
			"logout ends a session: send the session's access token as Authorization: Bearer <accessToken>, not an agent key")
	}
	_, err := s.onAccount(ctx, c.AccountID, func(a *captable.Account) ([]kernel.Event, error) {
		if !live(a.Sessions[c.SessionID], s.clock) {
			return nil, errSessionEnded
		}
		return []kernel.Event{&captable.SessionRevoked{SessionID: c.SessionID, Reason: "logout", At: s.clock.Now()}}, nil
	})
	return err
}

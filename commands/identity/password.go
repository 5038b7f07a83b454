package identity

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// ChangePassword sets a new password for userID after checking the current
// one. Every token issued before the change stops working; the returned
// session is the caller's new one.
func (s *Service) ChangePassword(ctx context.Context, userID, current, next string) (Session, error) {
	if current == "" {
		return Session{}, kernel.Invalid("current_password", "required", "current_password is required")
	}
	if err := ident.CheckPassword("new_password", next); err != nil {
		return Session{}, err
	}
	u, err := s.loadUser(ctx, userID)
	if err != nil {
		return Session{}, err
	}
	if !u.Active {
		return Session{}, kernel.Unauthenticated("the account is not active")
	}
	ok, err := s.hasher.Verify(ctx, current, u.PasswordHash)
	if err != nil {
		return Session{}, err
	}
	if !ok {
		return Session{}, kernel.Invalid("current_password", "matches", "current_password is incorrect")
	}
	hash, err := s.hasher.Hash(ctx, next)
	if err != nil {
		return Session{}, err
	}
	ev := &ident.PasswordChanged{UserID: u.ID, PasswordHash: hash, SecurityStamp: u.SecurityStamp + 1, At: s.clock.Now()}
	if err := s.appendUser(ctx, u.ID, u.Version, ev); err != nil {
		return Session{}, err
	}
	u.Apply(ev)
	return s.session(*u)
}

// Forgot-password limits: per client address (429 when exceeded) and per
// email address (further requests are answered the same way but mail
// nothing, so a victim's mailbox cannot be flooded and the answer still
// says nothing about the account).
const (
	ForgotClientLimit = 20
	ForgotEmailLimit  = 3
	ForgotWindow      = time.Hour
)

// ForgotPassword queues a reset mail for email and returns at once, whatever
// the address: the caller learns nothing (not even from timing) about
// whether an account exists. The queue is worked off in the background.
func (s *Service) ForgotPassword(ctx context.Context, email, client string) error {
	norm, err := ident.NormalizeEmail("email", email)
	if err != nil {
		return err
	}
	if wait, ok := s.limiter.Take("forgot-client:"+client, ForgotClientLimit, ForgotWindow); !ok {
		return &Throttled{RetryAfter: wait, Message: fmt.Sprintf("too many password reset requests from this client; try again in %d seconds", int(wait.Seconds())+1)}
	}
	if _, ok := s.limiter.Take("forgot-email:"+norm, ForgotEmailLimit, ForgotWindow); !ok {
		return nil
	}
	select {
	case s.resets <- norm:
	default:
		s.log.Warn("password reset queue is full; request dropped")
	}
	return nil
}

// runResets issues reset tokens and mails them, one request at a time.
func (s *Service) runResets(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case email := <-s.resets:
			if err := s.issueReset(ctx, email); err != nil && ctx.Err() == nil {
				s.log.Error("password reset", "err", err)
			}
		}
	}
}

// issueReset records a reset token for the account behind email, if any,
// and mails it. The token is single use, valid for an hour, and supersedes
// any earlier one; only its SHA-256 is stored.
func (s *Service) issueReset(ctx context.Context, email string) error {
	u, ok := s.dir.UserByEmail(email)
	if !ok || !u.Active || u.Temporary {
		return nil
	}
	token := randomURLSafe(32)
	now := s.clock.Now()
	ev := &ident.PasswordResetRequested{UserID: u.ID, TokenHash: sha256Hex(token), ExpiresAt: now.Add(ident.ResetTokenTTL), At: now}
	if err := s.appendUser(ctx, u.ID, eventstore.AnyVersion, ev); err != nil {
		return err
	}
	link := s.cfg.ResetURL + "?token=" + url.QueryEscape(token)
	return s.mailer.Send(ctx, mail.Message{To: u.Email, Subject: "Reset your Strata password",
		Text: fmt.Sprintf("Someone asked to reset the password of your Strata account.\n\n"+
			"Open this link within one hour to choose a new password:\n%s\n\n"+
			"Or send the token to the API: POST /api/v1/auth/reset-password {\"token\": \"%s\", \"new_password\": \"...\"}\n\n"+
			"If it was not you, ignore this message; your password stays as it is.\n", link, token)})
}

// ResetPassword sets a new password with a reset token. The token works
// once, within an hour, and only while no newer token was issued; every
// token issued before the reset stops working.
func (s *Service) ResetPassword(ctx context.Context, token, next string) error {
	if token == "" {
		return kernel.Invalid("token", "required", "token is required")
	}
	if err := ident.CheckPassword("new_password", next); err != nil {
		return err
	}
	hash := sha256Hex(token)
	found, ok := s.dir.UserByResetToken(hash)
	if !ok {
		return (&ident.User{}).CanReset(hash, s.clock.Now())
	}
	u, err := s.loadUser(ctx, found.ID)
	if err != nil {
		return err
	}
	if err := u.CanReset(hash, s.clock.Now()); err != nil {
		return err
	}
	pw, err := s.hasher.Hash(ctx, next)
	if err != nil {
		return err
	}
	ev := &ident.PasswordResetCompleted{UserID: u.ID, TokenHash: hash, PasswordHash: pw, SecurityStamp: u.SecurityStamp + 1, At: s.clock.Now()}
	err = s.appendUser(ctx, u.ID, u.Version, ev)
	if errors.Is(err, kernel.ErrConflict) { // used concurrently, or a newer token arrived
		return (&ident.User{}).CanReset(hash, s.clock.Now())
	}
	return err
}

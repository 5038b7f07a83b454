package identity

import (
	"context"
	"strings"
	"unicode/utf8"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// socialScope is the uniqueness scope of linked social identities
// (provider + ":" + subject): one subject signs in to one account.
const socialScope = "identity.social"

// socialAccount returns the account p signs in to: the one linked to the
// provider's subject; else the one with p's verified email, which is
// linked now; else a new account (email verified, no password) linked to
// it. The provider must have verified the email. A sign-in that loses a
// race with another sign-in or registration of the same email or subject
// looks again once.
func (s *Service) socialAccount(ctx context.Context, p socialProfile) (ident.User, error) {
	if strings.TrimSpace(p.Email) == "" || !p.EmailVerified {
		return ident.User{}, kernel.Forbidden(providerLabel(p.Provider) +
			" has not verified the email address of this account; verify it there, then sign in again")
	}
	key, err := ident.NormalizeEmail("email", p.Email)
	if err != nil {
		return ident.User{}, kernel.Unavailable(providerLabel(p.Provider)+" gave an email address Strata cannot use", nil)
	}
	for attempt := 0; ; attempt++ {
		u, err := s.findOrCreateSocial(ctx, key, p)
		if kernel.KindOf(err) == kernel.KindConflict && attempt == 0 {
			continue
		}
		return u, err
	}
}

func (s *Service) findOrCreateSocial(ctx context.Context, key string, p socialProfile) (ident.User, error) {
	if u, ok := s.dir.SocialUser(p.Provider, p.Subject); ok {
		return u, socialUsable(u)
	}
	if u, ok := s.dir.UserByEmail(key); ok {
		if err := socialUsable(u); err != nil {
			return ident.User{}, err
		}
		return s.linkSocial(ctx, u.ID, p)
	}
	name := strings.TrimSpace(p.Name)
	if name == "" {
		name, _, _ = strings.Cut(strings.TrimSpace(p.Email), "@")
	}
	if utf8.RuneCountInString(name) > ident.MaxNameLen {
		name = string([]rune(name)[:ident.MaxNameLen])
	}
	return s.createAccount(ctx, newAccount{Email: strings.TrimSpace(p.Email), Key: key, FullName: name, EmailVerified: true},
		func(t *txn, u *ident.User) error {
			ev := p.linked(u.ID, s.clock)
			if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: u.ID}, u.Version, ev); err != nil {
				return err
			}
			u.Apply(ev)
			return claimSocial(ctx, t, p, u.ID)
		})
}

// linkSocial links p to the existing account userID.
func (s *Service) linkSocial(ctx context.Context, userID string, p socialProfile) (ident.User, error) {
	u, err := s.loadUser(ctx, userID) // the store's version, not the directory's
	if err != nil {
		return ident.User{}, err
	}
	if err := socialUsable(*u); err != nil {
		return ident.User{}, err
	}
	ev := p.linked(u.ID, s.clock)
	err = s.write(ctx, func(t *txn) error {
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: u.ID}, u.Version, ev); err != nil {
			return err
		}
		return claimSocial(ctx, t, p, u.ID)
	})
	if err != nil {
		return ident.User{}, err
	}
	u.Apply(ev)
	return *u, nil
}

func claimSocial(ctx context.Context, t *txn, p socialProfile, userID string) error {
	return eventstore.Claim(ctx, t.sql, socialScope, p.Provider+":"+p.Subject, userID, p.Provider)
}

func (p socialProfile) linked(userID string, clock kernel.Clock) *ident.SocialIdentityLinked {
	return &ident.SocialIdentityLinked{UserID: userID, Provider: p.Provider, Subject: p.Subject,
		Email: strings.TrimSpace(p.Email), EmailVerified: p.EmailVerified, Name: p.Name, Picture: p.Picture, At: clock.Now()}
}

// socialUsable refuses a deactivated or temporary account.
func socialUsable(u ident.User) error {
	switch {
	case u.Temporary:
		return kernel.Forbidden("this is a temporary trial identity; it cannot sign in with a social provider")
	case !u.Active:
		return kernel.Forbidden("this account has been deactivated")
	}
	return nil
}

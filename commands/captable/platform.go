package captable

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// PlatformUser is who a verified platform access token names.
type PlatformUser struct {
	ID            string
	Email         string
	EmailVerified bool
	Name          string
}

// PlatformTokenVerifier verifies a platform access token exactly as the
// platform's own routes do (signature, issuer, expiry, logout, the security
// stamp a password change raised, a revoked OAuth grant, an active account)
// and says whom it names. cmd/strata wires it to the platform's
// authenticator; the cap table does not import the identity context. A
// token the platform would refuse gives an unauthenticated error.
type PlatformTokenVerifier interface {
	VerifyPlatformToken(ctx context.Context, token string) (PlatformUser, error)
}

// PlatformLoginInput is the body of POST /auth/platform-login.
type PlatformLoginInput struct {
	AccessToken string `json:"accessToken"`
	CompanyName string `json:"companyName"`
}

// PlatformLogin signs a platform user in to the cap table: the account
// linked to the platform user, else the cap-table account with the same
// email when the platform has verified that email (it is linked), else a
// new account (with a new company, companyName or "<name>'s company").
// An existing cap-table account whose email the platform has not verified
// is never linked: that is a conflict, the user signs in with its password.
func (s *Service) PlatformLogin(ctx context.Context, in PlatformLoginInput) (Registered, bool, error) {
	if s.cfg.PlatformTokens == nil {
		return Registered{}, false, kernel.Unavailable("platform sign-in is not configured", nil)
	}
	if strings.TrimSpace(in.AccessToken) == "" {
		return Registered{}, false, kernel.Invalid("accessToken", "required", "accessToken is required (a platform access token)")
	}
	user, err := s.cfg.PlatformTokens.VerifyPlatformToken(ctx, in.AccessToken)
	if kernel.KindOf(err) == kernel.KindUnauthenticated {
		return Registered{}, false, kernel.Unauthenticated("the platform access token is invalid, expired or revoked (logged out, or issued before a password change)")
	}
	if err != nil {
		return Registered{}, false, fmt.Errorf("platform login: %w", err)
	}
	if id, found, err := s.owner(ctx, scopePlatform, user.ID); err != nil {
		return Registered{}, false, err
	} else if found {
		return s.signInExisting(ctx, id, "platform")
	}
	email := strings.ToLower(user.Email)
	if email != "" {
		id, found, err := s.owner(ctx, scopeEmail, email)
		if err != nil {
			return Registered{}, false, err
		}
		if found {
			if !user.EmailVerified {
				return Registered{}, false, &kernel.Error{Kind: kernel.KindConflict, Field: "email", Rule: "unverified_link",
					Message: "a cap-table account with this email exists and the platform has not verified the email; sign in with the cap-table password"}
			}
			if err := s.link(ctx, id, user.ID); err != nil {
				return Registered{}, false, err
			}
			return s.signInExisting(ctx, id, "platform")
		}
	}
	name := strings.TrimSpace(user.Name)
	if name == "" {
		name = email
	}
	company := strings.TrimSpace(in.CompanyName)
	if company == "" {
		company = name + "'s company"
	}
	reg, err := s.open(ctx, captable.AccountRegistered{Kind: captable.KindUser, Name: name, Email: email,
		PlatformUserID: user.ID}, company, "platform")
	return reg, true, err
}

func (s *Service) signInExisting(ctx context.Context, id, method string) (Registered, bool, error) {
	acct, err := s.Account(ctx, id)
	if err != nil {
		return Registered{}, false, err
	}
	t, err := s.startSession(ctx, id, method)
	return Registered{AccountID: id, CompanyID: acct.CompanyID, Tokens: t}, false, err
}

// link records the platform user on the account and claims it, in one
// transaction: a platform user links to one account only.
func (s *Service) link(ctx context.Context, accountID, platformUser string) error {
	return s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.store.AppendTx(ctx, tx, eventstore.Stream{Type: captable.StreamAccount, ID: accountID}, eventstore.AnyVersion,
			&captable.PlatformLinked{AccountID: accountID, PlatformUserID: platformUser, At: s.clock.Now()}); err != nil {
			return err
		}
		return eventstore.Claim(ctx, tx, scopePlatform, platformUser, accountID, "platformUserId")
	})
}

package identity

import (
	"context"
	"strings"
	"unicode/utf8"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// emailScope is the uniqueness scope of account emails (lower case).
const emailScope = "identity.email"

// Register is the input of the register command.
type Register struct {
	Email           string
	Password        string
	FullName        string
	StripeSessionID string
	// Client is the caller's address: confirmations of a checkout with
	// the payment provider are limited per client.
	Client string
}

// Session is an issued access token and the account it belongs to.
type Session struct {
	User        ident.User
	AccessToken string
	TokenID     string
	ExpiresIn   int64
}

// Register creates an account with role USER on the free plan, its default
// workspace (organization) and default project, and signs it in. Emails are
// unique case-insensitively: the claim on the lower-cased address is written
// in the same transaction, so of concurrent registrations one wins and the
// others get a conflict on field email. With a StripeSessionID it completes
// the account that checkout provisioned instead (registerWithCheckout).
func (s *Service) Register(ctx context.Context, in Register) (Session, error) {
	email, err := ident.NormalizeEmail("email", in.Email)
	if err != nil {
		return Session{}, err
	}
	name := strings.TrimSpace(in.FullName)
	if name == "" {
		return Session{}, kernel.Invalid("full_name", "required", "full_name is required")
	}
	if utf8.RuneCountInString(name) > ident.MaxNameLen {
		return Session{}, kernel.Invalid("full_name", "max_length:200", "full_name is longer than 200 characters")
	}
	if err := ident.CheckPassword("password", in.Password); err != nil {
		return Session{}, err
	}
	if len(in.StripeSessionID) > 255 {
		return Session{}, kernel.Invalid("stripe_session_id", "max_length:255", "stripe_session_id is longer than 255 characters")
	}
	if strings.TrimSpace(in.StripeSessionID) != "" {
		return s.registerWithCheckout(ctx, in, email, name)
	}
	if _, taken := s.dir.UserByEmail(email); taken { // fast path; the claim below decides
		return Session{}, emailTaken()
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return Session{}, err
	}
	u, err := s.createAccount(ctx, newAccount{Email: strings.TrimSpace(in.Email), Key: email, FullName: name,
		PasswordHash: hash, StripeSessionID: in.StripeSessionID}, nil)
	if err != nil {
		return Session{}, err
	}
	return s.session(u)
}

// newAccount is an account to create.
type newAccount struct {
	Email           string // as given (trimmed)
	Key             string // its comparison form (ident.NormalizeEmail), claimed unique
	FullName        string
	PasswordHash    string // empty: no password sign-in (social accounts)
	StripeSessionID string
	EmailVerified   bool
	Provisioned     bool   // from a paid checkout, awaiting completion
	Workspace       string // the default workspace's name; empty: named after FullName
}

// createAccount creates a user with role USER on the free plan, its
// default workspace (organization) and default project, in one
// transaction with the claim on its email. then, if not nil, runs last in
// the same transaction: it may append to the user's stream (at u.Version)
// and must Apply what it appends to u.
func (s *Service) createAccount(ctx context.Context, a newAccount, then func(t *txn, u *ident.User) error) (ident.User, error) {
	now := s.clock.Now()
	userID, orgID, projectID := s.cfg.NewUserID(), s.cfg.NewUserID(), s.cfg.NewUserID()
	reg := &ident.UserRegistered{UserID: userID, Email: a.Email, FullName: a.FullName, PasswordHash: a.PasswordHash,
		Role: ident.RoleUser, Plan: ident.PlanFree, OrganizationID: orgID, ProjectID: projectID,
		StripeSessionID: a.StripeSessionID, EmailVerified: a.EmailVerified, Provisioned: a.Provisioned, At: now}
	if a.Workspace == "" {
		a.Workspace = workspaceName(a.FullName)
	}
	org := &ident.OrganizationCreated{OrganizationID: orgID, Name: a.Workspace, OwnerID: userID,
		ProjectID: projectID, ProjectName: "Default project", At: now}
	var u ident.User
	err := s.write(ctx, func(t *txn) error {
		u = ident.User{}
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: userID}, eventstore.NoStream, reg); err != nil {
			return err
		}
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, eventstore.NoStream, org); err != nil {
			return err
		}
		if err := eventstore.Claim(ctx, t.sql, emailScope, a.Key, userID, "email"); err != nil {
			if kernel.KindOf(err) == kernel.KindConflict {
				return emailTaken()
			}
			return err
		}
		u.Apply(reg)
		if then != nil {
			return then(t, &u)
		}
		return nil
	})
	if err != nil {
		return ident.User{}, err
	}
	return u, nil
}

func emailTaken() error {
	return &kernel.Error{Kind: kernel.KindConflict, Field: "email", Rule: "unique",
		Message: "an account with this email already exists"}
}

func workspaceName(fullName string) string {
	first, _, _ := strings.Cut(fullName, " ")
	return first + "'s workspace"
}

// session issues an access token for u.
func (s *Service) session(u ident.User) (Session, error) {
	tok, jti, _, err := s.tokens.Issue(u)
	if err != nil {
		return Session{}, err
	}
	return Session{User: u, AccessToken: tok, TokenID: jti, ExpiresIn: int64(ident.AccessTokenTTL.Seconds())}, nil
}

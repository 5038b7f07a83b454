package identity

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net/url"

	"github.com/strata-platform/strata/commands/crm"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// jobContext names the actor and the correlation of a provisioning job's
// events.
func jobContext(ctx context.Context, correlation string) context.Context {
	return eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: "identity", CorrelationID: correlation})
}

// provisionJob works identity.provision_checkout: provision, with the
// job's completion in the transaction that records the result. A checkout
// that is not paid, or names no usable email, is given up at once.
func (s *Service) provisionJob(ctx context.Context, job *jobs.Job[ProvisionCheckoutArgs]) error {
	sid := job.Args.SessionID
	ctx = jobContext(ctx, sid)
	co, err := s.prov.checkouts.Checkout(ctx, sid)
	if err != nil {
		return err
	}
	if co.State != CheckoutPaid {
		return jobs.Permanent(fmt.Errorf("checkout %s is not paid: nothing to provision", sid))
	}
	_, err = s.provision(ctx, co, nil, func(tx *stdsql.Tx) error { return jobs.CompleteTx(ctx, tx, job) })
	if kernel.KindOf(err) == kernel.KindInvalid {
		return jobs.Permanent(err)
	}
	return err
}

// loadForJob loads a job's account; an account that does not exist gives
// the job up.
func (s *Service) loadForJob(ctx context.Context, userID string) (*ident.User, error) {
	u, err := s.loadUser(ctx, userID)
	if kernel.KindOf(err) == kernel.KindNotFound {
		return nil, jobs.Permanent(err)
	}
	return u, err
}

// setPasswordMailJob works identity.set_password_mail: while the account
// awaits completion, it records a set-password token (a reset token with
// purpose set_password, valid ident.SetPasswordTokenTTL, only its SHA-256
// kept) and mails the link. The token is recorded before the mail is sent,
// so every mailed link works; a retry after a failed send mails a new
// token, which supersedes the unsent one. An account completed meanwhile
// gets no mail.
func (s *Service) setPasswordMailJob(ctx context.Context, job *jobs.Job[SetPasswordMailArgs]) error {
	ctx = jobContext(ctx, job.Args.UserID)
	u, err := s.loadForJob(ctx, job.Args.UserID)
	if err != nil {
		return err
	}
	if !u.Active || !u.AwaitingCompletion {
		return nil
	}
	token := randomURLSafe(32)
	now := s.clock.Now()
	ev := &ident.PasswordResetRequested{UserID: u.ID, TokenHash: sha256Hex(token), ExpiresAt: now.Add(ident.SetPasswordTokenTTL),
		Purpose: ident.PurposeSetPassword, At: now}
	var notVisible *NotVisible
	if err := s.appendUser(ctx, u.ID, u.Version, ev); err != nil && !errors.As(err, &notVisible) {
		return err // a conflict: the account moved; the retry looks again
	}
	link := s.cfg.ResetURL + "?token=" + url.QueryEscape(token)
	return s.mailer.Send(ctx, mail.Message{To: u.Email, Subject: "Your Strata account is ready: choose your password",
		Text: fmt.Sprintf("Thank you for your purchase. We created your Strata account for %s.\n\n"+
			"Open this link within 7 days to choose your password:\n%s\n\n"+
			"Or send the token to the API: POST /api/v1/auth/reset-password {\"token\": \"%s\", \"new_password\": \"...\"}\n\n"+
			"After 7 days, ask for a new link with \"Forgot password\".\n", u.Email, link, token)})
}

// welcomeMailJob works identity.welcome_mail (WelcomeDelay after the
// checkout): a welcome to an active account, reminding an account still
// awaiting completion how to choose its password.
func (s *Service) welcomeMailJob(ctx context.Context, job *jobs.Job[WelcomeMailArgs]) error {
	u, err := s.loadForJob(jobContext(ctx, job.Args.UserID), job.Args.UserID)
	if err != nil {
		return err
	}
	if !u.Active {
		return nil
	}
	hello := "Hello"
	if u.FullName != "" {
		hello += " " + u.FullName
	}
	text := hello + ",\n\nwelcome to Strata. Your account " + u.Email + " and its workspace are ready: sign in to create API keys, " +
		"projects and agents.\n"
	if u.AwaitingCompletion {
		text += "\nYou have not chosen a password yet: use the link we mailed you after your purchase, " +
			"or ask for a new one with \"Forgot password\".\n"
	}
	return s.mailer.Send(ctx, mail.Message{To: u.Email, Subject: "Welcome to Strata", Text: text})
}

// crmJob works identity.crm_sync: the account and what its checkout
// bought go to the CRM (source "checkout"). A CRM that refuses the
// contact itself (crm.Permanent) gives the job up; anything else is
// retried with the jobs' backoff.
func (s *Service) crmJob(ctx context.Context, job *jobs.Job[CRMSyncArgs]) error {
	ctx = jobContext(ctx, job.Args.SessionID)
	u, err := s.loadForJob(ctx, job.Args.UserID)
	if err != nil {
		return err
	}
	co, err := s.prov.checkouts.Checkout(ctx, job.Args.SessionID)
	if err != nil {
		return err
	}
	name := u.FullName
	if name == "" {
		name = co.Name
	}
	err = s.prov.crm.Sync(ctx, crm.Contact{Email: u.Email, Name: name, Source: crm.SourceCheckout, ProductLine: co.ProductLine,
		Plan: co.Plan, UTM: co.UTM, AccountID: u.ID})
	if crm.Permanent(err) {
		return jobs.Permanent(err)
	}
	return err
}

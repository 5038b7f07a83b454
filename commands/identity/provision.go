package identity

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// maxProvisionRetries bounds how often provisioning is decided again after
// a concurrent one (the same checkout, or the same email) won.
const maxProvisionRetries = 5

// completion is the owner's own name and password hash, when the owner
// registers with the session before its account was provisioned.
type completion struct {
	FullName     string
	PasswordHash string
}

// provisioned is the account a checkout is.
type provisioned struct {
	Account ident.CheckoutAccount
	// User is the account this call created (Created), else zero.
	User    ident.User
	Created bool
}

// provision makes sure a paid checkout has its account, once per session
// however often and however concurrently it is asked:
//   - a session already provisioned or linked is left as it is;
//   - a session naming an active account (a signed-in buyer), or whose
//     payer's email has an account, is linked to it
//     (identity.checkout_linked) and no account is created;
//   - otherwise a new account is created as register does (role USER, the
//     free plan, a default workspace and project), with the payer's email
//     and name, a random password nobody knows (argon2id-hashed like every
//     password), marked as awaiting completion, and
//     identity.checkout_provisioned; in the same transaction the
//     set-password mail, the welcome mail (WelcomeDelay later) and the CRM
//     sync are enqueued. With done (the owner registering now) the account
//     is completed in the same transaction and no set-password mail goes
//     out.
//
// The checkout stream's first event, appended at NoStream, is what makes
// it once: of concurrent provisionings one commits and the others, refused
// on that append or on the email's claim, find its result. inTx, when set,
// runs last in the transaction that records the result (a job's
// completion), or in one of its own when the result was recorded before.
func (s *Service) provision(ctx context.Context, co Checkout, done *completion, inTx func(tx *stdsql.Tx) error) (provisioned, error) {
	stream := eventstore.Stream{Type: ident.StreamCheckout, ID: ident.CheckoutStream(co.SessionID)}
	for attempt := 0; ; attempt++ {
		acc, err := s.checkoutAccount(ctx, co.SessionID)
		if err != nil {
			return provisioned{}, err
		}
		if acc.UserID != "" {
			if inTx != nil {
				if err := eventstore.RunInTx(ctx, s.store.DB(), nil, inTx); err != nil {
					return provisioned{}, err
				}
			}
			return provisioned{Account: acc}, nil
		}
		if co.State != CheckoutPaid {
			return provisioned{}, unpaidSession()
		}
		key, err := ident.NormalizeEmail("email", co.Email)
		if err != nil {
			return provisioned{}, noPayerEmail()
		}
		target, reason, err := s.existingAccount(ctx, co.AccountID, key)
		if err != nil {
			return provisioned{}, err
		}
		var out provisioned
		if target != "" {
			err = s.write(ctx, func(t *txn) error {
				ev := &ident.CheckoutLinked{SessionID: co.SessionID, UserID: target, Reason: reason, At: s.clock.Now()}
				if err := t.append(ctx, stream, eventstore.NoStream, ev); err != nil {
					return err
				}
				if err := s.accountOf(ctx, t.sql, target, co); err != nil {
					return err
				}
				if inTx != nil {
					return inTx(t.sql)
				}
				return nil
			})
			out = provisioned{Account: ident.CheckoutAccount{UserID: target, Reason: reason, Version: 1}}
		} else {
			out, err = s.createForCheckout(ctx, co, key, stream, done, inTx)
		}
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxProvisionRetries {
			continue // another provisioning of this checkout, or an account with this email, won: look again
		}
		if err != nil {
			return provisioned{}, fmt.Errorf("provision checkout %s: %w", co.SessionID, err)
		}
		return out, nil
	}
}

// createForCheckout creates the account of a new customer (see provision).
func (s *Service) createForCheckout(ctx context.Context, co Checkout, key string, stream eventstore.Stream, done *completion,
	inTx func(tx *stdsql.Tx) error) (provisioned, error) {
	name := strings.TrimSpace(co.Name)
	if utf8.RuneCountInString(name) > ident.MaxNameLen {
		name = string([]rune(name)[:ident.MaxNameLen])
	}
	workspace := "My workspace"
	hash := ""
	if done != nil {
		workspace, hash = workspaceName(done.FullName), done.PasswordHash
	} else {
		if name != "" {
			workspace = workspaceName(name)
		}
		var err error
		if hash, err = s.hasher.Hash(ctx, randomURLSafe(32)); err != nil { // a temporary password nobody sees
			return provisioned{}, err
		}
	}
	u, err := s.createAccount(ctx, newAccount{Email: strings.TrimSpace(co.Email), Key: key, FullName: name, PasswordHash: hash,
		StripeSessionID: co.SessionID, Provisioned: true, Workspace: workspace}, func(t *txn, u *ident.User) error {
		now := s.clock.Now()
		if err := t.append(ctx, stream, eventstore.NoStream, &ident.CheckoutProvisioned{SessionID: co.SessionID, UserID: u.ID,
			OrganizationID: u.OrganizationID, At: now}); err != nil {
			return err
		}
		if done != nil {
			ev := &ident.AccountCompleted{UserID: u.ID, SessionID: co.SessionID, FullName: done.FullName,
				PasswordHash: done.PasswordHash, SecurityStamp: u.SecurityStamp + 1, At: now}
			if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: u.ID}, u.Version, ev); err != nil {
				return err
			}
			u.Apply(ev)
		}
		if err := s.enqueueFollowUps(ctx, t.sql, u.ID, co.SessionID, done == nil); err != nil {
			return err
		}
		if err := s.accountOf(ctx, t.sql, u.ID, co); err != nil {
			return err
		}
		if inTx != nil {
			return inTx(t.sql)
		}
		return nil
	})
	if err != nil {
		return provisioned{}, err
	}
	return provisioned{Account: ident.CheckoutAccount{UserID: u.ID, Created: true, Version: 1}, User: u, Created: true}, nil
}

// existingAccount returns the account a checkout belongs to without
// provisioning: the active account the session names, else the one
// holding the payer's email.
func (s *Service) existingAccount(ctx context.Context, accountID, emailKey string) (string, string, error) {
	if accountID != "" {
		u, err := s.loadUser(ctx, accountID)
		switch {
		case err == nil && u.ID == accountID && u.Active:
			return accountID, ident.LinkSignedIn, nil
		case err != nil && kernel.KindOf(err) != kernel.KindNotFound:
			return "", "", err
		}
	}
	owner, err := eventstore.ClaimOwner(ctx, s.store.DB(), emailScope, emailKey)
	if err != nil || owner == "" {
		return "", "", err
	}
	return owner, ident.LinkEmail, nil
}

// checkoutAccount folds a checkout's stream from the store.
func (s *Service) checkoutAccount(ctx context.Context, sessionID string) (ident.CheckoutAccount, error) {
	var acc ident.CheckoutAccount
	envs, err := s.store.Load(ctx, ident.CheckoutStream(sessionID), eventstore.LoadOptions{})
	if err != nil {
		return acc, fmt.Errorf("load checkout %s: %w", sessionID, err)
	}
	for _, e := range envs {
		acc.Apply(e.Event)
	}
	return acc, nil
}

// accountOf runs Provisioning.OnAccount, if set, in tx.
func (s *Service) accountOf(ctx context.Context, tx *stdsql.Tx, accountID string, co Checkout) error {
	if s.prov == nil || s.prov.onAccount == nil {
		return nil
	}
	return s.prov.onAccount(ctx, tx, accountID, co)
}

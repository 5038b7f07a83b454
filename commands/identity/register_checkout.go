package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

// maxCompleteRetries bounds how often a completion is decided again after
// the account's stream moved under it.
const maxCompleteRetries = 3

// registerWithCheckout is Register with a stripe_session_id: the owner of
// the account a paid checkout provisioned completes it (their name and
// password: identity.account_completed) and is signed in, with the same
// account id; no second account is created. The checks, in order:
//   - an id Stripe would not issue, or one no checkout has (recorded, or
//     known to the provider when asked): 400 unknown_session;
//   - a checkout not paid: 402 unpaid_session;
//   - an email that is not the checkout's payer's (case-insensitively):
//     400 on email, so holding a session id alone never takes an account;
//   - an account already completed (registered, or its password set with
//     the mailed link), or a checkout that was linked to an existing
//     account: 409 session_used.
//
// A buyer back from the payment page before the provider's webhook was
// processed has no account yet: the payment provider is asked
// (Checkouts.Confirm, at most CheckoutConfirmLimit per client an hour),
// and a paid session is provisioned and completed in one transaction, as
// the webhook's job would have provisioned it (once, whichever comes
// first).
func (s *Service) registerWithCheckout(ctx context.Context, in Register, email, name string) (Session, error) {
	if s.prov == nil {
		return Session{}, kernel.Unavailable("registration with stripe_session_id is not available: checkout provisioning is not running", nil)
	}
	sid := strings.TrimSpace(in.StripeSessionID)
	if !plausibleSessionID(sid) {
		return Session{}, unknownSession()
	}
	hash := ""
	hashed := func() (string, error) {
		var err error
		if hash == "" {
			hash, err = s.hasher.Hash(ctx, in.Password)
		}
		return hash, err
	}
	acc, err := s.checkoutAccount(ctx, sid)
	if err != nil {
		return Session{}, err
	}
	if acc.UserID == "" {
		co, err := s.prov.checkouts.Checkout(ctx, sid)
		if err != nil {
			return Session{}, err
		}
		if co.State == CheckoutUnknown || co.State == CheckoutOpen {
			if wait, ok := s.limiter.Take("checkout-confirm:"+in.Client, CheckoutConfirmLimit, CheckoutConfirmWindow); !ok {
				return Session{}, &Throttled{RetryAfter: wait, Message: fmt.Sprintf(
					"too many checkout confirmations from this client; try again in %d seconds", int(wait.Seconds())+1)}
			}
			if co, err = s.prov.checkouts.Confirm(ctx, sid); err != nil {
				return Session{}, err
			}
		}
		switch co.State {
		case CheckoutUnknown:
			return Session{}, unknownSession()
		case CheckoutOpen, CheckoutUnpaid:
			return Session{}, unpaidSession()
		}
		if !strings.EqualFold(strings.TrimSpace(co.Email), email) {
			return Session{}, ident.CheckoutEmailMismatch()
		}
		h, err := hashed()
		if err != nil {
			return Session{}, err
		}
		p, err := s.provision(ctx, co, &completion{FullName: name, PasswordHash: h}, nil)
		if err != nil {
			return Session{}, err
		}
		if p.Created {
			return s.session(p.User)
		}
		acc = p.Account // provisioned meanwhile by its job, or linked to an existing account
	}
	for attempt := 0; ; attempt++ {
		u, err := s.loadUser(ctx, acc.UserID)
		if err != nil {
			return Session{}, err
		}
		if err := acc.CanComplete(u, email); err != nil {
			return Session{}, err
		}
		h, err := hashed()
		if err != nil {
			return Session{}, err
		}
		ev := &ident.AccountCompleted{UserID: u.ID, SessionID: sid, FullName: name, PasswordHash: h,
			SecurityStamp: u.SecurityStamp + 1, At: s.clock.Now()}
		err = s.appendUser(ctx, u.ID, u.Version, ev)
		if errors.Is(err, kernel.ErrConflict) && attempt < maxCompleteRetries {
			continue // completed concurrently (then refused above), or another event moved the account
		}
		if err != nil {
			return Session{}, err
		}
		u.Apply(ev)
		return s.session(*u)
	}
}

// plausibleSessionID reports whether id looks like a Stripe checkout
// session id ("cs_" and letters, digits, underscores), so nothing else is
// ever sent to the provider.
func plausibleSessionID(id string) bool {
	if !strings.HasPrefix(id, "cs_") || len(id) > 255 {
		return false
	}
	for _, r := range id {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

package identity

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamCheckout is the stream type of a paid checkout's account: one
// stream per checkout session (id CheckoutStream), whose first and only
// event says which account the checkout is (CheckoutProvisioned or
// CheckoutLinked). Appending it at NoStream is what makes provisioning
// happen once per session, however often it is asked for.
const StreamCheckout = "identity.checkout"

// CheckoutStream is the stream id of a checkout session's account.
func CheckoutStream(sessionID string) string { return "identity-checkout:" + sessionID }

// SetPasswordTokenTTL is how long the set-password link mailed to an
// account provisioned from a checkout works: a week, since a buyer may
// open the mail days later (the welcome mail a day later points to it);
// after it, forgot-password mails a fresh one-hour link.
const SetPasswordTokenTTL = 7 * 24 * time.Hour

// Reset purposes (PasswordResetRequested.Purpose): a reset asked for with
// forgot-password (empty), or the first password of an account provisioned
// from a checkout.
const PurposeSetPassword = "set_password"

// Why a checkout was linked to an existing account (CheckoutLinked.Reason).
const (
	LinkSignedIn = "signed_in" // the session names the signed-in buyer's account
	LinkEmail    = "email"     // the payer's email has an account
)

// CheckoutProvisioned: a paid checkout created a new account (UserRegistered
// with Provisioned set, in the same transaction), awaiting completion by
// its owner.
type CheckoutProvisioned struct {
	SessionID      string    `json:"session_id"`
	UserID         string    `json:"user_id"`
	OrganizationID string    `json:"organization_id"`
	At             time.Time `json:"at"`
}

// CheckoutLinked: a paid checkout belongs to an existing account (the
// signed-in buyer's, or the one with the payer's email); no account was
// created.
type CheckoutLinked struct {
	SessionID string    `json:"session_id"`
	UserID    string    `json:"user_id"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
}

// AccountCompleted: the owner of an account provisioned from a checkout
// registered with that checkout's session id, choosing the name and the
// password (tokens issued before stop working, and the set-password link
// with them).
type AccountCompleted struct {
	UserID        string    `json:"user_id"`
	SessionID     string    `json:"session_id"`
	FullName      string    `json:"full_name"`
	PasswordHash  string    `json:"password_hash"`
	SecurityStamp int64     `json:"security_stamp"`
	At            time.Time `json:"at"`
}

// EventType implementations.
func (CheckoutProvisioned) EventType() string { return "identity.checkout_provisioned" }
func (CheckoutLinked) EventType() string      { return "identity.checkout_linked" }
func (AccountCompleted) EventType() string    { return "identity.account_completed" }

func checkoutEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &CheckoutProvisioned{} },
		func() kernel.Event { return &CheckoutLinked{} },
		func() kernel.Event { return &AccountCompleted{} },
	}
}

// CheckoutAccount is the fold of a checkout's stream: the account the
// checkout is, and whether it was created for it.
type CheckoutAccount struct {
	UserID  string
	Created bool   // provisioned for the checkout (else linked)
	Reason  string // of a link
	Version int64
}

// Apply folds one event of the checkout's stream.
func (c *CheckoutAccount) Apply(e kernel.Event) {
	c.Version++
	switch ev := e.(type) {
	case *CheckoutProvisioned:
		c.UserID, c.Created = ev.UserID, true
	case *CheckoutLinked:
		c.UserID, c.Reason = ev.UserID, ev.Reason
	}
}

// CanComplete decides whether a registration with a checkout's session id
// and email completes u, the checkout's account: the account must have
// been provisioned for the checkout (a checkout linked to an account that
// existed is used: its owner signs in), the email must be the account's
// (the payer's), and the account must still await completion. A session
// id alone never takes an account.
func (c *CheckoutAccount) CanComplete(u *User, email string) error {
	if !c.Created {
		return SessionUsed()
	}
	if !strings.EqualFold(strings.TrimSpace(email), strings.TrimSpace(u.Email)) {
		return CheckoutEmailMismatch()
	}
	if !u.Active || !u.AwaitingCompletion {
		return SessionUsed()
	}
	return nil
}

// CheckoutEmailMismatch is the refusal of a registration whose email is
// not the one the checkout was paid with.
func CheckoutEmailMismatch() error {
	return kernel.Invalid("email", "checkout_email", "email must be the address the checkout was paid with")
}

// SessionUsed is the refusal of a checkout session whose account exists
// and is complete (registered, its password set, or an existing account
// the checkout was linked to).
func SessionUsed() error {
	return &kernel.Error{Kind: kernel.KindConflict, Field: "stripe_session_id", Rule: "session_used",
		Message: "this checkout's account is already set up; sign in instead"}
}

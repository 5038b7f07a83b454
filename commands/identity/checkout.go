package identity

import (
	"context"
	stdsql "database/sql"
	"errors"
	"time"

	"github.com/strata-platform/strata/commands/crm"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/kernel"
)

// CheckoutState says how far a checkout session got, as the payments
// context knows it.
type CheckoutState int

// Checkout states.
const (
	CheckoutUnknown CheckoutState = iota // nothing recorded (and the provider, when asked, knows no such session)
	CheckoutOpen                         // created but not completed, or expired unpaid
	CheckoutUnpaid                       // completed, its payment not settled
	CheckoutPaid                         // completed and paid (or nothing to pay)
)

// Checkout is what provisioning needs of a checkout session. Identity
// never imports the payments context: the composition root reads it from
// payments (the payer's data opened with the key ring) and hands it over
// through Checkouts.
type Checkout struct {
	SessionID   string
	State       CheckoutState
	Email       string // the payer's
	Name        string // the payer's, may be empty
	AccountID   string // the signed-in buyer's account the session names, if any
	ProductLine string
	Plan        string
	UTM         crm.UTM
}

// Checkouts reads checkout sessions for provisioning.
type Checkouts interface {
	// Checkout returns what is recorded about the session (State
	// CheckoutUnknown when nothing is).
	Checkout(ctx context.Context, sessionID string) (Checkout, error)
	// Confirm is Checkout for a buyer who may be back before the
	// provider's webhook: a session whose completion is not recorded is
	// asked of the payment provider, and recorded when it is complete
	// (which enqueues its provisioning as the webhook would have).
	Confirm(ctx context.Context, sessionID string) (Checkout, error)
}

// Provisioning is what EnableProvisioning needs.
type Provisioning struct {
	Jobs      *jobs.Service
	Checkouts Checkouts
	// CRM receives every provisioned account (crm.None when nil).
	CRM crm.Adapter
	// OnAccount, when set, runs in the transaction that records which
	// account a paid checkout belongs to (created for the buyer, or linked
	// to the signed-in buyer's or the payer email's account), so the work
	// that follows commits with it: the composition root puts the account
	// on the plan it bought.
	OnAccount func(ctx context.Context, tx *stdsql.Tx, accountID string, co Checkout) error
}

// provisioning is the running checkout provisioning.
type provisioning struct {
	jobs      *jobs.Service
	checkouts Checkouts
	crm       crm.Adapter
	onAccount func(ctx context.Context, tx *stdsql.Tx, accountID string, co Checkout) error
}

// WelcomeDelay is how long after a checkout provisioned an account its
// welcome mail goes out (the seed: 24 hours).
const WelcomeDelay = 24 * time.Hour

// Confirmations asked of the payment provider by registrations with a
// session id that is not recorded yet, per client address (429 above).
const (
	CheckoutConfirmLimit  = 20
	CheckoutConfirmWindow = time.Hour
)

// The provisioning jobs' arguments. They carry ids only: the jobs table is
// not crypto-shredded, so the payer's email and name are read when a job
// runs (from the account, and from payments through Checkouts).
type (
	// ProvisionCheckoutArgs provisions the account of a paid checkout.
	ProvisionCheckoutArgs struct {
		SessionID string `json:"session_id"`
	}
	// SetPasswordMailArgs mails a provisioned account its set-password link.
	SetPasswordMailArgs struct {
		UserID string `json:"user_id"`
	}
	// WelcomeMailArgs mails a provisioned account its welcome (a day later).
	WelcomeMailArgs struct {
		UserID string `json:"user_id"`
	}
	// CRMSyncArgs sends a provisioned account to the CRM.
	CRMSyncArgs struct {
		UserID    string `json:"user_id"`
		SessionID string `json:"session_id"`
	}
)

// Kind implementations: stable job kind names.
func (ProvisionCheckoutArgs) Kind() string { return "identity.provision_checkout" }
func (SetPasswordMailArgs) Kind() string   { return "identity.set_password_mail" }
func (WelcomeMailArgs) Kind() string       { return "identity.welcome_mail" }
func (CRMSyncArgs) Kind() string           { return "identity.crm_sync" }

// EnableProvisioning declares the provisioning job kinds on p.Jobs (before
// it starts) and turns on EnqueueProvisioning and registration with a
// stripe_session_id. Failed attempts are retried with the jobs' backoff
// until they are discarded (dead, for `strata jobs retry`).
func (s *Service) EnableProvisioning(p Provisioning) error {
	if p.Jobs == nil || p.Checkouts == nil {
		return errors.New("identity: provisioning needs the jobs service and a checkout source")
	}
	if p.CRM == nil {
		p.CRM = crm.None{}
	}
	if err := jobs.Handle(p.Jobs, s.provisionJob, jobs.KindOptions{}); err != nil {
		return err
	}
	if err := jobs.Handle(p.Jobs, s.setPasswordMailJob, jobs.KindOptions{}); err != nil {
		return err
	}
	if err := jobs.Handle(p.Jobs, s.welcomeMailJob, jobs.KindOptions{}); err != nil {
		return err
	}
	if err := jobs.Handle(p.Jobs, s.crmJob, jobs.KindOptions{}); err != nil {
		return err
	}
	s.prov = &provisioning{jobs: p.Jobs, checkouts: p.Checkouts, crm: p.CRM, onAccount: p.OnAccount}
	return nil
}

// EnqueueProvisioning enqueues the provisioning of a paid checkout's
// account inside tx (the transaction that records the checkout's
// completion), once per session: a second enqueue of the same session is
// a no-op while the first job is kept.
func (s *Service) EnqueueProvisioning(ctx context.Context, tx *stdsql.Tx, sessionID string) error {
	if s.prov == nil {
		return errors.New("identity: checkout provisioning is not enabled")
	}
	_, err := s.prov.jobs.Enqueue(ctx, tx, ProvisionCheckoutArgs{SessionID: sessionID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
	return err
}

// SetPasswordGrace is how long after a webhook-provisioned account its
// set-password mail waits: a buyer back from the payment page registers
// with the session within seconds, and the job, which sends only to an
// account still awaiting completion, then sends nothing (the registration
// raced the provisioning job before: a pointless mail could go out).
const SetPasswordGrace = 5 * time.Second

// enqueueFollowUps enqueues, inside the provisioning's transaction, what
// follows a new account: the set-password mail (unless its owner is
// setting the password right now), the welcome mail WelcomeDelay later,
// and the CRM sync.
func (s *Service) enqueueFollowUps(ctx context.Context, tx *stdsql.Tx, userID, sessionID string, setPassword bool) error {
	js := s.prov.jobs
	once := func(at time.Time) *jobs.Opts { return &jobs.Opts{At: at, Unique: &jobs.Unique{ByArgs: true}} }
	if setPassword {
		if _, err := js.Enqueue(ctx, tx, SetPasswordMailArgs{UserID: userID}, once(s.clock.Now().Add(SetPasswordGrace))); err != nil {
			return err
		}
	}
	if _, err := js.Enqueue(ctx, tx, WelcomeMailArgs{UserID: userID}, once(s.clock.Now().Add(WelcomeDelay))); err != nil {
		return err
	}
	_, err := js.Enqueue(ctx, tx, CRMSyncArgs{UserID: userID, SessionID: sessionID}, once(time.Time{}))
	return err
}

// checkoutProblem errors of a registration with a stripe_session_id.
func unknownSession() error {
	return kernel.Invalid("stripe_session_id", "unknown_session", "no checkout with this stripe_session_id is known")
}

func unpaidSession() error {
	return &kernel.Error{Kind: kernel.KindPaymentRequired, Field: "stripe_session_id", Rule: "unpaid_session",
		Message: "this checkout is not paid (yet); register once the payment went through"}
}

func noPayerEmail() error {
	return kernel.Invalid("stripe_session_id", "payer_email", "this checkout recorded no usable payer email; register without stripe_session_id")
}

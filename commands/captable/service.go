// Package captable runs the cap table's commands: it loads a company (or an
// account) from its stream, lets the domain decide, and appends the events
// with an optimistic version check. Companies and accounts are kept folded
// in memory and caught up from the store before each use, so a decision
// always sees every event recorded before it, whichever process wrote it.
package captable

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"log/slog"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/passwords"
	"github.com/strata-platform/strata/commands/signin"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Config tunes the service.
type Config struct {
	// TokenKey signs the cap table's access tokens (HS256); at least 32
	// bytes. cmd/strata derives it from the master key.
	TokenKey []byte
	// Issuer is the iss of the cap table's tokens.
	Issuer     string
	AccessTTL  time.Duration // default 1 hour
	RefreshTTL time.Duration // default 30 days
	Argon2     passwords.Argon2Params
	// Wait blocks until the read model has applied the event at key (read
	// your writes); nil means do not wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// PlatformTokens verifies platform access tokens for platform-login;
	// nil disables platform-login.
	PlatformTokens PlatformTokenVerifier
	// Blobs keeps documents' and reports' files; nil disables them.
	Blobs blobs.Store
	// MaxUploadBytes is the document size limit (DefaultMaxUpload when 0).
	MaxUploadBytes int64
	// SignIn throttles password login (cmd/strata shares the platform's);
	// nil: a throttle on the store's database keyed by TokenKey.
	SignIn *signin.Limiter
	// PlanOf reads an account's cap-table plan from the platform's plans
	// (domain/plans, the one source every context reads; the plan id in
	// upper case), ok false when none is recorded there: the account's
	// own plan (registration, or changes from before plans existed)
	// applies. nil: the account's own plan.
	PlanOf func(accountID string) (plan string, ok bool)
	// ChangePlan records a cap-table plan change through the plans
	// service; nil: SetPlan records it on the account's stream.
	ChangePlan func(ctx context.Context, accountID, plan string) error
}

// Service runs the cap table's commands.
type Service struct {
	store     *eventstore.Store
	clock     kernel.Clock
	ids       kernel.IDs
	log       *slog.Logger
	cfg       Config
	hasher    *passwords.Hasher
	companies *cache[*companyEntry]
	accounts  *cache[*accountEntry]
	usage     *usage
	blobSlots chan struct{} // bounds held blob locks (bloblock.go)
}

// New returns a service over store.
func New(store *eventstore.Store, clock kernel.Clock, ids kernel.IDs, log *slog.Logger, cfg Config) *Service {
	if cfg.AccessTTL == 0 {
		cfg.AccessTTL = time.Hour
	}
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	if cfg.Argon2 == (passwords.Argon2Params{}) {
		cfg.Argon2 = passwords.DefaultArgon2Params()
	}
	if cfg.Issuer == "" {
		cfg.Issuer = "strata-captable"
	}
	if cfg.SignIn == nil {
		m := hmac.New(sha256.New, cfg.TokenKey)
		m.Write([]byte("sign-in throttle"))
		cfg.SignIn = signin.New(store.DB(), clock, m.Sum(nil))
	}
	s := &Service{store: store, clock: clock, ids: ids, log: log, cfg: cfg, hasher: passwords.NewHasher(cfg.Argon2)}
	s.companies = newCache(func() *companyEntry { return &companyEntry{} })
	s.accounts = newCache(func() *accountEntry { return &accountEntry{} })
	s.usage = newUsage()
	s.blobSlots = make(chan struct{}, maxBlobLocks)
	return s
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock.Now() }

// wait waits for the read model to reach key, when a wait is configured.
func (s *Service) wait(ctx context.Context, key eventstore.Key) error {
	if s.cfg.Wait == nil {
		return nil
	}
	return s.cfg.Wait(ctx, key)
}

// Settle waits until the read model has applied the event at key.
func (s *Service) Settle(ctx context.Context, key eventstore.Key) error { return s.wait(ctx, key) }

// Replay folds a company's events as of day (business date; zero: all)
// and as known at knownAt (recording time; zero: now). It reads the store,
// not the read model, so it answers for any past moment.
func (s *Service) Replay(ctx context.Context, companyID string, day, knownAt time.Time) (*captable.Company, error) {
	envs, err := s.store.Load(ctx, companyID, eventstore.LoadOptions{AsKnownAt: knownAt})
	if err != nil {
		return nil, err
	}
	evs := make([]kernel.Event, len(envs))
	for i, e := range envs {
		evs[i] = e.Event
	}
	c := captable.Replay(evs, day)
	if !c.Exists() {
		return nil, kernel.NotFound("company " + companyID + " not found at that time")
	}
	return c, nil
}

// NewID mints an identifier for a new resource.
func (s *Service) NewID() string { return s.ids.NewID() }

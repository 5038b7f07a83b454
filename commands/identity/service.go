// Package identity holds the identity context's command handlers: register,
// log in, refresh, log out, change and reset passwords, issue and revoke API
// keys, verify keys, and keep the JWT signing keys. Each handler validates,
// loads what it decides on, appends its events in one transaction and waits
// until the in-memory directory (projections/accounts) has applied them, so
// the next request sees the change.
package identity

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/mail"
	"github.com/strata-platform/strata/commands/signin"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections/accounts"
)

// Config tunes the identity service.
type Config struct {
	Issuer    string        // iss of access tokens, e.g. "http://127.0.0.1:8080"
	Audience  string        // aud of access tokens
	ResetURL  string        // link mailed for a password reset; "?token=..." is appended
	ReadWait  time.Duration // how long a command waits for the directory (read-your-writes)
	Argon2    Argon2Params  // zero: DefaultArgon2
	NewUserID func() string // zero: random UUIDs
	// SignIn throttles password sign-in (shared with the cap table's in
	// cmd/strata); nil: a throttle on the store's database keyed by the
	// master key.
	SignIn *signin.Limiter
	// Limits is the shared log of the sliding-window limits (forgot
	// password, temporary keys, client registration, invitations); nil:
	// counted in this process only.
	Limits Shared
}

// Service runs the identity commands.
type Service struct {
	store   *eventstore.Store
	dir     *accounts.Directory
	tokens  *Tokens
	hasher  *Hasher
	mailer  mail.Sender
	clock   kernel.Clock
	cfg     Config
	log     *slog.Logger
	limiter *Limiter
	signIn  *signin.Limiter
	resets  chan string
	usage   *Usage
	master  *MasterKey
	browser *Browser
	prov    *provisioning // checkout provisioning (EnableProvisioning); nil: off
}

// NewService returns the identity service. Start must run before it serves.
func NewService(store *eventstore.Store, dir *accounts.Directory, master *MasterKey, mailer mail.Sender,
	clock kernel.Clock, logger *slog.Logger, cfg Config) *Service {
	if cfg.Argon2 == (Argon2Params{}) {
		cfg.Argon2 = DefaultArgon2Params()
	}
	if cfg.ReadWait <= 0 {
		cfg.ReadWait = 2 * time.Second
	}
	if cfg.NewUserID == nil {
		cfg.NewUserID = uuid.NewString
	}
	if cfg.Audience == "" {
		cfg.Audience = "strata"
	}
	if cfg.SignIn == nil {
		cfg.SignIn = signin.New(store.DB(), clock, master.Derive(SignInKeyPurpose))
	}
	s := &Service{store: store, dir: dir, tokens: NewTokens(dir, master, cfg.Issuer, cfg.Audience, clock),
		hasher: NewHasher(cfg.Argon2), mailer: mailer, clock: clock, cfg: cfg, log: logger,
		limiter: NewSharedLimiter(clock, cfg.Limits), signIn: cfg.SignIn, resets: make(chan string, 256), master: master,
		browser: newBrowser(master)}
	s.usage = newUsage(s)
	return s
}

// Tokens returns the access-token service (verification, JWKS).
func (s *Service) Tokens() *Tokens { return s.tokens }

// Directory returns the identity read model.
func (s *Service) Directory() *accounts.Directory { return s.dir }

// Start catches the directory up and makes sure a signing key exists.
func (s *Service) Start(ctx context.Context) error {
	if err := s.dir.CatchUp(ctx); err != nil {
		return err
	}
	return s.EnsureSigningKey(ctx)
}

// Run does the background work (password-reset mail, key-usage flushes)
// until ctx ends; it returns after the last usage flush.
func (s *Service) Run(ctx context.Context) {
	done := make(chan struct{})
	go func() { defer close(done); s.runResets(ctx) }()
	s.usage.run(ctx, 10*time.Second)
	<-done
}

// txn is one command's store transaction; it remembers the key of the last
// event appended, which the command then waits for.
type txn struct {
	s    *Service
	sql  *stdsql.Tx
	last eventstore.Key
}

// append appends events to stream at expected inside the transaction.
func (t *txn) append(ctx context.Context, stream eventstore.Stream, expected int64, events ...kernel.Event) error {
	a, err := t.s.store.AppendTx(ctx, t.sql, stream, expected, events...)
	if err != nil {
		return err
	}
	if t.last.Less(a.Last) {
		t.last = a.Last
	}
	return nil
}

// write runs fn in one store transaction and, after the commit, waits until
// the directory has applied the last event it appended (read-your-writes).
func (s *Service) write(ctx context.Context, fn func(t *txn) error) error {
	t := &txn{s: s}
	err := s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		t.sql, t.last = tx, eventstore.Key{}
		return fn(t)
	})
	if err != nil {
		return err
	}
	wait, cancel := context.WithTimeout(ctx, s.cfg.ReadWait)
	defer cancel()
	if err := s.dir.Sync(wait, t.last); err != nil {
		return &NotVisible{Err: err}
	}
	return nil
}

// NotVisible is the error of a write that committed but that the directory
// had not applied when the wait ran out: the change is stored (a retry
// would repeat it); the next requests will see it shortly.
type NotVisible struct{ Err error }

func (e *NotVisible) Error() string { return "stored, not visible yet: " + e.Err.Error() }

// Unwrap gives the kernel kind (unavailable) to the HTTP edge.
func (e *NotVisible) Unwrap() error { return e.Err }

// load folds a user's stream from the store (not the directory, which may
// lag behind another process's write).
func (s *Service) loadUser(ctx context.Context, id string) (*ident.User, error) {
	envs, err := s.store.Load(ctx, id, eventstore.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("load user %s: %w", id, err)
	}
	if len(envs) == 0 {
		return nil, kernel.NotFound("user not found")
	}
	u := &ident.User{}
	for _, e := range envs {
		u.Apply(e.Event)
	}
	return u, nil
}

// Now returns the service clock's time.
func (s *Service) Now() time.Time { return s.clock.Now() }

// Store returns the event store (the admin event log reads it).
func (s *Service) Store() *eventstore.Store { return s.store }

// appendUser appends events to a user's stream at expected, in one
// transaction, and waits until the directory shows them.
func (s *Service) appendUser(ctx context.Context, userID string, expected int64, events ...kernel.Event) error {
	return s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: userID}, expected, events...)
	})
}

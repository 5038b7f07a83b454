// Package payments runs the payments context's commands: checkout sessions,
// billing-portal sessions and usage reports through a Provider (Stripe), and
// the provider's webhooks, which are verified, recorded once per provider
// event id, answered at once and processed afterwards into checkout,
// subscription and invoice events.
//
// Personal data (the payer's email and name, and every webhook payload) is
// sealed under per-record keys (eventstore/shred) whose owner names the
// payer, so one payer's payment records can be shredded together.
package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Config is what the service needs beyond the store.
type Config struct {
	Catalog payments.Catalog
	// Provider is the payment provider; nil when payments are not
	// configured: checkout, portal and usage answer 503 naming Missing.
	Provider Provider
	// Missing names the settings that would configure the provider
	// (SettingSecretKey when it is empty).
	Missing []string
	// PayerKey keys the HMAC that names a payer's key owner (32 bytes,
	// derived from the master key), so payer keys are found by email
	// without the email being stored in the clear.
	PayerKey []byte
	Logger   *slog.Logger
	// Reactions run inside the transaction that records what a provider
	// event meant (the checkout completed, the subscription changed), after
	// those events are appended and before the commit, each with the
	// events recorded (payer data opened). They enqueue the work that
	// follows (commands/jobs), so a committed change never loses it and a
	// rolled-back one never starts it: account provisioning from a paid
	// checkout, the plan an account is on. An error rolls the whole
	// processing back (the webhook job retries). Reactions must not keep
	// the events.
	Reactions []Reaction
}

// Reaction is work that follows recorded payments events; see
// Config.Reactions.
type Reaction func(ctx context.Context, tx *sql.Tx, recorded []kernel.Event) error

// Service runs the payments commands. It is safe for concurrent use.
type Service struct {
	store *eventstore.Store
	keys  *shred.KeyRing
	clock kernel.Clock
	ids   kernel.IDs
	log   *slog.Logger
	cfg   Config
	jobs  *jobs.Service // set by RegisterJobs
}

// New returns the service.
func New(store *eventstore.Store, keys *shred.KeyRing, clock kernel.Clock, ids kernel.IDs, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, keys: keys, clock: clock, ids: ids, log: cfg.Logger, cfg: cfg}
}

// Catalog is the service's catalog (seed prices and the operator's).
func (s *Service) Catalog() payments.Catalog { return s.cfg.Catalog }

// Configured reports whether a provider is configured.
func (s *Service) Configured() bool { return s.cfg.Provider != nil }

// provider returns the provider or the 503 naming the missing settings.
func (s *Service) provider() (Provider, error) {
	if s.cfg.Provider == nil {
		missing := s.cfg.Missing
		if len(missing) == 0 {
			missing = []string{SettingSecretKey}
		}
		return nil, kernel.Unavailable("payments are not configured: set "+strings.Join(missing, " and "), nil)
	}
	return s.cfg.Provider, nil
}

// PayerOwner names the key owner of a payer's records: an HMAC of the
// normalised email, so erasing a payer finds every key by owner.
func (s *Service) PayerOwner(email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || len(s.cfg.PayerKey) == 0 {
		return "payments"
	}
	m := hmac.New(sha256.New, s.cfg.PayerKey)
	m.Write([]byte(email))
	return "payments-payer:" + hex.EncodeToString(m.Sum(nil))[:32]
}

// fresh seals ev's secret (if it has a plain value) under a new key id
// owned by owner; the key must be stored in the append's transaction.
func (s *Service) fresh(ev kernel.Event, id, owner string) (*shred.NewKey, error) {
	sec, ok := payments.SecretOf(ev)
	if !ok || sec.Plain == nil {
		return nil, nil
	}
	raw, err := json.Marshal(sec.Plain)
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", ev.EventType(), err)
	}
	nk, err := s.keys.Fresh(id, owner)
	if err != nil {
		return nil, err
	}
	*sec.Sealed = nk.Seal(raw)
	return nk, nil
}

// sealUnder seals ev's secret under the existing key id.
func (s *Service) sealUnder(ctx context.Context, ev kernel.Event, id string) error {
	sec, ok := payments.SecretOf(ev)
	if !ok || sec.Plain == nil {
		return nil
	}
	raw, err := json.Marshal(sec.Plain)
	if err != nil {
		return fmt.Errorf("seal %s: %w", ev.EventType(), err)
	}
	sealed, err := s.keys.Seal(ctx, s.store.DB(), id, raw)
	if err != nil {
		return fmt.Errorf("seal %s under %s: %w", ev.EventType(), id, err)
	}
	*sec.Sealed = sealed
	return nil
}

// open fills ev's plain part; a destroyed key leaves it nil.
func (s *Service) open(ctx context.Context, ev kernel.Event) error {
	sec, ok := payments.SecretOf(ev)
	if !ok || sec.Sealed.Key == "" {
		return nil
	}
	raw, err := s.keys.Open(ctx, s.store.DB(), *sec.Sealed)
	if errors.Is(err, shred.ErrShredded) {
		return nil
	}
	if err != nil {
		return err
	}
	return sec.Open(raw)
}

// folder is a stream's fold.
type folder interface{ Apply(kernel.Event) }

// load folds stream id into f (its sealed parts opened) and returns the
// stream's version and its envelopes.
func (s *Service) load(ctx context.Context, id string, f folder) (int64, []eventstore.Envelope, error) {
	envs, err := s.store.Load(ctx, id, eventstore.LoadOptions{})
	if err != nil {
		return 0, nil, fmt.Errorf("load %s: %w", id, err)
	}
	var version int64
	for _, env := range envs {
		if err := s.open(ctx, env.Event); err != nil {
			return 0, nil, fmt.Errorf("open %s: %w", env.EventID, err)
		}
		f.Apply(env.Event)
		version = env.StreamVersion
	}
	return version, envs, nil
}

// appendNew appends ev at the start of a new stream and stores the key its
// secret was sealed under in the same transaction (after the append, whose
// version check must be the transaction's first write).
func (s *Service) appendNew(ctx context.Context, stream eventstore.Stream, key *shred.NewKey, evs ...kernel.Event) (eventstore.Appended, error) {
	var app eventstore.Appended
	err := s.store.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		if app, err = s.store.AppendTx(ctx, tx, stream, eventstore.NoStream, evs...); err != nil {
			return err
		}
		if key != nil {
			return s.keys.Store(ctx, tx, key)
		}
		return nil
	})
	if err != nil {
		return app, err
	}
	if key != nil {
		s.keys.Remember(key)
	}
	return app, nil
}

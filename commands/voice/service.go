// Package voice runs the voice context's commands: outbound calls through
// the telephony provider with every status move recorded as it happens,
// SMS, contacts, the number inventory, the do-not-call list and the
// calling-hours guard, and status callbacks delivered in order by durable
// jobs.
//
// Personal data is sealed under per-party subject keys (eventstore/shred)
// before it is appended; a party is found by its blind index (an HMAC of
// tenant and number under a key derived from the master key), so the
// do-not-call check and lookups by number never need plain text.
package voice

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Config is what the service needs; Provider nil means no telephony is
// configured (calls and SMS answer 503 telephony_unconfigured).
type Config struct {
	Provider telephony.Provider
	// Keys seals personal data; IndexKey (32 bytes) keys the blind index.
	Keys     *shred.KeyRing
	IndexKey []byte
	// Jobs delivers status callbacks; Deliver posts one (the platform's
	// outbound client); Sign signs a body for a tenant's secret at a time
	// (Strata-Signature); SecretKey (32 bytes) derives each tenant's
	// signing secret.
	Jobs      *jobs.Service
	Deliver   Deliverer
	Sign      func(secret string, body []byte, t time.Time) string
	SecretKey []byte
	// Blobs keeps recordings (encrypted).
	Blobs blobs.Store
	// Transcriber transcribes recordings (a job per recording); nil: none
	// are transcribed.
	Transcriber transcribe.Transcriber
	// Zones gives the time zones of a number (calling hours); nil: the
	// guard refuses every call it cannot place (no zone known).
	Zones func(e164 string) []*time.Location
	// Wait blocks until the read model has applied the event at key.
	Wait func(ctx context.Context, key eventstore.Key) error
	// Inline, when set, writes the read model's rows of message events in
	// the transaction that appends them (projections/voice.Inline): a sent
	// message then needs no wait for the projector.
	Inline func(ctx context.Context, tx *stdsql.Tx, evs []kernel.Event) error
	// Breaker guards the provider; nil: a default one.
	Breaker *Breaker
	// ReportRetry bounds how long a provider report is retried when the
	// store refuses it (the database restarting); 0: 30 s.
	ReportRetry time.Duration
}

// Service runs the voice commands.
type Service struct {
	store    *eventstore.Store
	clock    kernel.Clock
	log      *slog.Logger
	cfg      Config
	calls    *folds.Cache[voice.Call, *voice.Call]
	messages *folds.Cache[voice.Message, *voice.Message]
	tenants  *folds.Cache[voice.Tenant, *voice.Tenant]
	numbers  *folds.Cache[voice.Number, *voice.Number]

	mu        sync.Mutex
	live      map[string]telephony.Call // calls this process placed and still controls
	transfers map[string]string         // the type of the transfer in flight per call
	digits    map[string]chan string    // the keys an inbound call's IVR waits for
	pending   map[string]chan controlReply
	listening atomic.Bool // RunControl listens: calls of other processes can be controlled
	wg        sync.WaitGroup
}

// New returns the service.
func New(store *eventstore.Store, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.Breaker == nil {
		cfg.Breaker = NewBreaker(BreakerConfig{})
	}
	if cfg.ReportRetry <= 0 {
		cfg.ReportRetry = 30 * time.Second
	}
	return &Service{store: store, clock: clock, log: log, cfg: cfg,
		calls:    folds.New[voice.Call, *voice.Call](store, 10000),
		messages: folds.New[voice.Message, *voice.Message](store, 10000),
		tenants:  folds.New[voice.Tenant, *voice.Tenant](store, 2000),
		numbers:  folds.New[voice.Number, *voice.Number](store, 10000),
		live:     map[string]telephony.Call{}, transfers: map[string]string{},
		digits: map[string]chan string{}, pending: map[string]chan controlReply{}}
}

// Actor is who a command acts for: the signed-in user in their tenant.
type Actor struct {
	Tenant, User string
}

func (a Actor) check() error {
	if a.Tenant == "" {
		return kernel.Forbidden("the caller acts in no organization")
	}
	return nil
}

// Now is the service's clock at microseconds (what PostgreSQL keeps).
func (s *Service) Now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// NewID mints a resource id (UUID version 7: sorts in creation order).
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// Party is the blind index of number in tenant: an HMAC-SHA256 under the
// index key, hex, 32 characters. Events and read models name parties by
// it; it reveals nothing about the number without the key.
func (s *Service) Party(tenant, number string) string {
	m := hmac.New(sha256.New, s.cfg.IndexKey)
	m.Write([]byte(tenant))
	m.Write([]byte{0})
	m.Write([]byte(number))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// Provider is the configured telephony provider (nil when none).
func (s *Service) Provider() telephony.Provider { return s.cfg.Provider }

// Breaker is the provider's circuit breaker.
func (s *Service) Breaker() *Breaker { return s.cfg.Breaker }

// settle waits for the read model to apply an append.
func (s *Service) settle(ctx context.Context, app eventstore.Appended) error {
	if s.cfg.Wait == nil || app.ToVersion == 0 {
		return nil
	}
	return s.cfg.Wait(ctx, app.Last)
}

// Close waits for the reports of calls in flight to be recorded.
func (s *Service) Close() { s.wg.Wait() }

// tenant runs fn on the caught-up fold of tenant's voice stream.
func (s *Service) tenant(ctx context.Context, tenant string, fn func(e *folds.Entry[voice.Tenant]) error) error {
	id := voice.TenantStream(tenant)
	return s.tenants.Locked(id, func(e *folds.Entry[voice.Tenant]) error {
		if err := s.tenants.CatchUp(ctx, id, e); err != nil {
			return err
		}
		if e.State.DNC == nil {
			(&e.State).Apply(nil)
		}
		return fn(e)
	})
}

// Compliance is what a call or message to a number must pass, decided on
// the tenant's current fold: the do-not-call list always, calling hours
// for calls unless the tenant turned the guard off. It returns the party's
// current subject key.
func (s *Service) compliance(ctx context.Context, tenant, party, number, field string, call bool) (string, error) {
	var key string
	err := s.tenant(ctx, tenant, func(e *folds.Entry[voice.Tenant]) error {
		key = e.State.Key(tenant, party)
		if e.State.Blocked(party) {
			return voice.DoNotCall(field)
		}
		if call && !e.State.HoursOff {
			var zones []*time.Location
			if s.cfg.Zones != nil {
				zones = s.cfg.Zones(number)
			}
			return voice.CheckCallingHours(s.clock.Now(), zones)
		}
		return nil
	})
	return key, err
}

// telephony refuses when no provider is configured or its breaker is open.
func (s *Service) telephony() error {
	if s.cfg.Provider == nil {
		return &kernel.Error{Kind: kernel.KindUnavailable, Code: "telephony_unconfigured",
			Message: "no telephony provider is configured (set STRATA_VOICE_SIP_TRUNK or the Twilio settings)"}
	}
	if !s.cfg.Breaker.Allow() {
		return &kernel.Error{Kind: kernel.KindUnavailable, Code: "circuit_open",
			Message: "the telephony provider is unavailable (circuit breaker open); try again shortly"}
	}
	return nil
}

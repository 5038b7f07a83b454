package connections

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/sealed"
	domain "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Config is what a Service needs.
type Config struct {
	Store *eventstore.Store
	// Key (32 bytes, derived from the master key for this use only) seals
	// the tokens and the OAuth state values.
	Key    []byte
	Clock  kernel.Clock
	IDs    kernel.IDs
	Logger *slog.Logger
	// RefreshBefore: tokens that expire within it are refreshed before use
	// (5 minutes when 0).
	RefreshBefore time.Duration
	// StateTTL bounds an authorization's round trip (10 minutes when 0).
	StateTTL time.Duration
}

// Service keeps owners' connected accounts: one event stream per (owner,
// provider) and the sealed tokens beside it in platform.connection_tokens,
// written in the same transaction.
type Service struct {
	cfg Config
	box *sealed.Box

	mu        sync.RWMutex
	providers map[string]Provider
}

// New returns a service; register providers with Register.
func New(cfg Config) (*Service, error) {
	box, err := sealed.New(cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("connections: %w", err)
	}
	if cfg.RefreshBefore <= 0 {
		cfg.RefreshBefore = 5 * time.Minute
	}
	if cfg.StateTTL <= 0 {
		cfg.StateTTL = 10 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg, box: box, providers: map[string]Provider{}}, nil
}

// Register adds providers; a name registered twice is an error.
func (s *Service) Register(ps ...Provider) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range ps {
		if _, dup := s.providers[p.Name()]; dup {
			return fmt.Errorf("connections: provider %s registered twice", p.Name())
		}
		s.providers[p.Name()] = p
	}
	return nil
}

// Provider returns the named provider: 404 when none is registered by
// that name.
func (s *Service) Provider(name string) (Provider, error) {
	s.mu.RLock()
	p, ok := s.providers[name]
	s.mu.RUnlock()
	if !ok {
		return nil, kernel.NotFound("there is no provider named " + quote(name))
	}
	return p, nil
}

// Names lists the registered providers' names, sorted.
func (s *Service) Names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.providers))
	for n := range s.providers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// configured refuses a provider whose client credentials are not set:
// 503 naming the missing settings.
func configured(p Provider) error {
	if miss := p.Settings().Missing(); len(miss) > 0 {
		return kernel.Unavailable(fmt.Sprintf("%s is not configured on this server: the operator must set %s", p.Label(), strings.Join(miss, " and ")), nil)
	}
	return nil
}

// tokenRow is a connection's sealed tokens.
type tokenRow struct {
	AccountID string
	Version   int64
	Sealed    string
}

func purpose(owner, provider string, version int64) string {
	return fmt.Sprintf("connection tokens|%s|%s|%d", owner, provider, version)
}

func (s *Service) seal(owner, provider string, version int64, t Tokens) (string, error) {
	raw, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	return s.box.Seal(raw, purpose(owner, provider, version)), nil
}

func (s *Service) open(owner, provider string, row tokenRow) (Tokens, error) {
	raw, err := s.box.Open(row.Sealed, purpose(owner, provider, row.Version))
	if err != nil {
		return Tokens{}, fmt.Errorf("connections: tokens of %s/%s do not open: %w", owner, provider, err)
	}
	var t Tokens
	if err := json.Unmarshal(raw, &t); err != nil {
		return Tokens{}, fmt.Errorf("connections: tokens of %s/%s: %w", owner, provider, err)
	}
	return t, nil
}

// load folds owner's connection to provider.
func (s *Service) load(ctx context.Context, q eventstore.Querier, owner, provider string) (domain.Account, int64, error) {
	envs, err := s.cfg.Store.LoadTx(ctx, q, domain.StreamID(owner, provider), eventstore.LoadOptions{})
	if err != nil {
		return domain.Account{}, 0, fmt.Errorf("connections: load %s/%s: %w", owner, provider, err)
	}
	var a domain.Account
	for _, e := range envs {
		a.Apply(e.Event)
	}
	return a, int64(len(envs)), nil
}

func stream(owner, provider string) eventstore.Stream {
	return eventstore.Stream{Type: domain.StreamType, ID: domain.StreamID(owner, provider)}
}

// Account returns owner's account at provider (Status "" when none was
// ever connected).
func (s *Service) Account(ctx context.Context, owner, provider string) (domain.Account, error) {
	a, _, err := s.load(ctx, s.cfg.Store.DB(), owner, provider)
	return a, err
}

// NotConnected is the error of a call that needs an account the owner has
// not connected (or must reconnect): 409, field "provider".
func NotConnected(p Provider, reconnect bool) error {
	msg := "no " + p.Name() + " account is connected: connect " + p.Label() + " first"
	if reconnect {
		msg = "the connected " + p.Name() + " account must be reconnected: " + p.Label() + " refused its tokens"
	}
	return &kernel.Error{Kind: kernel.KindConflict, Field: "provider", Rule: "connected", Message: msg}
}

// errNoRow is a connection without a token row (disconnected meanwhile).
var errNoRow = errors.New("connections: no tokens stored")

// rowQuerier reads one row: *sql.DB or *sql.Tx.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *stdsql.Row
}

func readRow(ctx context.Context, q rowQuerier, owner, provider string, lock bool) (tokenRow, error) {
	sql := `SELECT account_id, version, sealed FROM platform.connection_tokens WHERE owner = $1 AND provider = $2`
	if lock {
		sql += ` FOR UPDATE`
	}
	var r tokenRow
	err := q.QueryRowContext(ctx, sql, owner, provider).Scan(&r.AccountID, &r.Version, &r.Sealed)
	if errors.Is(err, stdsql.ErrNoRows) {
		return r, errNoRow
	}
	return r, err
}

func writeRow(ctx context.Context, tx *stdsql.Tx, owner, provider string, r tokenRow, t Tokens) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO platform.connection_tokens (owner, provider, account_id, version, sealed, expiry, refreshable)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (owner, provider) DO UPDATE SET account_id = excluded.account_id, version = excluded.version,
			sealed = excluded.sealed, expiry = excluded.expiry, refreshable = excluded.refreshable`,
		owner, provider, r.AccountID, r.Version, r.Sealed, nullTime(t.Expiry), t.RefreshToken != "")
	return err
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return fmt.Sprintf("%q", s)
}

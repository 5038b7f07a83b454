// Package accounts is the identity context's read model: an in-memory
// directory of users, organizations, API keys, revoked tokens and signing
// keys, folded from the identity events. Every request on every surface
// authenticates against it, so it answers in microseconds without a database
// round trip. It has no tables and no checkpoint: each process replays the
// identity events at start and then tails the store (woken by the commit
// notifications, polling as a fallback). Commands call Sync with the key of
// their append before they answer, so a write is visible to the next request.
package accounts

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
)

// Organization is a workspace with its members (user id -> role) and projects.
type Organization struct {
	ID        string
	Name      string
	OwnerID   string
	Members   map[string]string
	Projects  []Project
	CreatedAt time.Time
}

// Project belongs to one organization.
type Project struct {
	ID   string
	Name string
}

// Directory is the in-memory identity read model. It is safe for concurrent use.
type Directory struct {
	db    *stdsql.DB
	reg   *eventstore.Registry
	log   *slog.Logger
	types []string

	readMu sync.Mutex // one catch-up at a time

	mu        sync.RWMutex
	key       eventstore.Key
	users     map[string]*identity.User
	byEmail   map[string]string
	orgs      map[string]*Organization
	keys      map[string]*identity.Key
	byLookup  map[string]string
	userKeys  map[string][]string
	revoked   map[string]time.Time // jti -> token expiry
	resets    map[string]string    // reset token hash -> user id
	signing   []identity.SigningKeyAdded
	userOrgs  map[string][]string // user id -> organizations joined, in order (may hold ones left)
	claims    map[string]string   // key id of a claimed tmp_ key -> the key issued in its place
	oauth     oauthState
	invites   inviteState
	plans     map[string]*plans.Account // account id -> its plans by product line (domain/plans)
	changed   chan struct{}
	batchSize int
}

// New returns an empty directory reading the identity events of reg from
// db, and the plans events (every account's plan in every product line:
// the one source every context reads plans from).
func New(db *stdsql.DB, reg *eventstore.Registry, logger *slog.Logger) *Directory {
	var types []string
	for _, c := range append(identity.Events(), plans.Events()...) {
		types = append(types, c().EventType())
	}
	sort.Strings(types)
	return &Directory{db: db, reg: reg, log: logger, types: types,
		users: map[string]*identity.User{}, byEmail: map[string]string{}, orgs: map[string]*Organization{},
		keys: map[string]*identity.Key{}, byLookup: map[string]string{}, userKeys: map[string][]string{},
		revoked: map[string]time.Time{}, resets: map[string]string{}, claims: map[string]string{}, userOrgs: map[string][]string{}, oauth: newOAuthState(), invites: newInviteState(), plans: map[string]*plans.Account{},
		changed: make(chan struct{}), batchSize: 2000}
}

// Key returns the position up to which the directory has applied the store.
func (d *Directory) Key() eventstore.Key {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.key
}

// CatchUp applies every event committed after the directory's key (below the
// store's visibility horizon) and returns when none is left.
func (d *Directory) CatchUp(ctx context.Context) error {
	d.readMu.Lock()
	defer d.readMu.Unlock()
	return d.catchUp(ctx)
}

// catchUp is CatchUp with readMu held.
func (d *Directory) catchUp(ctx context.Context) error {
	for {
		page, err := eventstore.ReadAfter(ctx, d.db, d.Key(), d.batchSize, d.types)
		if err != nil {
			return fmt.Errorf("accounts: catch up: %w", err)
		}
		if len(page) == 0 {
			return nil
		}
		for i := range page {
			if page[i].Payload != nil {
				if err := d.reg.Resolve(&page[i]); err != nil {
					return fmt.Errorf("accounts: %w", err)
				}
			}
		}
		d.mu.Lock()
		for _, e := range page {
			if e.Event != nil {
				d.apply(e)
			}
			d.key = e.Key()
		}
		close(d.changed)
		d.changed = make(chan struct{})
		d.mu.Unlock()
		if len(page) < d.batchSize {
			return nil
		}
	}
}

// Refresh catches the directory up once, for a lookup that missed: a key,
// account or grant that another process created a moment ago is then found
// at once instead of after this process's next wake-up. Concurrent callers
// share the catch-up: while one runs, the others wait for its next page (at
// most 20 ms) and try once more, so a burst of misses (random keys) costs
// about one query at a time.
func (d *Directory) Refresh(ctx context.Context) error {
	for try := 0; try < 2; try++ {
		if d.readMu.TryLock() {
			err := d.catchUp(ctx)
			d.readMu.Unlock()
			return err
		}
		d.mu.RLock()
		changed := d.changed
		d.mu.RUnlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// Sync returns once the directory has applied key (the Last key of an
// append), catching up itself; a ctx that ends first gives an unavailable
// error (the write is stored; the read model is late). Concurrent callers
// share catch-ups: while one runs, the others wait for what it applies
// instead of queueing to repeat its query.
func (d *Directory) Sync(ctx context.Context, key eventstore.Key) error {
	for {
		d.mu.RLock()
		reached, changed := !d.key.Less(key), d.changed
		d.mu.RUnlock()
		if reached {
			return nil
		}
		if d.readMu.TryLock() {
			err := d.catchUp(ctx)
			d.readMu.Unlock()
			if err != nil {
				if ctx.Err() != nil {
					return kernel.Unavailable("the change is stored but not visible yet; retry shortly", ctx.Err())
				}
				return err
			}
			if !d.Key().Less(key) {
				return nil
			}
		}
		// Another caller is catching up, or an older transaction still holds
		// the horizon back: wait for the next applied page or a short tick.
		select {
		case <-ctx.Done():
			return kernel.Unavailable("the change is stored but not visible yet; retry shortly", ctx.Err())
		case <-changed:
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// Run tails the store until ctx ends: it catches up whenever wake delivers
// and at least every poll interval; expired revocations are dropped hourly.
func (d *Directory) Run(ctx context.Context, wake func() <-chan struct{}, poll time.Duration) {
	prune := time.NewTicker(time.Hour)
	defer prune.Stop()
	for {
		if err := d.CatchUp(ctx); err != nil && ctx.Err() == nil {
			d.log.Error("accounts directory: catch up failed", "err", err)
		}
		var w <-chan struct{}
		if wake != nil {
			w = wake()
		}
		select {
		case <-ctx.Done():
			return
		case <-w:
		case <-time.After(poll):
		case now := <-prune.C:
			d.pruneRevoked(now)
		}
	}
}

func (d *Directory) pruneRevoked(now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pruneGrants(now)
	for jti, exp := range d.revoked {
		if now.After(exp.Add(time.Minute)) {
			delete(d.revoked, jti)
		}
	}
}

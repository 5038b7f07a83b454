package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
)

// planChangedType is the plans context's event type, consumed by name
// (domain/plans' PlanChanged): the view reports gateway plan changes to
// the ledger, which grants the new plan's credits.
const planChangedType = "plans.plan_changed"

// CreditsView is every account's ledger in memory, for the request path:
// reading a balance costs no query. It starts from the ledger projector's
// tables and checkpoint (one snapshot, so it never replays the whole
// ledger), then tails the store from that checkpoint in the consumers'
// order, woken by commit notifications. It is safe for concurrent use.
type CreditsView struct {
	db  *stdsql.DB
	reg *eventstore.Registry
	log *slog.Logger

	readMu sync.Mutex // one catch-up at a time

	mu       sync.RWMutex
	key      eventstore.Key
	accounts map[string]*credits.Account
	changed  chan struct{}
	onPlan   func(account string, key eventstore.Key)
	onDebit  func(requestIDs []string)
	types    []string
}

// NewCreditsView returns an empty view; Start loads it.
func NewCreditsView(db *stdsql.DB, reg *eventstore.Registry, log *slog.Logger) *CreditsView {
	return &CreditsView{db: db, reg: reg, log: log, accounts: map[string]*credits.Account{}, changed: make(chan struct{}),
		types: append(credits.EventTypes(), planChangedType)}
}

// OnPlanChange sets fn, called (outside the view's locks, in the tail's
// goroutine) with the account and key of every plans.plan_changed of the
// gateway line the view applies after Start. Set it before Start.
func (v *CreditsView) OnPlanChange(fn func(account string, key eventstore.Key)) { v.onPlan = fn }

// OnDebit sets fn, called (outside the view's locks, in the tail's
// goroutine) with the request ids of the debits the view has just applied
// (the debit recorder forgets them from its unflushed sums). Set it
// before Start.
func (v *CreditsView) OnDebit(fn func(requestIDs []string)) { v.onDebit = fn }

// Start loads the accounts and the checkpoint of the ledger's read model
// in one snapshot, then catches up with the events after it.
func (v *CreditsView) Start(ctx context.Context) error {
	v.readMu.Lock()
	err := eventstore.RunInTx(ctx, v.db, &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead, ReadOnly: true}, func(tx *stdsql.Tx) error {
		key, err := creditsCheckpoint(ctx, tx)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT account_id, state FROM `+CreditsSchema+`.accounts`)
		if err != nil {
			return fmt.Errorf("credits view: %w", err)
		}
		defer rows.Close()
		accounts := map[string]*credits.Account{}
		for rows.Next() {
			var id string
			var raw []byte
			if err := rows.Scan(&id, &raw); err != nil {
				return fmt.Errorf("credits view: %w", err)
			}
			a := &credits.Account{}
			if err := json.Unmarshal(raw, a); err != nil {
				return fmt.Errorf("credits view: account %s: %w", id, err)
			}
			accounts[id] = a
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("credits view: %w", err)
		}
		v.mu.Lock()
		v.key, v.accounts = key, accounts
		v.mu.Unlock()
		return nil
	})
	v.readMu.Unlock()
	if err != nil {
		return err
	}
	return v.CatchUp(ctx)
}

// Key is the position up to which the view has applied the store.
func (v *CreditsView) Key() eventstore.Key {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.key
}

// Account returns a copy of account's folded ledger (zero, with the id,
// when it has none yet) and the key it is folded to.
func (v *CreditsView) Account(id string) (credits.Account, eventstore.Key) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if a := v.accounts[id]; a != nil {
		return a.Clone(), v.key
	}
	return credits.Account{AccountID: id}, v.key
}

// catchUpPage bounds one read of the tail.
const catchUpPage = 2000

// CatchUp applies the ledger events committed after the view's key (below
// the store's visibility horizon) and returns when none is left.
func (v *CreditsView) CatchUp(ctx context.Context) error {
	v.readMu.Lock()
	defer v.readMu.Unlock()
	type planChange struct {
		account string
		key     eventstore.Key
	}
	for {
		page, err := eventstore.ReadAfter(ctx, v.db, v.Key(), catchUpPage, v.types)
		if err != nil {
			return fmt.Errorf("credits view: %w", err)
		}
		if len(page) == 0 {
			return nil
		}
		var plans []planChange
		for i := range page {
			e := &page[i]
			if e.Payload == nil {
				continue
			}
			if e.Type == planChangedType {
				var p struct {
					Account string `json:"account_id"`
					Line    string `json:"product_line"`
				}
				if json.Unmarshal(e.Payload, &p) == nil && p.Line == "gateway" && p.Account != "" {
					plans = append(plans, planChange{p.Account, e.Key()})
				}
				continue
			}
			if err := v.reg.Resolve(e); err != nil {
				return fmt.Errorf("credits view: %w", err)
			}
		}
		var debits []string
		v.mu.Lock()
		for _, e := range page {
			if e.Event != nil && e.Type != planChangedType {
				v.apply(e.Event)
				if d, ok := e.Event.(*credits.Debited); ok {
					debits = append(debits, d.RequestID)
				}
			}
			v.key = e.Key()
		}
		close(v.changed)
		v.changed = make(chan struct{})
		v.mu.Unlock()
		if v.onDebit != nil && len(debits) > 0 {
			v.onDebit(debits)
		}
		if v.onPlan != nil {
			for _, p := range plans {
				v.onPlan(p.account, p.key)
			}
		}
		if len(page) < catchUpPage {
			return nil
		}
	}
}

// apply folds one ledger event (v.mu held).
func (v *CreditsView) apply(ev kernel.Event) {
	var id string
	switch e := ev.(type) {
	case *credits.Granted:
		id = e.AccountID
	case *credits.Debited:
		id = e.AccountID
	case *credits.Refunded:
		id = e.AccountID
	case *credits.Adjusted:
		id = e.AccountID
	default:
		return
	}
	a := v.accounts[id]
	if a == nil {
		a = &credits.Account{AccountID: id}
		v.accounts[id] = a
	}
	a.Apply(ev)
}

// Sync returns once the view has applied key (an append's Last), catching
// up itself; a ctx that ends first gives an unavailable error.
func (v *CreditsView) Sync(ctx context.Context, key eventstore.Key) error {
	for {
		v.mu.RLock()
		reached, changed := !v.key.Less(key), v.changed
		v.mu.RUnlock()
		if reached {
			return nil
		}
		if v.readMu.TryLock() {
			v.readMu.Unlock()
			if err := v.CatchUp(ctx); err != nil {
				if ctx.Err() != nil {
					return kernel.Unavailable("the credits change is stored but not visible yet; retry shortly", err)
				}
				return err
			}
			if !v.Key().Less(key) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return kernel.Unavailable("the credits change is stored but not visible yet; retry shortly", ctx.Err())
		case <-changed:
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// Run tails the store until ctx ends: it catches up whenever wake delivers
// (a commit in any process) and at least every poll interval.
func (v *CreditsView) Run(ctx context.Context, wake func() <-chan struct{}, poll time.Duration) {
	projections.Follow(ctx, wake, poll, 0, v.CatchUp, func(err error) {
		v.log.Error("credits view: catch up failed", "err", err)
	})
}

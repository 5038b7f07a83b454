package gateway

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// Unique-claim scopes of the ledger (es.unique_keys).
const (
	scopeGrantKey = "gateway.credits.grant" // an operator's idempotency key, per account
	scopeRefund   = "gateway.credits.refund"
)

// Ledger runs the ledger's decisions on an account's credits stream
// (grants, adjustments, refunds: few, decided on the stream's fold and
// appended at its version) and reads balances. It is safe for concurrent
// use.
type Ledger struct {
	store *eventstore.Store
	clock kernel.Clock
	ent   func(accountID string) credits.Entitlement
	view  *projgateway.CreditsView // nil (the CLI): decisions never take the fast path
	wait  time.Duration            // how long a command waits for the view to show its append
	// journaled reports a request whose debit this process recorded and
	// has not committed in PostgreSQL yet (set by NewBilling).
	journaled func(requestID string) bool

	stripes [64]sync.Mutex // one period decision per account at a time in this process
}

// NewLedger returns the ledger's commands. ent reads an account's gateway
// entitlement (Entitlements); view, when not nil, is this process's
// in-memory ledger, which commands wait for (up to wait) before they
// answer, so the next request sees their effect.
func NewLedger(store *eventstore.Store, clock kernel.Clock, ent func(string) credits.Entitlement,
	view *projgateway.CreditsView, wait time.Duration) *Ledger {
	if wait <= 0 {
		wait = 2 * time.Second
	}
	return &Ledger{store: store, clock: clock, ent: ent, view: view, wait: wait}
}

// Entitlement is the account's gateway entitlement now.
func (l *Ledger) Entitlement(accountID string) credits.Entitlement { return l.ent(accountID) }

func accountStream(accountID string) eventstore.Stream {
	return eventstore.Stream{Type: credits.AccountStreamType, ID: credits.AccountStream(accountID)}
}

// decide runs a ledger decision on an account's credits stream: in one
// transaction it takes the account's ledger lock (lockAccount), folds the
// stream (grants, adjustments, refunds) and lets decide append at its
// version. Every appender of the stream holds that lock, so the fold is
// the stream as it is and the append cannot clash: concurrent decisions
// on one account queue instead of deciding again and again.
func (l *Ledger) decide(ctx context.Context, accountID string, decide func(tx *stdsql.Tx, a credits.Account, version int64) error) error {
	return l.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if err := lockAccount(ctx, tx, accountID); err != nil {
			return err
		}
		envs, err := l.store.LoadTx(ctx, tx, credits.AccountStream(accountID), eventstore.LoadOptions{})
		if err != nil {
			return fmt.Errorf("load the credits of %s: %w", accountID, err)
		}
		a := credits.Account{AccountID: accountID}
		var version int64
		for _, e := range envs {
			a.Apply(e.Event)
			version = e.StreamVersion
		}
		return decide(tx, a, version)
	})
}

// EnsurePeriod records what the account is owed now (DecidePeriod): its
// plan's monthly credits for the current period, once per period (an
// upgrade tops the period up), and identity's legacy balance once. The
// in-memory view answers "nothing due" without a query; only when
// something seems due is the decision taken (decide: under the account's
// ledger lock), so concurrent callers in any number of processes grant
// once. Every reader of a balance calls it first, so a period's credits
// are there from its first use; the plans reaction calls it when a
// gateway plan changes.
func (l *Ledger) EnsurePeriod(ctx context.Context, accountID string) error {
	ent := l.ent(accountID)
	now := l.clock.Now()
	if l.view != nil {
		if a, _ := l.view.Account(accountID); !credits.PeriodDue(a, ent, now) {
			return nil
		}
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(accountID))
	mu := &l.stripes[h.Sum32()%uint32(len(l.stripes))]
	mu.Lock()
	defer mu.Unlock()
	var app eventstore.Appended
	err := l.decide(ctx, accountID, func(tx *stdsql.Tx, a credits.Account, version int64) error {
		evs := credits.DecidePeriod(a, ent, now)
		if len(evs) == 0 {
			return nil
		}
		var err error
		app, err = l.store.AppendTx(ctx, tx, accountStream(accountID), version, evs...)
		return err
	})
	if err != nil {
		return fmt.Errorf("grant the period's credits of %s: %w", accountID, err)
	}
	if app.Last == (eventstore.Key{}) {
		return nil
	}
	return l.sync(ctx, app.Last)
}

// sync waits for this process's view to show key, bounded by l.wait.
func (l *Ledger) sync(ctx context.Context, key eventstore.Key) error {
	if l.view == nil {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	return l.view.Sync(wctx, key)
}

// ErrAlreadyGranted reports an operator's grant whose idempotency key the
// account used before: nothing was recorded again.
var ErrAlreadyGranted = errors.New("a grant with this key was recorded before")

// Grant records an operator's grant (credits.Grant): once per account and
// key when a key is given (ErrAlreadyGranted the next times), in the
// account's current period.
func (l *Ledger) Grant(ctx context.Context, g credits.Grant) (*credits.Granted, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if err := l.EnsurePeriod(ctx, g.AccountID); err != nil {
		return nil, err
	}
	var ev *credits.Granted
	var app eventstore.Appended
	err := l.decide(ctx, g.AccountID, func(tx *stdsql.Tx, a credits.Account, version int64) error {
		ev = credits.DecideGrant(a, g, l.clock.Now())
		var err error
		if app, err = l.store.AppendTx(ctx, tx, accountStream(g.AccountID), version, ev); err != nil {
			return err
		}
		if g.Key == "" {
			return nil
		}
		return eventstore.Claim(ctx, tx, scopeGrantKey, g.AccountID+"/"+g.Key, "grant:"+app.EventIDs[0], "key")
	})
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Rule == "unique" {
		return nil, ErrAlreadyGranted
	}
	if err != nil {
		return nil, fmt.Errorf("grant credits to %s: %w", g.AccountID, err)
	}
	return ev, l.sync(ctx, app.Last)
}

// Balance reads the account's exact balance (projgateway.ReadExact: every
// ledger event committed, less the debits recorded and not flushed yet)
// after recording what its period is owed. periodKey names the period
// whose pending debits it sums apart.
func (l *Ledger) Balance(ctx context.Context, accountID, periodKey string) (projgateway.Exact, error) {
	if err := l.EnsurePeriod(ctx, accountID); err != nil {
		return projgateway.Exact{}, err
	}
	return projgateway.ReadExact(ctx, l.store.DB(), l.store.Registry(), accountID, periodKey)
}

// SetBalance makes the account's balance target (strata users set-plan
// --credits): after recording what its period is owed, it takes the
// account's ledger lock (lockAccount: every append to the credits stream
// holds it), reads the exact balance in a snapshot taken under the lock
// and appends the adjustment (credits.adjusted, reason set_balance) at the
// stream version of that read, which nothing can move meanwhile. A long
// read racing frequent grants and refunds decided again and again before;
// under the lock it decides once. Debits recorded meanwhile still count:
// the balance is target as of the adjustment.
func (l *Ledger) SetBalance(ctx context.Context, accountID string, target credits.Micro, actor string) (projgateway.Exact, error) {
	if err := l.EnsurePeriod(ctx, accountID); err != nil {
		return projgateway.Exact{}, err
	}
	var x projgateway.Exact
	var app eventstore.Appended
	var ev kernel.Event
	err := l.underAccountLock(ctx, accountID, func(tx *stdsql.Tx) error {
		var err error
		if x, err = projgateway.ReadExactTx(ctx, tx, l.store.Registry(), accountID, ""); err != nil {
			return err
		}
		adj := credits.DecideSetBalance(accountID, x.Balance(), target, actor, l.clock.Now())
		if adj == nil {
			return nil
		}
		ev = adj
		app, err = l.store.AppendTx(ctx, tx, accountStream(accountID), x.StreamVersion, adj)
		return err
	})
	if err != nil {
		return x, fmt.Errorf("set the credit balance of %s: %w", accountID, err)
	}
	if ev == nil {
		return x, nil
	}
	if err := l.sync(ctx, app.Last); err != nil {
		return x, err
	}
	return projgateway.ReadExact(ctx, l.store.DB(), l.store.Registry(), accountID, "")
}

// Refund gives back amount (0: all) of a debited request's cost, once per
// request: the debit is found in the index of debited requests (so a
// request still pending is "not debited yet", 409), and the refund claims
// the request id in the transaction that appends it.
func (l *Ledger) Refund(ctx context.Context, requestID string, amount credits.Micro, reason, actor string) (*credits.Refunded, error) {
	d, err := l.debitSoon(ctx, requestID)
	if err != nil {
		return nil, err
	}
	ev, err := credits.DecideRefund(d, amount, reason, actor, l.clock.Now())
	if err != nil {
		return nil, err
	}
	var app eventstore.Appended
	err = l.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if err := lockAccount(ctx, tx, d.AccountID); err != nil {
			return err
		}
		var err error
		if app, err = l.store.AppendTx(ctx, tx, accountStream(d.AccountID), eventstore.AnyVersion, ev); err != nil {
			return err
		}
		return eventstore.Claim(ctx, tx, scopeRefund, requestID, "refund:"+app.EventIDs[0], "request_id")
	})
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Rule == "unique" {
		return nil, &kernel.Error{Kind: kernel.KindConflict, Field: "request_id", Rule: "refunded_once",
			Message: "request " + requestID + " was refunded already"}
	}
	if err != nil {
		return nil, fmt.Errorf("refund %s: %w", requestID, err)
	}
	return ev, l.sync(ctx, app.Last)
}

// debitSoon is debit, looked up again for a moment (up to 2 s) while the
// request is found nowhere: another process may have journaled its debit
// moments ago and not spooled it yet (a few milliseconds when idle, a few
// hundred under load). This process's own journaled debits are found at
// once (debit: not_debited_yet).
func (l *Ledger) debitSoon(ctx context.Context, requestID string) (credits.Debit, error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		d, err := l.debit(ctx, requestID)
		if kernel.KindOf(err) != kernel.KindNotFound || time.Now().After(deadline) {
			return d, err
		}
		select {
		case <-ctx.Done():
			return d, err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// debit finds a debited request in the index of debited requests. The
// index and the write-ahead are read in one snapshot: a flush moves a
// request from one to the other atomically, so it is found in exactly one
// of them (or neither: never recorded).
func (l *Ledger) debit(ctx context.Context, requestID string) (credits.Debit, error) {
	d := credits.Debit{RequestID: requestID}
	var amount int64
	var period []byte
	var found, pending bool
	err := eventstore.RunInTx(ctx, l.store.DB(), &stdsql.TxOptions{Isolation: stdsql.LevelRepeatableRead, ReadOnly: true}, func(tx *stdsql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT account_id, amount_micro, period FROM platform.gateway_debits
			WHERE request_id = $1`, requestID).Scan(&d.AccountID, &amount, &period)
		if errors.Is(err, stdsql.ErrNoRows) {
			return tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM platform.gateway_pending_debits
				WHERE request_id = $1)`, requestID).Scan(&pending)
		}
		found = err == nil
		return err
	})
	switch {
	case err != nil:
		return d, fmt.Errorf("refund %s: %w", requestID, err)
	case pending || (!found && l.journaled != nil && l.journaled(requestID)):
		return d, &kernel.Error{Kind: kernel.KindConflict, Field: "request_id", Rule: "not_debited_yet",
			Message: "request " + requestID + " is recorded but not debited yet; retry in a second"}
	case !found:
		return d, &kernel.Error{Kind: kernel.KindNotFound, Field: "request_id", Rule: "debited_request",
			Message: "no debited request " + requestID}
	}
	d.AmountMicro = credits.Micro(amount)
	if len(period) > 0 && string(period) != "null" {
		d.Period = &credits.Period{}
		if err := json.Unmarshal(period, d.Period); err != nil {
			return d, fmt.Errorf("refund %s: %w", requestID, err)
		}
	}
	return d, nil
}

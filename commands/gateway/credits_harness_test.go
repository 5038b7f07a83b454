package gateway_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// planTable is the plans as the credits read them, set by the test.
type planTable struct {
	mu sync.Mutex
	m  map[string]plans.State
}

func (p *planTable) set(account string, s plans.State) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.m[account] = s
}

func (p *planTable) Plan(account, line string) (plans.State, plans.Plan, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[account]
	if !ok || line != plans.LineGateway {
		return plans.State{}, plans.Plan{}, false
	}
	pl, _ := plans.Effective(line, s)
	return s, pl, true
}

// ledgerWorld is the credit ledger of one process on a fresh database:
// store, view, ledger, recorder, billing; more processes share its
// database through process().
type ledgerWorld struct {
	t      *testing.T
	db     *pgtest.Database
	reg    *eventstore.Registry
	store  *eventstore.Store
	clock  *kernel.FixedClock
	plans  *planTable
	logger *slog.Logger
}

type process struct {
	view     *projgateway.CreditsView
	ledger   *cmdgateway.Ledger
	recorder *cmdgateway.Recorder
	billing  *cmdgateway.Billing
}

func newLedgerWorld(t *testing.T) *ledgerWorld {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range append(credits.Events(), plans.Events()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2026, 10, 17, 8, 0, 0, 0, time.UTC))
	return &ledgerWorld{t: t, db: db, reg: reg, store: eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock)), clock: clock,
		plans: &planTable{m: map[string]plans.State{}}, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// process starts one process's billing (its view started) with cfg.
func (w *ledgerWorld) process(cfg cmdgateway.RecorderConfig) *process {
	w.t.Helper()
	view := projgateway.NewCreditsView(w.db.SQL, w.reg, w.logger)
	if err := view.Start(context.Background()); err != nil {
		w.t.Fatal(err)
	}
	ledger := cmdgateway.NewLedger(w.store, w.clock, cmdgateway.Entitlements(w.plans, nil), view, 5*time.Second)
	rec := cmdgateway.NewRecorder(w.store, w.clock, view, cfg)
	return &process{view: view, ledger: ledger, recorder: rec,
		billing: cmdgateway.NewBilling(cmdgateway.BillingConfig{Ledger: ledger, Recorder: rec,
			Limiter: cmdgateway.NewRateLimiter(w.db.SQL, w.clock), View: view})}
}

// runner runs the ledger's projector until the test ends.
func (w *ledgerWorld) runner() *projections.Runner {
	w.t.Helper()
	r, err := projections.NewRunner(w.db.SQL, w.reg, projections.NewSignal(), w.logger,
		projections.Config{PollInterval: 20 * time.Millisecond}, projgateway.CreditsProjector{})
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	w.t.Cleanup(func() { cancel(); <-done })
	return r
}

// head is the key of the store's last event.
func (w *ledgerWorld) head() eventstore.Key {
	w.t.Helper()
	var k eventstore.Key
	var txid string
	err := w.db.SQL.QueryRow(`SELECT e.transaction_id::text AS tx, e.position FROM es.events e
		ORDER BY e.transaction_id DESC, e.position DESC LIMIT 1`).
		Scan(&txid, &k.Position)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(txid), &k.TransactionID); err != nil {
		w.t.Fatal(err)
	}
	return k
}

// count runs a counting query.
func (w *ledgerWorld) count(q string, args ...any) int64 {
	w.t.Helper()
	var n int64
	if err := w.db.SQL.QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

func paidModel(id, in, out, cache string) catalog.Model {
	return catalog.Model{ID: id, Tier: catalog.TierBasic, Upstream: catalog.Upstream{ID: "dev", Model: id},
		Pricing: catalog.Pricing{Input: json.Number(in), Output: json.Number(out), CacheRead: json.Number(cache)}}
}

func freeModel(id string) catalog.Model {
	return catalog.Model{ID: id, Tier: catalog.TierFree, Free: true, Upstream: catalog.Upstream{ID: "dev", Model: id},
		Pricing: catalog.Pricing{Input: "0", Output: "0", CacheRead: "0"}}
}

func usage(account, request string, m catalog.Model, in, out int64, at time.Time) credits.Usage {
	return credits.Usage{AccountID: account, RequestID: request, Model: m, Tokens: credits.Tokens{Input: in, Output: out},
		Status: credits.StatusCompleted, Latency: 250 * time.Millisecond, At: at}
}

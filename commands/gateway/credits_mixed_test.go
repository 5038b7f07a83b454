package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// After 1,000 mixed operations from many goroutines through three
// processes (debits of every outcome, repeated records, refunds, grants,
// set balances), with flushes failing at random stages and one process
// that records and never flushes (crashed), the ledger balances exactly
// against the per-request usage records: for every account, the exact
// read, each process's view and the read model's row agree, and equal
// the grants and adjustments less the usage records' costs plus their
// refunds; every recorded request is one usage record with the cost
// Record computed.
func TestMixedOperationsBalanceAgainstUsageRecords(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	runner := w.runner()
	ctx, cancel := context.WithCancel(context.Background())
	var rngMu sync.Mutex
	rng := rand.New(rand.NewPCG(7, 11))
	faulty := func(stage string) error {
		rngMu.Lock()
		defer rngMu.Unlock()
		if rng.IntN(10) == 0 {
			return errors.New("injected failure at " + stage)
		}
		return nil
	}
	cfg := cmdgateway.RecorderConfig{FlushInterval: 5 * time.Millisecond, OrphanAfter: 50 * time.Millisecond, FlushBatch: 40, Fault: faulty}
	journaled := cfg
	journaled.JournalDir = t.TempDir() // the first process journals its debits, the second commits them on the request path
	procs := []*process{w.process(journaled), w.process(cfg), w.process(cmdgateway.RecorderConfig{})}
	var bg sync.WaitGroup
	for _, p := range procs[:2] { // the third records and never flushes: a crashed process
		bg.Add(1)
		go func() { defer bg.Done(); p.billing.Run(ctx) }()
	}
	accounts := make([]string, 8)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("acc-%d", i)
		if i%3 == 0 {
			w.plans.set(accounts[i], plans.State{Plan: "pro", Status: plans.StatusActive})
		}
	}
	models := []catalog.Model{paidModel("frontier", "3", "15", "0.3"), paidModel("code", "0.2", "0.6", "0.05"),
		paidModel("odd", "0.000000123457", "1.000000000001", "0"), freeModel("free")}

	var mu sync.Mutex
	costs := map[string]credits.Micro{} // request id -> cost, as Record computed it
	var recorded []string
	refunded := map[string]credits.Micro{}
	var wg sync.WaitGroup
	const workers, ops = 16, 1000
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 99))
			for i := range ops / workers {
				acc := accounts[r.IntN(len(accounts))]
				p := procs[r.IntN(len(procs))]
				switch k := r.IntN(100); {
				case k < 70: // a request: completed, client gone, cut off midway or failed
					m := models[r.IntN(len(models))]
					id := fmt.Sprintf("req-%d-%d", g, i)
					u := usage(acc, id, m, int64(r.IntN(20000)), int64(r.IntN(5000)), w.clock.Now())
					u.Status = credits.Statuses()[r.IntN(4)]
					if u.Status == credits.StatusFailed {
						u.Output = 0
					}
					u.CacheRead = int64(r.IntN(3000))
					res, err := p.billing.Record(ctx, u)
					if err != nil || res.Duplicate {
						t.Errorf("record %s: %+v %v", id, res, err)
						continue
					}
					mu.Lock()
					costs[id] = res.Debit.AmountMicro
					recorded = append(recorded, id)
					mu.Unlock()
					if r.IntN(10) == 0 { // the same request recorded again, maybe by another process
						if again, err := procs[r.IntN(len(procs))].billing.Record(ctx, u); err != nil {
							t.Error(err)
						} else if !again.Duplicate {
							mu.Lock()
							recorded = append(recorded, id) // after its flush: the index drops it
							mu.Unlock()
						}
					}
				case k < 85: // refund part of an earlier request
					mu.Lock()
					if len(recorded) == 0 {
						mu.Unlock()
						continue
					}
					id := recorded[r.IntN(len(recorded))]
					c := costs[id]
					mu.Unlock()
					if c == 0 {
						continue
					}
					amount := credits.Micro(1 + r.Int64N(int64(c)))
					ref, err := p.ledger.Refund(ctx, id, amount, "test refund", "ops")
					switch {
					case err == nil:
						mu.Lock()
						refunded[id] += ref.AmountMicro
						mu.Unlock()
					case kernel.KindOf(err) == kernel.KindConflict: // pending still, or refunded already
					default:
						t.Errorf("refund %s: %v", id, err)
					}
				case k < 97:
					if _, err := p.ledger.Grant(ctx, credits.Grant{AccountID: acc, Credits: credits.Micro(1 + r.Int64N(5e9)), Actor: "ops"}); err != nil {
						t.Error(err)
					}
				default:
					if _, err := p.ledger.SetBalance(ctx, acc, credits.FromCredits(int64(r.IntN(2000))), "ops"); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for w.count(`SELECT count(*) FROM platform.gateway_pending_debits`) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("pending debits were never flushed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	bg.Wait()
	head := w.head()
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	if err := runner.WaitFor(wctx, head, projgateway.CreditsName); err != nil {
		t.Fatal(err)
	}

	if n := w.count(`SELECT count(DISTINCT payload->>'request_id') FROM es.events WHERE event_type = 'credits.debited'`); n != int64(len(costs)) ||
		w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`) != n {
		t.Errorf("%d requests debited (%d debits) for %d recorded", n, w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`), len(costs))
	}
	if n := w.count(`SELECT count(*) FROM ` + projgateway.CreditsSchema + `.usage`); n != int64(len(costs)) {
		t.Errorf("%d usage records for %d requests", n, len(costs))
	}
	var costSum, refundSum credits.Micro
	for id, c := range costs {
		costSum += c
		refundSum += refunded[id]
	}
	if n := w.count(`SELECT coalesce(sum(cost_micro), 0) FROM ` + projgateway.CreditsSchema + `.usage`); credits.Micro(n) != costSum {
		t.Errorf("usage records cost %d, Record computed %d", n, costSum)
	}
	if n := w.count(`SELECT coalesce(sum(refunded_micro), 0) FROM ` + projgateway.CreditsSchema + `.usage`); credits.Micro(n) != refundSum {
		t.Errorf("usage records refunded %d, refunds gave %d", n, refundSum)
	}
	// A process starting now loads the read model's accounts and its
	// checkpoint, and catches up from there.
	late := projgateway.NewCreditsView(w.db.SQL, w.reg, w.logger)
	if err := late.Start(wctx); err != nil {
		t.Fatal(err)
	}
	var total credits.Micro
	for _, acc := range accounts {
		in := func(typ string) credits.Micro {
			return credits.Micro(w.count(`SELECT coalesce(sum((payload->>'amount_micro')::bigint), 0) FROM es.events
				WHERE event_type = $1 AND payload->>'account_id' = $2`, typ, acc))
		}
		used := credits.Micro(w.count(`SELECT coalesce(sum(cost_micro - refunded_micro), 0) FROM `+projgateway.CreditsSchema+`.usage
			WHERE account_id = $1`, acc))
		want := in("credits.granted") + in("credits.adjusted") - used
		x, err := projgateway.ReadExact(context.Background(), w.db.SQL, w.reg, acc, "")
		if err != nil {
			t.Fatal(err)
		}
		row := credits.Micro(w.count(`SELECT balance_micro FROM `+projgateway.CreditsSchema+`.accounts WHERE account_id = $1`, acc))
		if x.Balance() != want || x.Pending != 0 || row != want {
			t.Errorf("%s: exact %s, read model %s, grants+adjustments-usage %s", acc, x.Balance().Decimal(), row.Decimal(), want.Decimal())
		}
		if a, _ := late.Account(acc); a.Balance != want {
			t.Errorf("%s: a view started late sees %s, want %s", acc, a.Balance.Decimal(), want.Decimal())
		}
		for i, p := range procs[:2] { // the third crashed: it has no view
			if err := p.view.Sync(wctx, head); err != nil {
				t.Fatal(err)
			}
			if got := p.billing.Available(acc); got != want {
				t.Errorf("%s: process %d sees %s (unflushed %s), want %s", acc, i, got.Decimal(),
					p.recorder.Unflushed(acc).Decimal(), want.Decimal())
			}
		}
		total += want
	}
	t.Logf("%d requests (%s credits), %d refunds (%s credits), ledger total %s credits", len(costs), costSum.Decimal(),
		len(refunded), refundSum.Decimal(), total.Decimal())
	if len(refunded) == 0 {
		t.Error("no refund went through: the test did not exercise them")
	}
}

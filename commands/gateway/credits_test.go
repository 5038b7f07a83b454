package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	projgateway "github.com/strata-platform/strata/projections/gateway"
)

// A request recorded twice is debited once: twice before the flush (the
// second insert is a duplicate) and again after it (the index drops it).
func TestADebitIsRecordedExactlyOnce(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	p := w.process(cmdgateway.RecorderConfig{})
	if err := p.ledger.EnsurePeriod(ctx, "acc"); err != nil {
		t.Fatal(err)
	}
	m := paidModel("frontier", "3", "15", "0.3")
	u := usage("acc", "req-1", m, 1000, 100, w.clock.Now())
	first, err := p.recorder.Record(ctx, u)
	if err != nil || first.Duplicate || first.Debit.AmountMicro != 1000*3000+100*15000 {
		t.Fatalf("record: %+v %v", first, err)
	}
	if again, err := p.recorder.Record(ctx, u); err != nil || !again.Duplicate {
		t.Fatalf("second record before the flush: %+v %v", again, err)
	}
	if got := p.billing.Available("acc"); got != credits.FromCredits(1000)-first.Debit.AmountMicro {
		t.Errorf("available before the flush: %s", got.Decimal())
	}
	if f, err := p.recorder.Flush(ctx); err != nil || f.Appended != 1 {
		t.Fatalf("flush: %+v %v", f, err)
	}
	if again, err := p.recorder.Record(ctx, u); err != nil || again.Duplicate {
		t.Fatalf("record after the flush goes to the write-ahead: %+v %v", again, err)
	}
	if f, err := p.recorder.Flush(ctx); err != nil || f.Appended != 0 || f.Duplicates != 1 {
		t.Fatalf("flush of a debited request: %+v %v", f, err)
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`); n != 1 {
		t.Errorf("%d debits", n)
	}
	if n := w.count(`SELECT count(*) FROM platform.gateway_pending_debits`); n != 0 {
		t.Errorf("%d pending rows left", n)
	}
	x, err := p.ledger.Balance(ctx, "acc", "")
	want := credits.FromCredits(1000) - first.Debit.AmountMicro
	if err != nil || x.Balance() != want || p.billing.Available("acc") != want {
		t.Errorf("balance %s / available %s, want %s (%v)", x.Balance().Decimal(), p.billing.Available("acc").Decimal(), want.Decimal(), err)
	}
}

// A process that dies after recording loses nothing: its rows wait in the
// write-ahead until another process flushes them as orphans; a flush that
// fails after the append, after the index or after the delete (the
// transaction aborted as a crash would) leaves the rows and no event, and
// the next flush debits each once.
func TestAFlusherCrashLosesAndDoublesNothing(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	dead := w.process(cmdgateway.RecorderConfig{})
	m := paidModel("code", "0.2", "0.6", "0.05")
	var want credits.Micro
	for i := range 40 {
		r, err := dead.recorder.Record(ctx, usage(fmt.Sprintf("acc-%d", i%4), fmt.Sprintf("req-%d", i), m, int64(100+i), 50, w.clock.Now()))
		if err != nil {
			t.Fatal(err)
		}
		want += r.Debit.AmountMicro
	}
	// dead never flushes: its process is gone.
	var fail atomic.Value
	fail.Store("")
	live := w.process(cmdgateway.RecorderConfig{OrphanAfter: time.Millisecond, FlushBatch: 15, Fault: func(stage string) error {
		if fail.Load().(string) == stage {
			return errors.New("crash at " + stage)
		}
		return nil
	}})
	time.Sleep(5 * time.Millisecond)
	for _, stage := range []string{"appended", "indexed", "deleted"} {
		fail.Store(stage)
		if _, err := live.recorder.Flush(ctx); err == nil {
			t.Fatalf("flush with a crash at %s succeeded", stage)
		}
		if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`); n != 0 {
			t.Fatalf("crash at %s: %d debits appended", stage, n)
		}
		if n := w.count(`SELECT count(*) FROM platform.gateway_pending_debits`); n != 40 {
			t.Fatalf("crash at %s: %d pending rows", stage, n)
		}
	}
	fail.Store("")
	for {
		f, err := live.recorder.Flush(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if f.Appended == 0 {
			break
		}
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`); n != 40 {
		t.Errorf("%d debits, want 40", n)
	}
	if n := w.count(`SELECT count(DISTINCT payload->>'request_id') FROM es.events WHERE event_type = 'credits.debited'`); n != 40 {
		t.Errorf("%d distinct requests debited", n)
	}
	var sum int64
	if err := w.db.SQL.QueryRow(`SELECT sum((payload->>'amount_micro')::bigint) FROM es.events WHERE event_type = 'credits.debited'`).Scan(&sum); err != nil || credits.Micro(sum) != want {
		t.Errorf("debited %d, want %d (%v)", sum, want, err)
	}
	// The dead process's rows went to the live process's stream.
	if n := w.count(`SELECT count(*) FROM es.events WHERE stream_id = $1`, credits.DebitStream(live.recorder.Owner())); n != 40 {
		t.Errorf("%d debits in the live writer's stream", n)
	}
}

// A recorder's own rows are not taken by another before OrphanAfter.
func TestOwnRowsAreNotOrphans(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	a := w.process(cmdgateway.RecorderConfig{})
	b := w.process(cmdgateway.RecorderConfig{})
	if _, err := a.recorder.Record(ctx, usage("acc", "r1", freeModel("free"), 10, 10, w.clock.Now())); err != nil {
		t.Fatal(err)
	}
	if f, err := b.recorder.Flush(ctx); err != nil || f.Appended != 0 {
		t.Fatalf("another recorder flushed a fresh row: %+v %v", f, err)
	}
	if f, err := a.recorder.Flush(ctx); err != nil || f.Appended != 1 {
		t.Fatalf("own flush: %+v %v", f, err)
	}
}

// Grants: once per account and period however many callers in however
// many processes; an upgrade tops the period up, a downgrade grants
// nothing, the next period grants again; an operator's key grants once.
func TestGrantsAreIdempotentPerPeriod(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	a, b := w.process(cmdgateway.RecorderConfig{}), w.process(cmdgateway.RecorderConfig{})
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := a
			if i%2 == 1 {
				p = b
			}
			if err := p.ledger.EnsurePeriod(ctx, "acc"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	grants := func() int64 { return w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.granted'`) }
	if n := grants(); n != 1 {
		t.Fatalf("%d grants for one period", n)
	}
	w.plans.set("acc", plans.State{Plan: "pro", Status: plans.StatusActive})
	for range 3 {
		if err := b.ledger.EnsurePeriod(ctx, "acc"); err != nil {
			t.Fatal(err)
		}
	}
	x, err := a.ledger.Balance(ctx, "acc", "")
	if err != nil || grants() != 2 || x.Balance() != credits.FromCredits(50000) {
		t.Fatalf("after the upgrade: %d grants, balance %s (%v)", grants(), x.Balance().Decimal(), err)
	}
	w.plans.set("acc", plans.State{Plan: "starter", Status: plans.StatusActive})
	if err := a.ledger.EnsurePeriod(ctx, "acc"); err != nil || grants() != 2 {
		t.Fatalf("a downgrade granted: %d (%v)", grants(), err)
	}
	w.clock.Advance(20 * 24 * time.Hour) // November
	if err := a.ledger.EnsurePeriod(ctx, "acc"); err != nil || grants() != 3 {
		t.Fatalf("next month: %d grants (%v)", grants(), err)
	}
	// A subscription's period ends at its anchor: granted once per month
	// of it, and nothing after the anchor until the renewal is reported.
	end := w.clock.Now().Add(10 * 24 * time.Hour)
	w.plans.set("acc", plans.State{Plan: "business", Status: plans.StatusActive, SubscriptionID: "sub_1", PeriodEnd: &end})
	if err := a.ledger.EnsurePeriod(ctx, "acc"); err != nil || grants() != 4 {
		t.Fatalf("subscription period: %d grants (%v)", grants(), err)
	}
	w.clock.Advance(11 * 24 * time.Hour)
	if err := a.ledger.EnsurePeriod(ctx, "acc"); err != nil || grants() != 4 {
		t.Fatalf("lapsed subscription granted: %d (%v)", grants(), err)
	}
	renewed := end.AddDate(0, 1, 0)
	w.plans.set("acc", plans.State{Plan: "business", Status: plans.StatusActive, SubscriptionID: "sub_1", PeriodEnd: &renewed})
	if err := b.ledger.EnsurePeriod(ctx, "acc"); err != nil || grants() != 5 {
		t.Fatalf("renewal: %d grants (%v)", grants(), err)
	}
	x, _ = a.ledger.Balance(ctx, "acc", "")
	if want := credits.FromCredits(50000 + 1000 + 150000 + 150000); x.Balance() != want {
		t.Errorf("balance %s, want %s", x.Balance().Decimal(), want.Decimal())
	}
	g := credits.Grant{AccountID: "acc", Credits: credits.FromCredits(25), Key: "ticket-7", Actor: "ops"}
	if _, err := a.ledger.Grant(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ledger.Grant(ctx, g); !errors.Is(err, cmdgateway.ErrAlreadyGranted) {
		t.Errorf("the same key again: %v", err)
	}
	if _, err := a.ledger.Grant(ctx, credits.Grant{AccountID: "acc", Credits: credits.FromCredits(1), Reason: credits.ReasonPlanPeriod}); kernel.KindOf(err) != kernel.KindInvalid {
		t.Errorf("an operator's plan_period grant: %v", err)
	}
}

// Two limiters on one database (two processes) never allow more than the
// plan's requests an hour between them, refuse the rest with the wait
// until the next hour, allow the whole hour once what they hold is given
// back, and allow again in the next hour.
func TestRateLimitIsSharedAcrossProcesses(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	w.clock.Advance(25 * time.Minute) // 08:25
	limiters := []*cmdgateway.RateLimiter{cmdgateway.NewRateLimiter(w.db.SQL, w.clock), cmdgateway.NewRateLimiter(w.db.SQL, w.clock)}
	var allowed, refused atomic.Int64
	burst := func(n int) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := limiters[i%2].Allow(ctx, "acc", 60)
				switch {
				case err != nil:
					t.Error(err)
				case d.Allowed:
					allowed.Add(1)
				default:
					refused.Add(1)
					if d.RetryAfter != 35*time.Minute {
						t.Errorf("retry after %v", d.RetryAfter)
					}
				}
			}()
		}
		wg.Wait()
	}
	burst(150)
	if allowed.Load() > 60 || allowed.Load()+refused.Load() != 150 {
		t.Fatalf("allowed %d, refused %d", allowed.Load(), refused.Load())
	}
	for _, l := range limiters {
		if err := l.ReturnIdle(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	burst(150)
	if allowed.Load() != 60 {
		t.Fatalf("allowed %d in the hour once the leases were given back, want 60", allowed.Load())
	}
	if d, _ := limiters[0].Allow(ctx, "other", 60); !d.Allowed || d.Used != 1 {
		t.Errorf("another account: %+v", d)
	}
	if n, _, err := limiters[1].Used(ctx, "acc"); err != nil || n != 60 {
		t.Errorf("used %d %v", n, err)
	}
	w.clock.Advance(35 * time.Minute)
	if d, _ := limiters[1].Allow(ctx, "acc", 60); !d.Allowed || d.Used != 1 {
		t.Errorf("next hour: %+v", d)
	}
	if d, _ := limiters[1].Allow(ctx, "acc", 0); d.Allowed {
		t.Error("a limit of 0 allowed a request")
	}
	if d, _ := limiters[1].Allow(ctx, "acc", credits.Unlimited); !d.Allowed {
		t.Error("unlimited refused")
	}
}

// One limiter is exact: of concurrent requests it allows exactly the
// limit. It leases ahead (the row counts more than it used) without a
// statement per request, gives back what it holds once idle, and a lower
// limit within the hour (a downgrade) is not exceeded by what it held.
func TestRateLimitLeasesAhead(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	l := cmdgateway.NewRateLimiter(w.db.SQL, w.clock)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := l.Allow(ctx, "one", 200)
			if err != nil {
				t.Error(err)
			}
			if d.Allowed {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if allowed.Load() != 200 {
		t.Fatalf("one process allowed %d of 300, want exactly 200", allowed.Load())
	}
	row := func(account string) int64 {
		return w.count(`SELECT coalesce(max(count), 0) FROM platform.gateway_request_windows WHERE account_id = $1`, account)
	}
	for i := range 3 {
		if d, err := l.Allow(ctx, "big", 5000); err != nil || !d.Allowed || d.Used != int64(i+1) {
			t.Fatalf("request %d: %+v %v", i, d, err)
		}
	}
	if n := row("big"); n != 64 {
		t.Errorf("the row counts %d after 3 requests, want one lease of 64", n)
	}
	if n, _, err := l.Used(ctx, "big"); err != nil || n != 3 {
		t.Errorf("used %d %v, want 3", n, err)
	}
	if err := l.ReturnIdle(ctx, time.Hour); err != nil || row("big") != 64 {
		t.Errorf("a window in use was given back: %d %v", row("big"), err)
	}
	if err := l.ReturnIdle(ctx, 0); err != nil || row("big") != 3 {
		t.Errorf("after giving back: the row counts %d (%v), want 3", row("big"), err)
	}
	// A downgrade to 4 an hour: one more request, then refusals.
	for i := range 3 {
		d, err := l.Allow(ctx, "big", 4)
		if err != nil || d.Allowed != (i == 0) {
			t.Errorf("request %d after the downgrade: %+v %v", i, d, err)
		}
	}
}

// Admission: a paid model needs a positive balance (402 otherwise), a free
// one does not; the plan's requests per hour give a *RateLimited.
func TestAdmission(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	p := w.process(cmdgateway.RecorderConfig{})
	paid, free := paidModel("frontier", "3", "15", "0.3"), freeModel("free")
	ad, err := p.billing.Admit(ctx, "acc", paid)
	if err != nil || ad.Balance != credits.FromCredits(1000) || ad.Entitlement.Plan != "starter" || ad.Limit.Used != 1 {
		t.Fatalf("first paid request: %+v %v", ad, err)
	}
	// 1,000 credits at $3 per 1M input tokens: 333,334 tokens take it below zero.
	if _, err := p.billing.Record(ctx, usage("acc", "big", paid, 333_334, 0, w.clock.Now())); err != nil {
		t.Fatal(err)
	}
	if _, err := p.billing.Admit(ctx, "acc", paid); kernel.KindOf(err) != kernel.KindPaymentRequired {
		t.Fatalf("paid request on an overdrawn balance: %v", err)
	}
	if _, err := p.billing.Admit(ctx, "acc", free); err != nil {
		t.Fatalf("free request: %v", err)
	}
	total, remaining, _ := p.billing.Credits(ctx, "acc")
	if total != 1000 || remaining != 0 {
		t.Errorf("credits for verification: total %d remaining %d", total, remaining)
	}
	for range 58 {
		if _, err := p.billing.Admit(ctx, "acc", free); err != nil {
			t.Fatal(err)
		}
	}
	_, err = p.billing.Admit(ctx, "acc", free)
	var rl *cmdgateway.RateLimited
	if !errors.As(err, &rl) || kernel.KindOf(err) != kernel.KindRateLimited || rl.Limit != 60 || rl.RetryAfter != time.Hour {
		t.Fatalf("61st request: %v", err)
	}
	st := p.billing.Stats()
	if len(st.RateLimited) != 1 || st.RateLimited[0].N != 1 || len(st.PaymentRequired) != 1 || len(st.Debited) != 1 ||
		st.Debited[0].Amount != 333_334*3000 {
		t.Errorf("stats: %+v", st)
	}
}

// Set-balance and refunds: the operator's new balance is what the exact
// read shows after it, and a refund gives a debit back once.
func TestSetBalanceAndRefunds(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	p := w.process(cmdgateway.RecorderConfig{})
	m := paidModel("frontier", "3", "15", "0.3")
	r, err := p.recorder.Record(ctx, usage("acc", "req-1", m, 10_000, 0, w.clock.Now())) // 30 credits
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ledger.Refund(ctx, "req-1", 0, "upstream error", "ops"); kernel.KindOf(err) != kernel.KindConflict {
		t.Errorf("refund of a pending debit: %v", err)
	}
	if _, err := p.ledger.Refund(ctx, "nope", 0, "x", "ops"); kernel.KindOf(err) != kernel.KindNotFound {
		t.Errorf("refund of an unknown request: %v", err)
	}
	x, err := p.ledger.SetBalance(ctx, "acc", credits.FromCredits(250), "ops")
	if err != nil || x.Balance() != credits.FromCredits(250) || x.Pending != r.Debit.AmountMicro {
		t.Fatalf("set balance: %s pending %s (%v)", x.Balance().Decimal(), x.Pending.Decimal(), err)
	}
	if _, err := p.recorder.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ref, err := p.ledger.Refund(ctx, "req-1", credits.FromCredits(10), "upstream error", "ops")
	if err != nil || ref.AmountMicro != credits.FromCredits(10) {
		t.Fatalf("refund: %+v %v", ref, err)
	}
	if _, err := p.ledger.Refund(ctx, "req-1", credits.FromCredits(1), "again", "ops"); kernel.KindOf(err) != kernel.KindConflict {
		t.Errorf("second refund: %v", err)
	}
	x, _ = p.ledger.Balance(ctx, "acc", "")
	if x.Balance() != credits.FromCredits(260) || p.billing.Available("acc") != credits.FromCredits(260) {
		t.Errorf("after the refund: %s / %s", x.Balance().Decimal(), p.billing.Available("acc").Decimal())
	}
	_ = projgateway.Exact{}
}

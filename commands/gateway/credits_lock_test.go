package gateway_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/credits"
)

// Setting a balance while grants keep moving the same account's stream
// succeeds every time (it decides once, under the account's ledger lock,
// instead of losing the race to every grant), and each result is exact:
// the target as of its adjustment.
func TestSetBalanceIsNotStarvedByConcurrentGrants(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	w.runner()
	p := w.process(cmdgateway.RecorderConfig{})
	stop := make(chan struct{})
	var grants atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 60 {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := p.ledger.Grant(ctx, credits.Grant{AccountID: "acc", Credits: credits.FromCredits(1), Actor: "ops"}); err != nil {
					t.Error(err)
					return
				}
				grants.Add(1)
			}
		}()
	}
	for i := range 25 {
		target := credits.FromCredits(int64(100 + i))
		x, err := p.ledger.SetBalance(ctx, "acc", target, "ops")
		if err != nil {
			t.Fatalf("set balance %d under %d grants: %v", i, grants.Load(), err)
		}
		if x.Balance() < target {
			t.Errorf("set balance %d: %s after setting %s (only grants came after it)", i, x.Balance().Decimal(), target.Decimal())
		}
	}
	close(stop)
	wg.Wait()
	if grants.Load() == 0 {
		t.Fatal("no grant ran alongside the set balances")
	}
	x, err := p.ledger.SetBalance(ctx, "acc", credits.FromCredits(42), "ops")
	if err != nil || x.Balance() != credits.FromCredits(42) {
		t.Fatalf("final set balance: %s (%v)", x.Balance().Decimal(), err)
	}
}

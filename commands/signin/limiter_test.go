package signin_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/signin"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const realm = "test"

var key = []byte("0123456789abcdef0123456789abcdef")

type fixture struct {
	t     *testing.T
	db    *pgtest.Database
	clock *kernel.FixedClock
	l     *signin.Limiter
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return &fixture{t: t, db: db, clock: clock, l: signin.New(db.SQL, clock, key)}
}

// fail makes one failed attempt of account from address; it reports the
// throttle's wait instead when the attempt is refused.
func (f *fixture) fail(l *signin.Limiter, account, address string) (time.Duration, bool) {
	f.t.Helper()
	_, err := l.Begin(context.Background(), realm, account, address)
	var th *signin.Throttled
	if errors.As(err, &th) {
		return th.RetryAfter, false
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return 0, true
}

// succeed makes one attempt that succeeds, or reports its refusal.
func (f *fixture) succeed(account, address string) error {
	f.t.Helper()
	a, err := f.l.Begin(context.Background(), realm, account, address)
	if err != nil {
		return err
	}
	if err := f.l.Succeed(context.Background(), a); err != nil {
		f.t.Fatal(err)
	}
	return nil
}

// failuresUntil makes n failed attempts of account from address, waiting
// out every refusal on the clock, and returns the waits it was given.
func (f *fixture) failuresUntil(n int, account, address string) []time.Duration {
	f.t.Helper()
	var waits []time.Duration
	for done := 0; done < n; {
		wait, ok := f.fail(f.l, account, address)
		if ok {
			done++
			continue
		}
		if wait <= 0 || wait > signin.PairMaxDelay {
			f.t.Fatalf("wait %v after %d failures", wait, done)
		}
		waits = append(waits, wait)
		f.clock.Advance(wait)
	}
	return waits
}

func TestOwnerFromAKnownAddressSignsInAfterAnAttackersFailures(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.succeed("owner@example.com", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	f.failuresUntil(50, "owner@example.com", "203.0.113.9")
	if err := f.succeed("owner@example.com", "10.0.0.1"); err != nil {
		t.Fatalf("owner from a known address after 50 failures elsewhere: %v", err)
	}
	// A known address's own failures still count for it.
	f.failuresUntil(signin.PairFreeFailures, "owner@example.com", "10.0.0.1")
	if wait, ok := f.fail(f.l, "owner@example.com", "10.0.0.1"); ok || wait <= 0 {
		t.Errorf("known address after its own %d failures: allowed=%v wait=%v", signin.PairFreeFailures, ok, wait)
	}
}

func TestAnAttackerIsDelayedMoreAndMore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for range signin.PairFreeFailures {
		if _, ok := f.fail(f.l, "victim@example.com", "203.0.113.9"); !ok {
			t.Fatal("refused within the free attempts")
		}
	}
	waits := f.failuresUntil(12, "victim@example.com", "203.0.113.9")
	if len(waits) < 10 {
		t.Fatalf("only %d refusals for 12 failures past the free ones: %v", len(waits), waits)
	}
	if waits[0] != signin.PairBaseDelay {
		t.Errorf("first delay %v, want %v", waits[0], signin.PairBaseDelay)
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] < waits[i-1] {
			t.Fatalf("delays shrink: %v", waits)
		}
	}
	if waits[len(waits)-1] < 8*waits[0] {
		t.Errorf("delays do not grow: %v", waits)
	}
	// Refused attempts are not counted: the wait only runs down.
	wait, _ := f.fail(f.l, "victim@example.com", "203.0.113.9")
	f.clock.Advance(time.Second)
	again, ok := f.fail(f.l, "victim@example.com", "203.0.113.9")
	if ok || again != wait-time.Second {
		t.Errorf("wait %v then %v one second later (allowed=%v)", wait, again, ok)
	}
}

func TestDelaysAreCapped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	waits := f.failuresUntil(40, "victim@example.com", "203.0.113.9")
	if last := waits[len(waits)-1]; last != signin.PairMaxDelay {
		t.Errorf("delay after 40 failures %v, want the cap %v", last, signin.PairMaxDelay)
	}
}

func TestTwoProcessesShareTheState(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	other := signin.New(f.db.SQL, f.clock, key) // a second process on the same database
	for i := range signin.PairFreeFailures {
		l := f.l
		if i%2 == 1 {
			l = other
		}
		if _, ok := f.fail(l, "victim@example.com", "203.0.113.9"); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	for _, l := range []*signin.Limiter{f.l, other} {
		if wait, ok := f.fail(l, "victim@example.com", "203.0.113.9"); ok || wait <= 0 {
			t.Errorf("after %d failures across both: allowed=%v wait=%v", signin.PairFreeFailures, ok, wait)
		}
	}
}

func TestParallelWrongGuessesCannotExceedTheFreeAttempts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var wg sync.WaitGroup
	allowed := make([]bool, 30)
	errs := make([]error, 30)
	for i := range allowed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := f.l
			if i%2 == 1 {
				l = signin.New(f.db.SQL, f.clock, key)
			}
			_, err := l.Begin(context.Background(), realm, "victim@example.com", "203.0.113.9")
			var th *signin.Throttled
			allowed[i], errs[i] = err == nil, err
			if errors.As(err, &th) {
				errs[i] = nil
			}
		}()
	}
	wg.Wait()
	n := 0
	for i, ok := range allowed {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if ok {
			n++
		}
	}
	if n != signin.PairFreeFailures {
		t.Errorf("%d of 30 parallel attempts allowed, want %d", n, signin.PairFreeFailures)
	}
}

func TestUnknownAddressesMeetTheAccountCeiling(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.succeed("owner@example.com", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	// A botnet: every address stays within its free attempts.
	for i := range signin.AccountFreeFailures {
		addr := "198.51.100." + string(rune('a'+i/signin.PairFreeFailures))
		if _, ok := f.fail(f.l, "owner@example.com", addr); !ok {
			t.Fatalf("failure %d refused", i+1)
		}
	}
	wait, ok := f.fail(f.l, "owner@example.com", "192.0.2.77")
	if ok || wait != signin.AccountBaseDelay {
		t.Errorf("a new address after %d failures on the account: allowed=%v wait=%v", signin.AccountFreeFailures, ok, wait)
	}
	if err := f.succeed("owner@example.com", "10.0.0.1"); err != nil {
		t.Errorf("the owner's known address: %v", err)
	}
	f.clock.Advance(wait)
	if err := f.succeed("owner@example.com", "192.0.2.77"); err != nil {
		t.Errorf("a new address after the delay: %v", err)
	}
}

func TestOneAddressAcrossManyAccounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range signin.AddressFailureLimit {
		if _, ok := f.fail(f.l, "probe"+string(rune('a'+i))+"@example.com", "203.0.113.9"); !ok {
			t.Fatalf("probe %d refused", i+1)
		}
	}
	wait, ok := f.fail(f.l, "fresh@example.com", "203.0.113.9")
	if ok || wait != signin.AddressWindow {
		t.Errorf("after %d failures from one address: allowed=%v wait=%v", signin.AddressFailureLimit, ok, wait)
	}
	if _, ok := f.fail(f.l, "fresh@example.com", "203.0.113.10"); !ok {
		t.Error("another address was refused")
	}
	f.clock.Advance(signin.AddressWindow)
	if _, ok := f.fail(f.l, "fresh@example.com", "203.0.113.9"); !ok {
		t.Error("refused after the window")
	}
}

func TestSuccessTakesTheAttemptBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for range signin.PairFreeFailures - 1 {
		f.fail(f.l, "user@example.com", "10.0.0.1")
	}
	if err := f.succeed("user@example.com", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	for i := range signin.PairFreeFailures {
		if _, ok := f.fail(f.l, "user@example.com", "10.0.0.1"); !ok {
			t.Fatalf("failure %d after a success refused: the success did not reset the pair", i+1)
		}
	}
	// The address's count lost the successful attempt: 2*free-1 failures counted.
	for i := 2*signin.PairFreeFailures - 1; i < signin.AddressFailureLimit; i++ {
		if _, ok := f.fail(f.l, "other"+string(rune('a'+i))+"@example.com", "10.0.0.1"); !ok {
			t.Fatalf("address failure %d refused", i+1)
		}
	}
	if _, ok := f.fail(f.l, "last@example.com", "10.0.0.1"); ok {
		t.Error("the address ceiling did not hold")
	}
}

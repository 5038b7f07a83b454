package signin_test

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-platform/strata/commands/signin"
)

func TestRealmsAreSeparate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.failuresUntil(signin.PairFreeFailures, "user@example.com", "10.0.0.1")
	if _, err := f.l.Begin(context.Background(), "other", "user@example.com", "10.0.0.1"); err != nil {
		t.Errorf("another realm's account: %v", err)
	}
}

func TestTheSweepRemovesExpiredRows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.succeed("owner@example.com", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	f.failuresUntil(8, "owner@example.com", "203.0.113.9")
	count := func() (n int) {
		t.Helper()
		err := f.db.SQL.QueryRow(`SELECT (SELECT count(*) FROM platform.signin_counters) + (SELECT count(*) FROM platform.signin_known_addresses)`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	if before == 0 {
		t.Fatal("nothing stored")
	}
	if n, err := f.l.Sweep(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep of fresh rows removed %d (%v)", n, err)
	}
	f.clock.Advance(signin.FailureMemory + signin.PairMaxDelay)
	if n, err := f.l.Sweep(context.Background()); err != nil || n == 0 {
		t.Fatalf("sweep after the failure memory removed %d (%v)", n, err)
	}
	if after := count(); after != 1 { // the known address stays longer
		t.Errorf("%d rows left, want the known address", after)
	}
	f.clock.Advance(signin.KnownAddressMemory)
	if _, err := f.l.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := count(); after != 0 {
		t.Errorf("%d rows left after the known-address memory", after)
	}
}

func TestTheRefusalIsTheSameForEveryAccount(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var msgs []string
	for _, account := range []string{"exists@example.com", "nobody@example.com"} {
		f.failuresUntil(signin.PairFreeFailures, account, "10.0.0."+account[:1])
		_, err := f.l.Begin(context.Background(), realm, account, "10.0.0."+account[:1])
		var th *signin.Throttled
		if !errors.As(err, &th) {
			t.Fatalf("%s: %v", account, err)
		}
		msgs = append(msgs, th.Error())
	}
	if msgs[0] != msgs[1] {
		t.Errorf("refusals differ: %q vs %q", msgs[0], msgs[1])
	}
}

package gateway_test

import (
	"context"
	stdsql "database/sql"
	"errors"
	"testing"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/credits"
)

func TestAServiceChargeIsDebitedOncePerChargeID(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	p := w.process(cmdgateway.RecorderConfig{})
	if _, err := p.ledger.SetBalance(ctx, "acc", credits.FromCredits(500), "ops"); err != nil {
		t.Fatal(err)
	}
	charge := func(id string) error {
		return w.store.InTx(ctx, func(tx *stdsql.Tx) error {
			return p.billing.ChargeTx(ctx, tx, "acc", id, 123_450_000, "avatar video job-1: 12.345 s")
		})
	}
	if err := charge("avatar:job-1"); err != nil {
		t.Fatal(err)
	}
	if err := charge("avatar:job-1"); !errors.Is(err, cmdgateway.ErrAlreadyCharged) {
		t.Fatalf("second charge: %v", err)
	}
	x, err := p.ledger.Balance(ctx, "acc", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := credits.FromCredits(500) - 123_450_000; x.Balance() != want {
		t.Fatalf("balance %s, want %s", x.Balance().Decimal(), want.Decimal())
	}
	if err := w.store.InTx(ctx, func(tx *stdsql.Tx) error {
		return p.billing.ChargeTx(ctx, tx, "acc", "neg", -1, "")
	}); err == nil {
		t.Fatal("a negative charge was accepted")
	}
}

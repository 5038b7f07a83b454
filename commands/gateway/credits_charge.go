package gateway

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// scopeCharge is the unique-claim scope of service charges: one per charge id.
const scopeCharge = "gateway.credits.charge"

// ErrAlreadyCharged reports a charge whose id was charged before.
var ErrAlreadyCharged = errors.New("gateway credits: charged already")

// AvailableMicro is the account's balance in micro-credits, after
// recording what its period is owed: what other services check before
// they accept paid work (a non-positive balance refuses it).
func (b *Billing) AvailableMicro(ctx context.Context, account string) (int64, error) {
	if err := b.ledger.EnsurePeriod(ctx, account); err != nil {
		return 0, err
	}
	return int64(b.Available(account)), nil
}

// ChargeTx debits micro micro-credits from the account for a service's
// work (an avatar video's seconds) inside tx, the transaction that
// records the work done: an adjustment of reason service_charge on the
// account's credits stream, under the account's ledger lock, and a claim
// of chargeID so that it is charged once (ErrAlreadyCharged otherwise, and
// tx must roll back). The balance may go below zero: the work was done.
func (b *Billing) ChargeTx(ctx context.Context, tx *stdsql.Tx, account, chargeID string, micro int64, note string) error {
	switch {
	case strings.TrimSpace(account) == "" || strings.TrimSpace(chargeID) == "":
		return errors.New("gateway credits: a charge needs an account and a charge id")
	case micro < 0:
		return fmt.Errorf("gateway credits: a charge of %d micro-credits is negative", micro)
	}
	if err := lockAccount(ctx, tx, account); err != nil {
		return err
	}
	app, err := b.ledger.store.AppendTx(ctx, tx, accountStream(account), eventstore.AnyVersion, &credits.Adjusted{
		AccountID: account, AmountMicro: -credits.Micro(micro), Reason: credits.ReasonServiceCharge, Actor: "charge:" + chargeID,
		Note: note, At: b.ledger.clock.Now()})
	if err != nil {
		return fmt.Errorf("charge %s: %w", chargeID, err)
	}
	err = eventstore.Claim(ctx, tx, scopeCharge, chargeID, "charge:"+app.EventIDs[0], "charge_id")
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Rule == "unique" {
		return ErrAlreadyCharged
	}
	return err
}

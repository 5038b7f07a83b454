package eventstore_test

import (
	"context"
	stdsql "database/sql"
	"testing"

	"github.com/strata-platform/strata/eventstore"
)

func TestClaimOwnerNamesTheHolder(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	if owner, err := eventstore.ClaimOwner(ctx, s.DB(), "test.email", "b@example.com"); err != nil || owner != "" {
		t.Fatalf("unclaimed: %q %v", owner, err)
	}
	if err := s.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.AppendTx(ctx, tx, eventstore.Stream{Type: "test.account", ID: "acc-b"}, eventstore.NoStream, noted{Text: "b"}); err != nil {
			return err
		}
		if err := eventstore.Claim(ctx, tx, "test.email", "b@example.com", "acc-b", "email"); err != nil {
			return err
		}
		if owner, err := eventstore.ClaimOwner(ctx, tx, "test.email", "b@example.com"); err != nil || owner != "acc-b" {
			t.Errorf("inside the claiming transaction: %q %v", owner, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if owner, err := eventstore.ClaimOwner(ctx, s.DB(), "test.email", "b@example.com"); err != nil || owner != "acc-b" {
		t.Fatalf("claimed: %q %v", owner, err)
	}
	if owner, _ := eventstore.ClaimOwner(ctx, s.DB(), "test.other", "b@example.com"); owner != "" {
		t.Fatalf("another scope: %q", owner)
	}
}

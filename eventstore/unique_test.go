package eventstore_test

import (
	"context"
	stdsql "database/sql"
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

func TestClaimIsUniqueAndAtomicWithTheAppend(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	register := func(id, email string) error {
		return s.InTx(ctx, func(tx *stdsql.Tx) error {
			if _, err := s.AppendTx(ctx, tx, eventstore.Stream{Type: "test.account", ID: id}, eventstore.NoStream, noted{Text: email}); err != nil {
				return err
			}
			return eventstore.Claim(ctx, tx, "test.email", email, id, "email")
		})
	}
	if err := register("acc-1", "a@example.com"); err != nil {
		t.Fatal(err)
	}
	err := register("acc-2", "a@example.com")
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindConflict || ke.Field != "email" || ke.Rule != "unique" {
		t.Fatalf("second claim: got %v, want a conflict on field email, rule unique", err)
	}
	if v, _ := s.Version(ctx, "acc-2"); v != 0 {
		t.Fatal("the losing append was kept although its claim failed")
	}
	if err := s.InTx(ctx, func(tx *stdsql.Tx) error {
		return eventstore.Release(ctx, tx, "test.email", "a@example.com", "acc-1")
	}); err != nil {
		t.Fatal(err)
	}
	if err := register("acc-3", "a@example.com"); err != nil {
		t.Fatalf("claim after release: %v", err)
	}
}

package kernel

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorKindsMatchThroughWrapping(t *testing.T) {
	err := fmt.Errorf("append stream s-1: %w", Conflict("stream s-1 is at version 3, expected 2", nil))
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("errors.Is(%v, ErrConflict) = false", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Fatalf("a conflict matched ErrNotFound")
	}
	if got := KindOf(err); got != KindConflict {
		t.Fatalf("KindOf = %v, want conflict", got)
	}
	if got := KindOf(errors.New("boom")); got != KindInternal {
		t.Fatalf("KindOf(plain) = %v, want internal", got)
	}
}

func TestInvalidNamesFieldAndRule(t *testing.T) {
	err := Invalid("email", "required", "email is required")
	want := "invalid: email is required (field email, rule required)"
	if err.Error() != want {
		t.Fatalf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestFixedIDsInOrder(t *testing.T) {
	ids := FixedIDs("a", "b")
	if ids.NewID() != "a" || ids.NewID() != "b" {
		t.Fatal("FixedIDs out of order")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("FixedIDs did not panic when exhausted")
		}
	}()
	ids.NewID()
}

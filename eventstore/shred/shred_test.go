package shred_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func ring(t *testing.T, b byte) *shred.KeyRing {
	t.Helper()
	k, err := shred.New(bytes.Repeat([]byte{b}, 32), 10)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// SealWith binds the value to its additional data: it opens with the same
// data only, never through Open, and Seal's values never through OpenWith.
// A key stored in one transaction opens in a ring with an empty cache.
func TestSealWithBindsAdditionalData(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	ctx := context.Background()
	k := ring(t, 1)
	nk, err := k.Fresh("subject-1", "owner-1")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Store(ctx, tx, nk); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	ad := []byte("company\x00NAME\x001")
	fromNew := nk.SealWith([]byte("s3cret"), ad)
	cold := ring(t, 1) // another process: the key comes from the table
	fromRing, err := cold.SealWith(ctx, db.SQL, "subject-1", []byte("s3cret"), ad)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		k    *shred.KeyRing
	}{{"cold ring", cold}, {"ring that stored the key", k}} {
		for _, v := range []kernel.Sealed{fromNew, fromRing} {
			got, err := r.k.OpenWith(ctx, db.SQL, v, ad)
			if err != nil || string(got) != "s3cret" {
				t.Fatalf("%s: %q %v", r.name, got, err)
			}
			for _, other := range [][]byte{nil, []byte("company\x00NAME\x002"), []byte("company\x00OTHER\x001"), []byte("other\x00NAME\x001")} {
				if _, err := r.k.OpenWith(ctx, db.SQL, v, other); err == nil {
					t.Fatalf("%s: opened with additional data %q", r.name, other)
				}
			}
			if _, err := r.k.Open(ctx, db.SQL, v); err == nil {
				t.Fatalf("%s: a SealWith value opened through Open", r.name)
			}
		}
	}
	plain, err := k.Seal(ctx, db.SQL, "subject-1", []byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.OpenWith(ctx, db.SQL, plain, nil); err == nil {
		t.Fatal("a Seal value opened through OpenWith")
	}
	if got, err := k.Open(ctx, db.SQL, plain); err != nil || string(got) != "s3cret" {
		t.Fatalf("Open: %q %v", got, err)
	}
	// Another wrapping key cannot unwrap the stored key.
	if _, err := ring(t, 2).OpenWith(ctx, db.SQL, fromNew, ad); err == nil || errors.Is(err, shred.ErrShredded) {
		t.Fatalf("another master key: %v", err)
	}
	// Shredded: ErrShredded.
	if err := k.Shred(ctx, db.SQL, "subject-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ring(t, 1).OpenWith(ctx, db.SQL, fromNew, ad); !errors.Is(err, shred.ErrShredded) {
		t.Fatalf("after shred: %v", err)
	}
	var n int
	if err := db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM es.subject_keys`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("keys left: %d %v", n, err)
	}
}

package passwords

import (
	"context"
	"strings"
	"testing"
)

func TestHasherRoundTripAndPHCFormat(t *testing.T) {
	h := NewHasher(Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16})
	ctx := context.Background()
	enc, err := h.Hash(ctx, "Corr3ct-horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash %q is not a PHC argon2id string", enc)
	}
	again, _ := h.Hash(ctx, "Corr3ct-horse")
	if again == enc {
		t.Error("two hashes of one password are equal: salt not random")
	}
	for pw, want := range map[string]bool{"Corr3ct-horse": true, "corr3ct-horse": false, "": false} {
		if ok, err := h.Verify(ctx, pw, enc); err != nil || ok != want {
			t.Errorf("Verify(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	// A hash made with other parameters still verifies with its own.
	other := NewHasher(Argon2Params{MemoryKiB: 128, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16})
	if ok, err := other.Verify(ctx, "Corr3ct-horse", enc); err != nil || !ok {
		t.Errorf("cross-parameter verify: %v %v", ok, err)
	}
	// No stored hash: the dummy runs and the answer is no.
	if ok, err := h.Verify(ctx, "anything", ""); err != nil || ok {
		t.Errorf("empty hash verified: %v %v", ok, err)
	}
	if _, err := h.Verify(ctx, "x", "$bcrypt$..."); err == nil {
		t.Error("a non-argon2id hash was accepted")
	}
}

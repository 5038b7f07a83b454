package sealed

import (
	"bytes"
	"testing"
)

func TestSealOpen(t *testing.T) {
	b, err := New(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	v := b.Seal([]byte("hello"), "cookie")
	if got, err := b.Open(v, "cookie"); err != nil || string(got) != "hello" {
		t.Fatalf("open: %q %v", got, err)
	}
	if v2 := b.Seal([]byte("hello"), "cookie"); v2 == v {
		t.Fatal("two seals of one value are equal (nonce reused)")
	}
	if _, err := b.Open(v, "other purpose"); err != ErrInvalid {
		t.Fatal("opened under another purpose")
	}
	tampered := []byte(v)
	tampered[len(tampered)-2] ^= 1
	if _, err := b.Open(string(tampered), "cookie"); err != ErrInvalid {
		t.Fatal("opened a tampered value")
	}
	other, _ := New(bytes.Repeat([]byte{2}, 32))
	if _, err := other.Open(v, "cookie"); err != ErrInvalid {
		t.Fatal("opened under another key")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}

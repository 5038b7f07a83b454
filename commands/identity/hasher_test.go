package identity

import (
	"strings"
	"testing"
)

func TestMasterKeySealsAndDetectsAnotherKey(t *testing.T) {
	a, _ := NewMasterKey([]byte(strings.Repeat("a", 32)))
	b, _ := NewMasterKey([]byte(strings.Repeat("b", 32)))
	sealed, err := a.Seal([]byte("private key"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.Open(sealed); err != nil || string(got) != "private key" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := b.Open(sealed); err == nil {
		t.Error("another master key opened the sealed value")
	}
	if a.ID() == b.ID() {
		t.Error("two master keys share an id")
	}
	path := t.TempDir() + "/master.key"
	first, err := LoadMasterKey("", path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadMasterKey("", path)
	if err != nil || second.ID() != first.ID() {
		t.Errorf("master key file not kept: %v", err)
	}
	if _, err := LoadMasterKey("not base64!", path); err == nil {
		t.Error("bad STRATA_MASTER_KEY accepted")
	}
}

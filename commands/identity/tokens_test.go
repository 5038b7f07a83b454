package identity

import (
	"strings"
	"sync"
	"testing"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

type keyList struct {
	mu   sync.Mutex
	keys []ident.SigningKeyAdded
}

func (l *keyList) SigningKeys() []ident.SigningKeyAdded {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ident.SigningKeyAdded(nil), l.keys...)
}

func (l *keyList) add(k ident.SigningKeyAdded) {
	l.mu.Lock()
	l.keys = append(l.keys, k)
	l.mu.Unlock()
}

// TestVerifyWhileKeysAreAdded verifies tokens on several goroutines while
// signing keys arrive (run with -race).
func TestVerifyWhileKeysAreAdded(t *testing.T) {
	master, _ := NewMasterKey([]byte(strings.Repeat("m", 32)))
	clock := kernel.NewFixedClock(time.Now())
	src := &keyList{}
	first, err := NewSigningKey(master, "k0", clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	src.add(*first)
	tokens := NewTokens(src, master, "iss", "aud", clock)
	tok, _, _, err := tokens.Issue(ident.User{ID: "u1", Email: "u@example.com", Role: ident.RoleUser})
	if err != nil {
		t.Fatal(err)
	}
	var extra []*ident.SigningKeyAdded
	for i := range 3 {
		k, err := NewSigningKey(master, "k"+string(rune('1'+i)), clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, k)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if _, err := tokens.Verify(tok); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for _, k := range extra {
		src.add(*k)
		time.Sleep(time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	set, err := tokens.JWKS()
	if err != nil || len(set.Keys) != 4 {
		t.Errorf("JWKS: %d keys, %v", len(set.Keys), err)
	}
}

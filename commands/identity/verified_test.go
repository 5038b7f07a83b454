package identity

import (
	"fmt"
	"testing"
	"time"
)

func TestVerifiedCache(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var v verifiedCache[string]
	v.put("tok", "claims", now.Add(time.Minute), now)
	if c, ok := v.get("tok", now); !ok || c != "claims" {
		t.Fatal("miss on a fresh entry")
	}
	if _, ok := v.get("tok", now.Add(time.Minute)); ok {
		t.Fatal("hit on an expired entry")
	}
	if _, ok := v.get("tok2", now); ok {
		t.Fatal("hit on another token")
	}
	v = verifiedCache[string]{}
	for i := range maxVerified {
		v.put(fmt.Sprint(i), "c", now.Add(time.Second), now)
	}
	later := now.Add(2 * time.Second) // every entry so far has expired
	v.put("new", "c", later.Add(time.Minute), later)
	if len(v.entries) != 1 {
		t.Fatalf("expired entries kept: %d", len(v.entries))
	}
	for i := range maxVerified {
		v.put(fmt.Sprint(i), "c", later.Add(time.Hour), later)
	}
	if len(v.entries) > maxVerified {
		t.Fatalf("cache grew past its bound: %d", len(v.entries))
	}
}

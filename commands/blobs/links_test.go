package blobs

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func TestLinksRefuseAnyAlteredToken(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	l := NewLinks(bytes.Repeat([]byte{9}, 32), func() time.Time { return now })
	tok := l.Sign(Link{Owner: "o", Digest: "d", Name: "n.csv", Type: "text/csv", Expires: now.Add(time.Hour)})
	if _, err := l.Verify(tok); err != nil {
		t.Fatal(err)
	}
	// Every one-character change, the last one's spare bits included.
	alphabet := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range tok {
		for _, c := range []byte(alphabet + ".") {
			if c == tok[i] {
				continue
			}
			bad := []byte(tok)
			bad[i] = c
			if _, err := l.Verify(string(bad)); err == nil {
				t.Fatalf("altered token accepted: position %d, %q for %q", i, c, tok[i])
			}
		}
	}
	if _, err := NewLinks(bytes.Repeat([]byte{8}, 32), nil).Verify(tok); !errors.Is(err, ErrLinkInvalid) {
		t.Fatalf("another key: %v", err)
	}
	now = now.Add(time.Hour)
	if _, err := l.Verify(tok); !errors.Is(err, ErrLinkExpired) {
		t.Fatalf("at expiry: %v", err)
	}
}

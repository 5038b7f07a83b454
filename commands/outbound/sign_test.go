package outbound_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
)

func TestSignFormat(t *testing.T) {
	at := time.Unix(1717171717, 0)
	body := []byte(`{"event":"call.ended"}`)
	m := hmac.New(sha256.New, []byte("whsec_test"))
	m.Write([]byte("1717171717." + string(body)))
	want := "t=1717171717,v1=" + hex.EncodeToString(m.Sum(nil))
	if got := outbound.Sign("whsec_test", body, at); got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
}

func TestSignVerifyRoundTrip(t *testing.T) {
	now := time.Now()
	body := []byte(`{"id":"evt_1","amount":100}`)
	h := outbound.Sign("s3cret", body, now)
	if err := outbound.Verify("s3cret", h, body, 0, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, "https://example.com/hook", nil)
	outbound.SignRequest(req, body, now, "s3cret")
	if err := outbound.Verify("s3cret", req.Header.Get(outbound.SignatureHeader), body, time.Minute, now); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"amount":100}`)
	h := outbound.Sign("s3cret", body, now)
	for _, tc := range []struct {
		name   string
		secret string
		header string
		body   []byte
		now    time.Time
		want   error
	}{
		{"tampered body", "s3cret", h, []byte(`{"amount":900}`), now, outbound.ErrSignatureMismatch},
		{"wrong secret", "other", h, body, now, outbound.ErrSignatureMismatch},
		{"old timestamp", "s3cret", h, body, now.Add(6 * time.Minute), outbound.ErrSignatureExpired},
		{"future timestamp", "s3cret", h, body, now.Add(-6 * time.Minute), outbound.ErrSignatureExpired},
		{"replayed signature under a new timestamp", "s3cret", strings.Replace(h, "t=1800000000", "t=1800000300", 1), body, now.Add(5 * time.Minute), outbound.ErrSignatureMismatch},
		{"no v1", "s3cret", "t=1800000000", body, now, outbound.ErrSignatureFormat},
		{"no t", "s3cret", strings.Split(h, ",")[1], body, now, outbound.ErrSignatureFormat},
		{"two t", "s3cret", h + ",t=1800000000", body, now, outbound.ErrSignatureFormat},
		{"garbage", "s3cret", "nonsense", body, now, outbound.ErrSignatureFormat},
		{"empty", "s3cret", "", body, now, outbound.ErrSignatureFormat},
	} {
		if err := outbound.Verify(tc.secret, tc.header, tc.body, 5*time.Minute, tc.now); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestVerifyRotation(t *testing.T) {
	now := time.Now()
	body := []byte("payload")
	h := outbound.SignRotating([]string{"old", "new"}, body, now)
	if strings.Count(h, "v1=") != 2 {
		t.Fatalf("header %q, want two v1", h)
	}
	for _, s := range []string{"old", "new"} {
		if err := outbound.Verify(s, h, body, time.Minute, now); err != nil {
			t.Errorf("secret %q: %v", s, err)
		}
	}
	if err := outbound.Verify("third", h, body, time.Minute, now); !errors.Is(err, outbound.ErrSignatureMismatch) {
		t.Errorf("third secret: %v", err)
	}
	// Unknown schemes are ignored, as Stripe's v0 is.
	if err := outbound.Verify("new", h+",v0=abc", body, time.Minute, now); err != nil {
		t.Errorf("with v0: %v", err)
	}
}

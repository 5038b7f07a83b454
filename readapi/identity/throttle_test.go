package identity_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/signin"
)

// from is a caller whose connections come from a loopback address of its
// own (127.0.0.0/8 all reaches the test server), so the server sees it as
// a distinct client address.
type from struct {
	e      *env
	client *http.Client
}

func (e *env) from(ip string) *from {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &from{e: e, client: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}}
}

// login posts {email, password} to path and returns the status, the body
// and the Retry-After header in seconds (0 without one).
func (f *from) login(path, email, password string) (int, map[string]any, int) {
	f.e.t.Helper()
	field := "email"
	if path == "/api/v1/auth/login-json" {
		field = "username"
	}
	b, _ := json.Marshal(map[string]string{field: email, "password": password})
	resp, err := f.client.Post(f.e.url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		f.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	_ = json.Unmarshal(raw, &out)
	ra := 0
	if h := resp.Header.Get("Retry-After"); h != "" {
		if ra, err = strconv.Atoi(h); err != nil || ra < 1 {
			f.e.t.Fatalf("Retry-After %q", h)
		}
	}
	return resp.StatusCode, out, ra
}

// failures makes n wrong-password sign-ins from f, waiting out each 429 on
// the clock, and returns the Retry-After values it was given.
func (f *from) failures(n int, email string) []int {
	f.e.t.Helper()
	var waits []int
	for done := 0; done < n; {
		st, body, ra := f.login("/api/v1/auth/login", email, "Wrong-pass-"+strconv.Itoa(done))
		switch st {
		case http.StatusUnauthorized:
			done++
		case http.StatusTooManyRequests:
			if ra == 0 {
				f.e.t.Fatalf("429 without Retry-After: %v", body)
			}
			waits = append(waits, ra)
			f.e.clock.Advance(time.Duration(ra) * time.Second)
		default:
			f.e.t.Fatalf("wrong password: %d %v", st, body)
		}
	}
	return waits
}

func TestTheOwnerSignsInFromAKnownAddressDuringAnAttack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("owner@example.com")
	owner, attacker := e.from("127.0.0.2"), e.from("127.0.0.3")
	if st, body, _ := owner.login("/api/v1/auth/login", "owner@example.com", goodPassword); st != http.StatusOK {
		t.Fatalf("owner's first sign-in: %d %v", st, body)
	}
	waits := attacker.failures(50, "owner@example.com")
	if len(waits) < 10 || waits[len(waits)-1] <= waits[0] {
		t.Errorf("the attacker's delays do not grow: %v", waits)
	}
	if st, _, ra := attacker.login("/api/v1/auth/login", "owner@example.com", goodPassword); st != http.StatusTooManyRequests || ra == 0 {
		t.Errorf("the right password from the attacker's address: %d Retry-After %d", st, ra)
	}
	for _, path := range []string{"/api/v1/auth/login", "/api/v1/auth/login-json"} {
		if st, body, _ := owner.login(path, "owner@example.com", goodPassword); st != http.StatusOK {
			t.Errorf("owner from a known address after 50 failures elsewhere, %s: %d %v", path, st, body)
		}
	}
	// From an address it never signed in from, the owner meets the account-wide delay.
	if st, _, ra := e.from("127.0.0.4").login("/api/v1/auth/login", "owner@example.com", goodPassword); st != http.StatusTooManyRequests || ra == 0 {
		t.Errorf("owner from a new address: %d Retry-After %d", st, ra)
	}
}

func TestAThrottledAnswerDoesNotTellWhetherTheAccountExists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("real@example.com")
	var answers []map[string]any
	var waits []int
	for _, email := range []string{"real@example.com", "ghost@example.com"} {
		c := e.from("127.0.0.5")
		if email == "ghost@example.com" {
			c = e.from("127.0.0.6")
		}
		c.failures(signin.PairFreeFailures, email)
		st, body, ra := c.login("/api/v1/auth/login", email, goodPassword)
		if st != http.StatusTooManyRequests {
			t.Fatalf("%s after %d failures: %d %v", email, signin.PairFreeFailures, st, body)
		}
		delete(body, "instance")
		delete(body, "request_id")
		answers, waits = append(answers, body), append(waits, ra)
	}
	a, _ := json.Marshal(answers[0])
	b, _ := json.Marshal(answers[1])
	if !bytes.Equal(a, b) || waits[0] != waits[1] {
		t.Errorf("throttled answers differ:\n%s Retry-After %d\n%s Retry-After %d", a, waits[0], b, waits[1])
	}
}

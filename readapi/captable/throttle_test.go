package captable_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/signin"
)

// loginFrom posts the cap table's login from a loopback address of its own
// (the surface sees it as the client address).
func (w *world) loginFrom(ip, email, password string) reply {
	w.t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	b, _ := json.Marshal(map[string]string{"email": email, "password": password})
	res, err := c.Post(w.url+"/auth/login", "application/json", bytes.NewReader(b))
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := reply{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// retryAfter returns a sign-in throttle's 429's Retry-After in seconds.
func retryAfter(t *testing.T, r reply) int {
	t.Helper()
	ra, err := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != http.StatusTooManyRequests || err != nil || ra < 1 || str(r.body["error"]) != "RATE_LIMITED" ||
		!strings.Contains(str(r.body["message"]), "sign-in") {
		t.Fatalf("want the sign-in throttle's 429 with Retry-After, got %d %q %s", r.status, r.header.Get("Retry-After"), r.raw)
	}
	return ra
}

// wrongPasswords makes n failed logins from ip, waiting out each delay on
// the clock, and returns the delays.
func (w *world) wrongPasswords(n int, ip, email string) []int {
	w.t.Helper()
	var waits []int
	for done := 0; done < n; {
		r := w.loginFrom(ip, email, "wrong-password-"+strconv.Itoa(done))
		if r.status == http.StatusUnauthorized {
			done++
			continue
		}
		ra := retryAfter(w.t, r)
		waits = append(waits, ra)
		w.platform.Clock.Advance(time.Duration(ra) * time.Second)
	}
	return waits
}

func TestTheCapTableLoginIsThrottled(t *testing.T) {
	t.Parallel()
	w := start(t)
	w.register("Ada", "ada@throttle.test", "Acme")
	if r := w.loginFrom("127.0.0.2", "ada@throttle.test", "correct-horse-9"); r.status != http.StatusOK {
		t.Fatalf("owner's sign-in: %d %s", r.status, r.raw)
	}
	waits := w.wrongPasswords(52, "127.0.0.3", "ada@throttle.test")
	if len(waits) < 10 || waits[len(waits)-1] <= waits[0] {
		t.Errorf("the attacker's delays do not grow: %v", waits)
	}
	retryAfter(t, w.loginFrom("127.0.0.3", "ada@throttle.test", "correct-horse-9"))
	if r := w.loginFrom("127.0.0.2", "ada@throttle.test", "correct-horse-9"); r.status != http.StatusOK {
		t.Errorf("owner from a known address after 52 failures elsewhere: %d %s", r.status, r.raw)
	}
}

func TestTheCapTableThrottlesUnknownEmailsAlike(t *testing.T) {
	t.Parallel()
	w := start(t)
	w.register("Bo", "bo@throttle.test", "Acme")
	var answers []string
	for i, email := range []string{"bo@throttle.test", "nobody@throttle.test"} {
		ip := "127.0.0." + strconv.Itoa(5+i)
		w.wrongPasswords(signin.PairFreeFailures, ip, email)
		r := w.loginFrom(ip, email, "correct-horse-9")
		retryAfter(t, r)
		delete(r.body, "requestId")
		b, _ := json.Marshal(r.body)
		answers = append(answers, string(b)+" Retry-After "+r.header.Get("Retry-After"))
	}
	if answers[0] != answers[1] {
		t.Errorf("throttled answers differ:\n%s\n%s", answers[0], answers[1])
	}
}

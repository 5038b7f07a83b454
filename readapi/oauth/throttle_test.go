package oauth_test

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/signin"
)

// browserFrom is a browser whose connections come from its own loopback
// address, which the provider sees as its client address.
func (e *env) browserFrom(ip string) *browser {
	b := e.browser()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	b.http.Transport = &http.Transport{DialContext: d.DialContext}
	return b
}

// TestTheSignInPageSharesTheSignInThrottle: failures on the sign-in page and
// on the login API from one address add up; the page answers 429 with
// Retry-After; the owner's known address still signs in.
func TestTheSignInPageSharesTheSignInThrottle(t *testing.T) {
	e := newEnv(t)
	id, _ := e.client(nil)
	owner := e.browserFrom("127.0.0.2")
	req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/auth/login",
		strings.NewReader(`{"email":"`+e.email+`","password":"`+password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	if p := owner.do(req); p.status != http.StatusOK {
		t.Fatalf("owner's sign-in: %d %s", p.status, p.body)
	}

	attacker := e.browserFrom("127.0.0.3")
	form := attacker.get(e.authURL(okParams(id))).hidden()
	guess := func(pw string) page {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set("email", e.email)
		f.Set("password", pw)
		return attacker.post("/oauth/login", f)
	}
	for i := range signin.PairFreeFailures {
		if i%2 == 1 { // through the API
			req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/auth/login",
				strings.NewReader(`{"email":"`+e.email+`","password":"Wr0ng-password"}`))
			req.Header.Set("Content-Type", "application/json")
			if p := attacker.do(req); p.status != http.StatusUnauthorized {
				t.Fatalf("API failure %d: %d", i+1, p.status)
			}
			continue
		}
		if p := guess("Wr0ng-password"); p.status != http.StatusUnauthorized {
			t.Fatalf("page failure %d: %d", i+1, p.status)
		}
	}
	p := guess(password)
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") == "" || !strings.Contains(p.body, `name="password"`) {
		t.Fatalf("the right password after %d failures: %d Retry-After %q", signin.PairFreeFailures, p.status, p.header.Get("Retry-After"))
	}

	f := owner.get(e.authURL(okParams(id))).hidden()
	f.Set("email", e.email)
	f.Set("password", password)
	if p := owner.post("/oauth/login", f); p.status != http.StatusOK || !strings.Contains(p.body, `value="allow"`) {
		t.Fatalf("owner's known address on the sign-in page: %d", p.status)
	}
}

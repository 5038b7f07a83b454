package outbound_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
)

// names is a Resolver over a fixed table, so the dial-time checks are
// tested without DNS.
type names map[string][]netip.Addr

func (n names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if ips, ok := n[host]; ok {
		return ips, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func one(ip string) []netip.Addr { return []netip.Addr{netip.MustParseAddr(ip)} }

// hostPort is the "127.0.0.1:port" of a test server.
func hostPort(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func get(t *testing.T, c *outbound.Client, u string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.Do(context.Background(), req, outbound.RetryPolicy{})
}

func wantRefused(t *testing.T, err error, rule string) *outbound.Refused {
	t.Helper()
	var ref *outbound.Refused
	if !errors.As(err, &ref) {
		t.Fatalf("err = %v, want *Refused (%s)", err, rule)
	}
	if ref.Rule != rule {
		t.Fatalf("rule = %q, want %q (%v)", ref.Rule, rule, err)
	}
	return ref
}

// refusedAddrs is every refused range, with the rule Classify names.
var refusedAddrs = []struct{ ip, rule string }{
	{"127.0.0.1", "loopback"},
	{"127.255.255.254", "loopback"},
	{"10.0.0.1", "private"},
	{"10.255.255.255", "private"},
	{"172.16.0.1", "private"},
	{"172.31.255.254", "private"},
	{"192.168.1.1", "private"},
	{"169.254.169.254", "link-local"},
	{"169.254.0.1", "link-local"},
	{"100.64.0.1", "cgnat"},
	{"100.127.255.254", "cgnat"},
	{"0.0.0.0", "unspecified"},
	{"0.1.2.3", "this-network"},
	{"224.0.0.1", "multicast"},
	{"239.255.255.250", "multicast"},
	{"255.255.255.255", "broadcast"},
	{"240.0.0.1", "reserved"},
	{"192.0.0.8", "reserved"},
	{"192.0.2.10", "documentation"},
	{"198.51.100.10", "documentation"},
	{"203.0.113.10", "documentation"},
	{"198.18.0.1", "benchmark"},
	{"198.19.255.254", "benchmark"},
	{"::", "unspecified"},
	{"::1", "loopback"},
	{"fc00::1", "private"},
	{"fd12:3456:789a::1", "private"},
	{"fe80::1", "link-local"},
	{"fec0::1", "private"},
	{"ff02::1", "multicast"},
	{"2001:db8::1", "documentation"},
	{"3fff::1", "documentation"},
	{"2001:2::1", "benchmark"},
	{"2001:0:4136:e378::1", "teredo"},
	{"100::1", "reserved"},
	{"::127.0.0.1", "reserved"},
	{"::ffff:127.0.0.1", "ipv4-mapped:loopback"},
	{"::ffff:10.1.2.3", "ipv4-mapped:private"},
	{"::ffff:169.254.169.254", "ipv4-mapped:link-local"},
	{"::ffff:0.0.0.0", "ipv4-mapped:unspecified"},
	{"64:ff9b::7f00:1", "nat64:loopback"},
	{"64:ff9b::a9fe:a9fe", "nat64:link-local"},
	{"64:ff9b::c0a8:101", "nat64:private"},
	{"64:ff9b:1::1", "nat64-local"},
	{"2002:7f00:1::1", "6to4:loopback"},
	{"2002:a00:1::1", "6to4:private"},
	{"4000::1", "reserved"},
}

func TestClassify(t *testing.T) {
	for _, tc := range refusedAddrs {
		if got := outbound.Classify(netip.MustParseAddr(tc.ip)); got != tc.rule {
			t.Errorf("Classify(%s) = %q, want %q", tc.ip, got, tc.rule)
		}
	}
	if got := outbound.Classify(netip.MustParseAddr("fe80::1%eth0")); got != "link-local" {
		t.Errorf("Classify(fe80::1%%eth0) = %q", got)
	}
	for _, ip := range []string{"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "198.20.0.1",
		"2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2a00:1450::1"} {
		if got := outbound.Classify(netip.MustParseAddr(ip)); got != "" {
			t.Errorf("Classify(%s) = %q, want public", ip, got)
		}
	}
}

// TestDialRefusesEveryRange resolves a name to each refused address and
// checks that the dial is refused with the right rule, and the same for the
// address written in the URL.
func TestDialRefusesEveryRange(t *testing.T) {
	for _, tc := range refusedAddrs {
		t.Run(tc.ip, func(t *testing.T) {
			c := outbound.New(outbound.Config{Resolver: names{"target.example": one(tc.ip)}})
			_, err := get(t, c, "http://target.example:8080/x?secret=1")
			ref := wantRefused(t, err, tc.rule)
			if want := net.JoinHostPort(tc.ip, "8080"); ref.Addr != netip.MustParseAddrPort(want).String() {
				t.Errorf("Addr = %q, want %q", ref.Addr, want)
			}
			if ref.URL != "http://target.example:8080/x" {
				t.Errorf("URL = %q", ref.URL)
			}
			_, err = get(t, c, "http://"+net.JoinHostPort(tc.ip, "80")+"/")
			wantRefused(t, err, tc.rule)
		})
	}
}

// A name with one public and one private address never dials the private
// one; a name with only refused addresses is refused.
func TestDialMixedAnswers(t *testing.T) {
	c := outbound.New(outbound.Config{Resolver: names{"rebind.example": {netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("127.0.0.1")}}})
	_, err := get(t, c, "http://rebind.example/")
	wantRefused(t, err, "loopback")
}

func TestRefusedURLs(t *testing.T) {
	c := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})
	for _, tc := range []struct{ url, rule string }{
		{"ftp://example.com/file", "scheme"},
		{"file:///etc/passwd", "scheme"},
		{"gopher://example.com/", "scheme"},
		{"http://user:pass@example.com/", "userinfo"},
		{"https://token@example.com/", "userinfo"},
	} {
		_, err := get(t, c, tc.url)
		ref := wantRefused(t, err, tc.rule)
		if strings.Contains(ref.Error(), "user:pass") || strings.Contains(ref.Error(), "token@") {
			t.Errorf("refusal leaks the password: %v", ref)
		}
	}
	if err := c.Check(context.Background(), "http://u:p@example.com/"); err == nil {
		t.Error("Check accepted userinfo")
	}
}

func TestCheck(t *testing.T) {
	c := outbound.New(outbound.Config{Resolver: names{"meta.example": one("169.254.169.254"), "ok.example": one("93.184.215.14")}})
	wantRefused(t, c.Check(context.Background(), "https://meta.example/latest"), "link-local")
	if err := c.Check(context.Background(), "https://ok.example/hook"); err != nil {
		t.Fatal(err)
	}
}

func TestAllow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	hp := hostPort(t, srv)
	_, port, _ := net.SplitHostPort(hp)

	_, err := get(t, outbound.New(outbound.Config{}), srv.URL)
	wantRefused(t, err, "loopback")
	_, err = get(t, outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: []string{"127.0.0.1:1"}}}), srv.URL)
	wantRefused(t, err, "loopback")

	for name, cfg := range map[string]outbound.Config{
		"private":   {Allow: outbound.Allow{Private: true}},
		"addr:port": {Allow: outbound.Allow{Hosts: []string{hp}}},
		"addr":      {Allow: outbound.Allow{Hosts: []string{"127.0.0.1"}}},
		"cidr":      {Allow: outbound.Allow{Hosts: []string{"127.0.0.0/8"}}},
		"name":      {Allow: outbound.Allow{Hosts: []string{"svc.internal:" + port}}, Resolver: names{"svc.internal": one("127.0.0.1")}},
	} {
		c := outbound.New(cfg)
		u := srv.URL
		if name == "name" {
			u = "http://svc.internal:" + port + "/"
		}
		resp, err := get(t, c, u)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "ok" {
			t.Fatalf("%s: body %q", name, b)
		}
	}
}

// TestRedirectToRefusedAddress: an allowed loopback server redirects to a
// second loopback server (not allowed), to the metadata address and to a
// name resolving to a private address; each hop is refused at dial time.
func TestRedirectToRefusedAddress(t *testing.T) {
	var hitB atomic.Int32
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hitB.Add(1) }))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer a.Close()
	c := outbound.New(outbound.Config{
		Allow:    outbound.Allow{Hosts: []string{hostPort(t, a)}},
		Resolver: names{"internal.example": one("10.1.2.3")},
	})
	for _, tc := range []struct{ to, rule, addr string }{
		{b.URL + "/", "loopback", hostPort(t, b)},
		{"http://169.254.169.254/latest/meta-data/", "link-local", "169.254.169.254:80"},
		{"http://internal.example:9000/", "private", "10.1.2.3:9000"},
		{"http://[::ffff:127.0.0.1]:" + strings.Split(hostPort(t, b), ":")[1] + "/", "ipv4-mapped:loopback", ""},
		{"file:///etc/passwd", "scheme", ""},
	} {
		_, err := get(t, c, a.URL+"/?to="+url.QueryEscape(tc.to))
		ref := wantRefused(t, err, tc.rule)
		if tc.addr != "" && ref.Addr != tc.addr {
			t.Errorf("%s: Addr = %q, want %q", tc.to, ref.Addr, tc.addr)
		}
	}
	if n := hitB.Load(); n != 0 {
		t.Fatalf("refused server was hit %d times", n)
	}
}

func TestRedirectCap(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, fmt.Sprintf("/r%d", hits.Load()), http.StatusFound)
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{MaxRedirects: 3, Allow: outbound.Allow{Private: true}})
	_, err := get(t, c, srv.URL)
	if !errors.Is(err, outbound.ErrTooManyRedirects) {
		t.Fatalf("err = %v", err)
	}
	if n := hits.Load(); n != 4 {
		t.Fatalf("hits = %d, want 4 (the request and 3 redirects)", n)
	}
}

func TestSizeCap(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(body)
		if r.URL.Query().Get("n") == "more" {
			n++
		}
		if r.URL.Query().Get("chunked") != "" {
			w.Write(body[:10]) // no Content-Length: streamed
			w.(http.Flusher).Flush()
			w.Write(append(body, 'x')[10:n])
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(n))
		w.Write(append(body, 'x')[:n])
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{MaxResponseBytes: 1000, Allow: outbound.Allow{Private: true}})
	for _, q := range []string{"", "chunked=1"} {
		resp, err := get(t, c, srv.URL+"/?"+q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || len(b) != 1000 {
			t.Fatalf("%s at the cap: %d bytes, %v", q, len(b), err)
		}
		resp, err = get(t, c, srv.URL+"/?n=more&"+q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if !errors.Is(err, outbound.ErrTooLarge) {
			t.Fatalf("%s over the cap: err = %v", q, err)
		}
	}
	req, _ := http.NewRequestWithContext(outbound.WithResponseLimit(context.Background(), 2000), http.MethodGet, srv.URL+"/?n=more", nil)
	resp, err := c.Do(req.Context(), req, outbound.RetryPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(b) != 1001 {
		t.Fatalf("raised limit: %d bytes, %v", len(b), err)
	}
}

func TestTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		w.Write([]byte("12345"))
		w.(http.Flusher).Flush()
		select { // the body stalls halfway
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{Timeout: 200 * time.Millisecond, Allow: outbound.Allow{Private: true}})
	start := time.Now()
	resp, err := get(t, c, srv.URL)
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	for _, code := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests} {
		var hits atomic.Int32
		var times [2]time.Time
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := hits.Add(1)
			if n <= 2 {
				times[n-1] = time.Now()
			}
			if n == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(code)
				return
			}
			io.WriteString(w, "done")
		}))
		c := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		resp, err := c.Do(context.Background(), req, outbound.RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond})
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || hits.Load() != 2 {
			t.Fatalf("%d: status %d after %d hits", code, resp.StatusCode, hits.Load())
		}
		if gap := times[1].Sub(times[0]); gap < time.Second {
			t.Fatalf("%d: retried after %v, Retry-After said 1s", code, gap)
		}
	}
}

func TestRetryAfterLongerThanMaxDelayReturnsResponse(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := c.Do(context.Background(), req, outbound.RetryPolicy{Attempts: 3, MaxDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || hits.Load() != 1 {
		t.Fatalf("status %d after %d hits", resp.StatusCode, hits.Load())
	}
}

func TestRetryOnConnectionError(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close() // no response at all
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := c.Do(context.Background(), req, outbound.RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || hits.Load() != 2 {
		t.Fatalf("status %d after %d hits", resp.StatusCode, hits.Load())
	}
}

func TestNoRetryForPOSTWithoutIdempotencyKey(t *testing.T) {
	var hits atomic.Int32
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		if hits.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	c := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}})
	policy := outbound.RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond}

	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("charge=1"))
	resp, err := c.Do(context.Background(), req, policy)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || hits.Load() != 1 {
		t.Fatalf("POST without key: status %d after %d hits", resp.StatusCode, hits.Load())
	}

	hits.Store(0)
	bodies = nil
	req, _ = http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("charge=2"))
	req.Header.Set("Idempotency-Key", "k1")
	resp, err = c.Do(context.Background(), req, policy)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || hits.Load() != 2 {
		t.Fatalf("POST with key: status %d after %d hits", resp.StatusCode, hits.Load())
	}
	if bodies[0] != "charge=2" || bodies[1] != "charge=2" {
		t.Fatalf("bodies %q: the retry must replay the body", bodies)
	}
}

func TestRefusalIsNotRetried(t *testing.T) {
	c := outbound.New(outbound.Config{Resolver: names{"x.example": one("10.0.0.1")}})
	req, _ := http.NewRequest(http.MethodGet, "http://x.example/", nil)
	start := time.Now()
	_, err := c.Do(context.Background(), req, outbound.RetryPolicy{Attempts: 5, BaseDelay: time.Second})
	wantRefused(t, err, "private")
	if time.Since(start) > 500*time.Millisecond {
		t.Fatal("a refusal was retried")
	}
}

func TestUserAgent(t *testing.T) {
	var ua atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ua.Store(r.UserAgent()) }))
	defer srv.Close()
	c := outbound.New(outbound.Config{UserAgent: "strata-test/1", Allow: outbound.Allow{Private: true}})
	resp, err := get(t, c, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ua.Load() != "strata-test/1" {
		t.Fatalf("User-Agent %q", ua.Load())
	}
}

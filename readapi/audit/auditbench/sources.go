package auditbench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// sources are HTTP clients to the server, each bound to a loopback source
// address of its own (127.0.0.2, 127.0.0.3, ...), so the server's
// per-address limiter sees several clients. For each limiter scope an
// address is used for at most budget(perMinute) requests over the whole
// run, then the next address takes over: no address ever exceeds a
// route's per-minute limit, whatever the windows.
type sources struct {
	mu      sync.Mutex
	used    map[string]int // scope -> requests handed out
	clients []*http.Client // index i sends from 127.0.0.(i+2)
}

// maxSources: 127.0.0.2 to 127.0.0.254.
const maxSources = 253

func newSources() *sources { return &sources{used: map[string]int{}} }

// budget is how many requests of a scope limited to perMinute one address
// sends over the run: a tenth below the limit, a margin for requests the
// bench does not count (none today).
func budget(perMinute int) int { return max(1, perMinute*9/10) }

// client returns the client for the next request of scope (limited to
// perMinute per address).
func (s *sources) client(scope string, perMinute int) (*http.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.used[scope]
	s.used[scope] = n + 1
	return s.clientAt(n / budget(perMinute))
}

// clientAt is the client sending from 127.0.0.(i+2); s.mu is held.
func (s *sources) clientAt(i int) (*http.Client, error) {
	if i >= maxSources {
		return nil, fmt.Errorf("auditbench: more requests than %d loopback source addresses allow under the rate limits", maxSources)
	}
	for len(s.clients) <= i {
		ip := net.IPv4(127, 0, 0, byte(len(s.clients)+2))
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		s.clients = append(s.clients, &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 16,
			IdleConnTimeout: 90 * time.Second, DisableCompression: true}, Timeout: time.Minute})
	}
	return s.clients[i], nil
}

// check makes sure this system lets the bench send from 127.0.0.2 to the
// server (Linux routes 127.0.0.0/8 to the loopback interface; other
// systems may need the address added to it).
func (s *sources) check(ctx context.Context, base string) error {
	s.mu.Lock()
	c, err := s.clientAt(0)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("auditbench: the bench sends from loopback source addresses 127.0.0.2 and up, to stay under the "+
			"per-address rate limits; this system refused it (on Linux all of 127.0.0.0/8 is on lo; elsewhere add the "+
			"addresses to the loopback interface): %w", err)
	}
	resp.Body.Close()
	return nil
}

// addresses is how many source addresses were used.
func (s *sources) addresses() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients)
}

func (s *sources) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.clients {
		c.CloseIdleConnections()
	}
}

// hostOf is the host:port of a URL.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}

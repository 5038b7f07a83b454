package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// Defaults for a zero Config.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxResponseBytes = 1 << 20
	DefaultMaxRedirects     = 5
	DefaultUserAgent        = "Strata/1 (+https://strata.dev)"
)

// Errors the client returns besides *Refused.
var (
	// ErrTooLarge: a response body is longer than the cap. Reads return it
	// once the cap is passed (or at once when Content-Length says so).
	ErrTooLarge = errors.New("outbound: response body exceeds the size limit")
	// ErrTooManyRedirects: more redirects than Config.MaxRedirects.
	ErrTooManyRedirects = errors.New("outbound: too many redirects")
)

// Resolver looks host names up; *net.Resolver is one. Tests inject their
// own to map names to the addresses they want refused.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Config configures a Client. The zero value is usable.
type Config struct {
	// Timeout bounds one attempt: dial, TLS, headers and reading the body
	// (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxResponseBytes caps a response body (DefaultMaxResponseBytes when
	// 0); WithResponseLimit changes it for one request.
	MaxResponseBytes int64
	// MaxRedirects is how many redirects are followed (DefaultMaxRedirects
	// when 0; negative: none, the 3xx response is returned as is).
	MaxRedirects int
	// UserAgent is sent when a request sets none (DefaultUserAgent when "").
	UserAgent string
	// Allow opens addresses that are refused by default.
	Allow Allow
	// Resolver resolves host names (net.DefaultResolver when nil).
	Resolver Resolver
	Logger   *slog.Logger
}

// Client is the SSRF-safe outbound HTTP client. It is safe for concurrent
// use; make one per process (or per policy) and share it.
type Client struct {
	cfg      Config
	allow    []allowEntry
	resolver Resolver
	log      *slog.Logger
	hc       *http.Client
	maxBody  int64
}

// New returns a client for cfg, with defaults filled in.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxRedirects == 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	c := &Client{cfg: cfg, allow: parseAllow(cfg.Allow.Hosts), resolver: cfg.Resolver,
		log: cfg.Logger, maxBody: cfg.MaxResponseBytes}
	if c.resolver == nil {
		c.resolver = net.DefaultResolver
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would dial the target unchecked
		DialContext:           c.dialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   min(cfg.Timeout, 10*time.Second),
		ExpectContinueTimeout: time.Second,
	}
	c.hc = &http.Client{
		Transport: &guard{c: c, next: tr},
		Timeout:   cfg.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if cfg.MaxRedirects < 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > cfg.MaxRedirects {
				return fmt.Errorf("%w (%d)", ErrTooManyRedirects, cfg.MaxRedirects)
			}
			return nil
		},
	}
	return c
}

// HTTPClient is the client's *http.Client, for libraries that take one
// (an SDK): the same address checks, limits and redirect policy, without
// Do's retries.
func (c *Client) HTTPClient() *http.Client { return c.hc }

// Check tells whether rawURL may be fetched now: its scheme, userinfo and
// every address its host resolves to. It is for validating a URL when it is
// registered (a webhook endpoint); the dial-time check still applies later.
func (c *Client) Check(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if err := checkURL(req.URL); err != nil {
		return err
	}
	host, port := req.URL.Hostname(), req.URL.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[req.URL.Scheme]
	}
	ips, err := c.resolve(ctx, "tcp", host)
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if err := c.checkAddr(host, ip, port); err != nil {
			err.(*Refused).URL = redact(req.URL)
			return err
		}
	}
	return nil
}

type limitKey struct{}

// WithResponseLimit returns a context under which requests' bodies are
// capped at n bytes instead of Config.MaxResponseBytes (a recording, an
// export).
func WithResponseLimit(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, limitKey{}, n)
}

// guard applies the URL rules to every request (redirects included), sets
// the User-Agent, names the URL in refusals and caps bodies.
type guard struct {
	c    *Client
	next http.RoundTripper
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := checkURL(req.URL); err != nil {
		closeBody(req)
		g.c.log.Warn("outbound: refused", "url", redact(req.URL), "rule", err.(*Refused).Rule)
		return nil, err
	}
	if req.Header.Get("User-Agent") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", g.c.cfg.UserAgent)
	}
	resp, err := g.next.RoundTrip(req)
	if err != nil {
		var ref *Refused
		if errors.As(err, &ref) {
			named := *ref
			named.URL = redact(req.URL)
			g.c.log.Warn("outbound: refused", "url", named.URL, "addr", named.Addr, "rule", named.Rule)
			return nil, &named
		}
		return nil, err
	}
	limit := g.c.maxBody
	if n, ok := req.Context().Value(limitKey{}).(int64); ok && n > 0 {
		limit = n
	}
	resp.Body = &cappedBody{rc: resp.Body, left: limit, over: resp.ContentLength > limit}
	return resp, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// cappedBody reads at most left bytes and fails with ErrTooLarge when the
// body has more.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	over bool
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.over {
		return 0, ErrTooLarge
	}
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			b.over = true
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

func (c *Client) resolve(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	ipnet := "ip"
	switch network {
	case "tcp4":
		ipnet = "ip4"
	case "tcp6":
		ipnet = "ip6"
	}
	ips, err := c.resolver.LookupNetIP(ctx, ipnet, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return ips, nil
}

// checkAddr refuses ip unless it is public or allowed for host:port.
func (c *Client) checkAddr(host string, ip netip.Addr, port string) error {
	r := Classify(ip)
	if r == "" || c.cfg.Allow.Private {
		return nil
	}
	for _, e := range c.allow {
		if e.allows(host, ip, port) {
			return nil
		}
	}
	return &Refused{Addr: net.JoinHostPort(ip.WithZone("").String(), port), Rule: r}
}

// dialContext resolves the host itself, checks each address, and dials the
// address it checked; the dialer's Control checks the socket's address once
// more, so nothing reaches connect() unchecked.
func (c *Client) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	ips, err := c.resolve(ctx, network, host)
	if err != nil {
		return nil, err
	}
	var refused, dialErr error
	for _, ip := range ips {
		if err := c.checkAddr(host, ip, port); err != nil {
			refused = err
			continue
		}
		d := net.Dialer{KeepAlive: 30 * time.Second, Control: c.control(host)}
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		dialErr = err
		if ctx.Err() != nil {
			break
		}
	}
	if dialErr != nil {
		return nil, dialErr
	}
	return nil, refused
}

func (c *Client) control(host string) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return &Refused{Addr: address, Rule: "unparsable"}
		}
		return c.checkAddr(host, ap.Addr(), strconv.Itoa(int(ap.Port())))
	}
}

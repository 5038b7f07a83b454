package enrich

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/openrdap/rdap/bootstrap"
	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// Infrastructure values besides a provider's name.
const (
	Other   = "other"   // records resolved, no known provider matched
	Unknown = "unknown" // could not look, or the domain does not resolve
)

// Config says where the enricher may look. An empty Resolver or
// RDAPBootstrap turns that half off: its fields come back unknown, with
// evidence saying so, and no network is touched for it.
type Config struct {
	Resolver      string       // "host:port" of a recursive DNS server; empty: DNS unknown
	RDAPBootstrap string       // URL of an IANA-format RDAP bootstrap file (…/dns.json); empty: RDAP unknown
	HTTPClient    *http.Client // for RDAP; nil: http.DefaultClient
	Ranges        *Ranges      // imported provider ranges
	Timeout       time.Duration
	Now           func() time.Time
}

// Enricher runs enrichment lookups. It is safe for concurrent use.
type Enricher struct {
	resolver string
	http     *http.Client
	ranges   *Ranges
	timeout  time.Duration
	now      func() time.Time

	bootstrapURL string
	bootErr      error
	// The bootstrap client caches the registry file (24 hours) but is not
	// safe for concurrent use, so lookups on it take bootMu.
	bootMu sync.Mutex
	boot   *bootstrap.Client
}

// Result is what an enrichment found. Nil fields are unknown; Evidence says
// how each value, or its absence, came about.
type Result struct {
	Domain         string     `json:"domain"`
	Infrastructure string     `json:"infrastructure"`
	Registrar      *string    `json:"registrar"`
	RegisteredAt   *time.Time `json:"registered_at"`
	AgeDays        *int       `json:"domain_age_days"`
	Evidence       []Evidence `json:"evidence"`
	CheckedAt      time.Time  `json:"checked_at"`
}

// Evidence is one observation behind a result field. Source is "dns",
// "ranges", "pattern" or "rdap"; "input" for a refused domain argument.
type Evidence struct {
	Field  string `json:"field"`
	Source string `json:"source"`
	Query  string `json:"query,omitempty"`
	Answer string `json:"answer,omitempty"`
	Detail string `json:"detail"`
}

// New returns an enricher for cfg.
func New(cfg Config) *Enricher {
	e := &Enricher{
		resolver: resolverAddr(cfg.Resolver),
		http:     cfg.HTTPClient,
		ranges:   cfg.Ranges,
		timeout:  cfg.Timeout,
		now:      cfg.Now,
	}
	if e.http == nil {
		e.http = http.DefaultClient
	}
	if e.timeout <= 0 {
		e.timeout = 5 * time.Second
	}
	if e.now == nil {
		e.now = time.Now
	}
	if cfg.RDAPBootstrap != "" {
		e.bootstrapURL = cfg.RDAPBootstrap
		base, err := bootstrapBase(cfg.RDAPBootstrap)
		if err != nil {
			e.bootErr = err
		} else {
			e.boot = &bootstrap.Client{HTTP: e.http, BaseURL: base}
		}
	}
	return e
}

// resolverAddr adds DNS's port to a bare host.
func resolverAddr(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if _, _, err := net.SplitHostPort(s); err != nil {
		return net.JoinHostPort(strings.Trim(s, "[]"), "53")
	}
	return s
}

// bootstrapBase turns the bootstrap file's URL into the directory the
// openrdap bootstrap client wants: it always fetches "dns.json" under its
// BaseURL, so the file must be named that (or the URL be the directory).
func bootstrapBase(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("RDAP bootstrap %q is not an http(s) URL", s)
	}
	switch {
	case strings.HasSuffix(u.Path, "/dns.json"):
		u.Path = strings.TrimSuffix(u.Path, "dns.json")
	case strings.HasSuffix(u.Path, "/"):
	default:
		return nil, fmt.Errorf("RDAP bootstrap %q must name a dns.json file or a directory ending in /", s)
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// Validate says whether domain is a host name under a public suffix that
// Enrich can look up.
func Validate(domain string) error {
	_, err := normalize(domain)
	return err
}

// normalize lower-cases domain, drops a trailing dot and turns an
// internationalised name into its A-label form.
func normalize(domain string) (string, error) {
	d := strings.TrimSuffix(strings.TrimSpace(domain), ".")
	if d == "" {
		return "", errors.New("empty domain")
	}
	if _, err := netip.ParseAddr(strings.Trim(d, "[]")); err == nil {
		return "", fmt.Errorf("%q is an IP address, not a domain", domain)
	}
	a, err := idna.Lookup.ToASCII(d)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid host name: %v", domain, err)
	}
	a = strings.ToLower(a)
	if len(a) > 253 {
		return "", fmt.Errorf("%q is longer than 253 characters", domain)
	}
	labels := strings.Split(a, ".")
	for _, l := range labels {
		if !ldhLabel(l) {
			return "", fmt.Errorf("%q is not a valid host name: label %q", domain, l)
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", fmt.Errorf("%q has an all-numeric top-level label", domain)
	}
	if _, err := publicsuffix.EffectiveTLDPlusOne(a); err != nil {
		return "", fmt.Errorf("%q is not a registrable domain or a name under one", domain)
	}
	return a, nil
}

func ldhLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, c := range l {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Enrich looks domain up. It always returns a Result: whatever it could
// not establish is unknown (or nil) with evidence saying why.
func (e *Enricher) Enrich(ctx context.Context, domain string) Result {
	now := e.now().UTC()
	res := Result{Domain: domain, Infrastructure: Unknown, CheckedAt: now, Evidence: []Evidence{}}
	name, err := normalize(domain)
	if err != nil {
		for _, f := range []string{"infrastructure", "registrar", "registered_at"} {
			res.Evidence = append(res.Evidence, Evidence{Field: f, Source: "input", Query: domain,
				Detail: "not looked up: " + err.Error()})
		}
		return res
	}
	res.Domain = name

	var (
		wg       sync.WaitGroup
		dnsEv    []Evidence
		reg      registration
		infraVal string
	)
	wg.Go(func() { infraVal, dnsEv = e.infrastructure(ctx, name) })
	wg.Go(func() { reg = e.registration(ctx, name, now) })
	wg.Wait()

	res.Infrastructure = infraVal
	res.Registrar, res.RegisteredAt, res.AgeDays = reg.registrar, reg.at, reg.age
	res.Evidence = append(append(res.Evidence, dnsEv...), reg.evidence...)
	return res
}

// Package audit runs the agent-readiness audit: the scanner fetches what
// the rubric looks at (through the platform's SSRF-safe outbound client,
// each resource once, a bounded number of requests with per-request time
// and size limits) and domain/audit scores it; the service stores full
// reports, unlocks them, captures leads and computes the benchmarks from
// stored scans.
package audit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"

	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/kernel"
)

// Scanner limits.
const (
	DefaultRequestTimeout = 5 * time.Second
	DefaultMaxBody        = 1 << 20 // bytes kept of one response
	MaxOpenAPITries       = 4       // candidate descriptions fetched at most
	maxURL                = 2048
)

// ScannerConfig configures a scanner.
type ScannerConfig struct {
	Client         *outbound.Client
	RequestTimeout time.Duration
	MaxBody        int64
	UserAgent      string
	Clock          kernel.Clock
}

// Scanner fetches a site's snapshot.
type Scanner struct{ cfg ScannerConfig }

// NewScanner returns a scanner.
func NewScanner(cfg ScannerConfig) *Scanner {
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "StrataAudit/1 (agent-readiness audit; rubric v" + audit.RubricVersion + ")"
	}
	if cfg.Clock == nil {
		cfg.Clock = kernel.SystemClock{}
	}
	return &Scanner{cfg: cfg}
}

// Target checks and normalises a URL to scan: http or https, a host, no
// credentials, at most 2,048 characters; the fragment dropped, an empty
// path made "/". An address the outbound client refuses (private,
// loopback, link-local, metadata...) is refused here, before any request.
func (s *Scanner) Target(ctx context.Context, raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, kernel.Invalid("url", "required", "url is required")
	}
	if len(raw) > maxURL {
		return nil, kernel.Invalid("url", "max_length", "url is at most 2048 characters")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, kernel.Invalid("url", "url", "url must be an http or https URL with a host")
	}
	if u.User != nil {
		return nil, kernel.Invalid("url", "no_credentials", "url must not carry credentials")
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	u.Host = strings.ToLower(u.Host)
	if err := s.cfg.Client.Check(ctx, u.String()); err != nil {
		var refused *outbound.Refused
		if errors.As(err, &refused) {
			return nil, &kernel.Error{Kind: kernel.KindInvalid, Field: "url", Rule: "public_address",
				Message: "url must reach a public address; " + refused.Error()}
		}
		return nil, &kernel.Error{Kind: kernel.KindInvalid, Field: "url", Rule: "resolvable",
			Message: "url's host could not be resolved: " + err.Error()}
	}
	return u, nil
}

// fetcher makes the scan's requests, each URL and method once.
type fetcher struct {
	s     *Scanner
	mu    sync.Mutex
	seen  map[string]*audit.Response
	count int
}

func (f *fetcher) get(ctx context.Context, method, u string, header http.Header) *audit.Response {
	key := method + " " + u + " " + header.Get("Accept")
	f.mu.Lock()
	if r, ok := f.seen[key]; ok {
		f.mu.Unlock()
		return r
	}
	r := &audit.Response{URL: u, Method: method}
	f.seen[key] = r
	f.count++
	f.mu.Unlock()
	f.s.do(ctx, r, header)
	return r
}

// do makes one request into r.
func (s *Scanner) do(ctx context.Context, r *audit.Response, header http.Header) {
	start := time.Now()
	defer func() { r.Duration = time.Since(start) }()
	ctx, cancel := context.WithTimeout(outbound.WithResponseLimit(ctx, s.cfg.MaxBody+1), s.cfg.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, nil)
	if err != nil {
		r.Err = err.Error()
		return
	}
	req.Header.Set("User-Agent", s.cfg.UserAgent)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := s.cfg.Client.HTTPClient().Do(req)
	if err != nil {
		r.Err = err.Error()
		return
	}
	defer resp.Body.Close()
	r.Status, r.Header, r.Final = resp.StatusCode, resp.Header, resp.Request.URL.String()
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxBody+1))
	if int64(len(body)) > s.cfg.MaxBody {
		body, r.Truncated = body[:s.cfg.MaxBody], true
	} else if err != nil {
		r.Truncated = true
	}
	r.Body = body
}

// Scan fetches the snapshot of target (from Target) and scores it. The
// requests: the page itself, /llms.txt, /robots.txt and
// /.well-known/api-catalog (together), up to four OpenAPI candidates in
// discovery order until one parses, the two OAuth metadata documents, then
// the probes the description suggests (unauthenticated, Accept JSON, a
// path that cannot exist, a method not allowed): at most 15, each once.
func (s *Scanner) Scan(ctx context.Context, target *url.URL) (audit.Scan, audit.Snapshot, int, error) {
	origin := target.Scheme + "://" + target.Host
	snap := audit.Snapshot{Target: target.String(), Origin: origin, At: s.cfg.Clock.Now().UTC().Truncate(time.Second)}
	f := &fetcher{s: s, seen: map[string]*audit.Response{}}
	var wg sync.WaitGroup
	par := func(dst **audit.Response, method, u string, h http.Header) {
		wg.Add(1)
		go func() { defer wg.Done(); *dst = f.get(ctx, method, u, h) }()
	}
	par(&snap.Home, "GET", snap.Target, nil)
	par(&snap.LLMsTxt, "GET", origin+"/llms.txt", nil)
	par(&snap.Robots, "GET", origin+"/robots.txt", nil)
	par(&snap.APICatalog, "GET", origin+"/.well-known/api-catalog", http.Header{"Accept": {"application/linkset+json, application/json"}})
	par(&snap.AuthServerMeta, "GET", origin+"/.well-known/oauth-authorization-server", http.Header{"Accept": {"application/json"}})
	par(&snap.ProtectedMeta, "GET", origin+"/.well-known/oauth-protected-resource", http.Header{"Accept": {"application/json"}})
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return audit.Scan{}, snap, f.count, err
	}
	for _, c := range audit.OpenAPICandidates(origin, snap.Home, snap.APICatalog, snap.LLMsTxt) {
		if len(snap.OpenAPITried) == MaxOpenAPITries {
			break
		}
		snap.OpenAPITried = append(snap.OpenAPITried, c.URL)
		r := f.get(ctx, "GET", c.URL, http.Header{"Accept": {"application/json, application/yaml;q=0.9, */*;q=0.5"}})
		if !audit.LooksLikeOpenAPI(r) {
			continue
		}
		snap.OpenAPI, snap.OpenAPISource = r, c.Source
		if _, err := audit.ParseOpenAPI(r); err == nil {
			break
		}
	}
	snap.Prepare() // parsed once, for the probes, Score and a crawl's pages
	unauth, acceptJSON, wrong := audit.APIProbes(origin, snap.Spec())
	par(&snap.Unauthenticated, unauth.Method, unauth.URL, http.Header{"Accept": {"application/json"}})
	if acceptJSON.Method == http.MethodGet && acceptJSON.URL == snap.Target {
		// No API path to ask: the page itself answers for it, fetched once.
		snap.AcceptJSON = snap.Home
	} else {
		par(&snap.AcceptJSON, acceptJSON.Method, acceptJSON.URL, http.Header{"Accept": {"application/json"}})
	}
	par(&snap.NotFound, "GET", origin+"/strata-audit-"+randomToken()+"-not-here", http.Header{"Accept": {"application/json, text/html;q=0.9"}})
	par(&snap.WrongMethod, wrong.Method, wrong.URL, nil)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return audit.Scan{}, snap, f.count, err
	}
	return audit.Score(snap), snap, f.count, nil
}

// randomToken names the path that cannot exist (a fixed one could).
func randomToken() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Package auditbench measures the agent-readiness audit over loopback
// HTTP against `strata serve`, each figure next to a baseline taken in the
// same run on the same machine:
//
//   - The quick scan: POST /api/v1/public/ax-audit {url} of a fixture site
//     served by the bench process on loopback (audittest.Excellent, which
//     passes every check), p50, p95 (target 100 ms) and p99 at 1 and at
//     Options.ScanClients clients; baseline: the very requests the scan
//     makes (recorded at the fixture during a warm-up scan: method, path
//     and Accept), fetched by the bench itself in sequence with a plain
//     http.Client, once per scan.
//   - The crawl: POST .../crawl {url, max_pages} by an account on the audit
//     plan pro (registered through serve's identity routes, its plan set
//     through the plans service as `strata users set-plan --line audit`
//     does) of a generated fixture site of more pages than the budget,
//     linked from page to page and all listed in its sitemap; the time from
//     the POST to GET .../crawl/{id} answering status completed (target
//     30 s; polled every 100 ms). The server runs with
//     STRATA_AUDIT_CRAWL_DELAY=0: politeness relaxed for loopback, two
//     fetchers still. Baseline: the same pages (those the crawl reports)
//     fetched directly by two concurrent fetchers with a plain client.
//   - The badge: GET .../badge?url=&score=&grade= p50, p95 (target 20 ms)
//     and p99 for distinct inputs (each a cache miss: rendered), p95 for
//     one input repeated (the render cache) and for one input with
//     If-None-Match (304, nothing drawn); baseline: GET /health of the
//     same server with the same client, alternating.
//
// Rate limits. The public routes are limited per client address (quick
// scan 60 a minute, crawl 20, crawl reads and badge 120), counted in
// PostgreSQL in fixed one-minute windows; the bench sends more than that.
// It does not wait for windows to pass, and the product has no bypass:
// the limiter keys on the peer address, so the bench's clients send from
// several loopback source addresses (127.0.0.2, 127.0.0.3, ...: a
// net.Dialer LocalAddr per client; Linux routes all of 127.0.0.0/8 to the
// loopback interface) and use each address for fewer requests of a route
// over the whole run than the route allows in one minute. Every request
// still goes through the limiter (one PostgreSQL statement), as in
// production, and every answer is checked to be a success.
//
// `strata bench audit` starts `strata serve --surfaces api` itself on a
// scratch database (cmd/strata) with STRATA_OUTBOUND_ALLOW naming the
// fixture sites' loopback addresses (so the SSRF-safe scanner may reach
// them) and STRATA_AUDIT_CRAWL_DELAY=0. The fixture sites, the load
// generator and the server share the machine.
package auditbench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Targets of the issue.
const (
	scanP95Ms   = 100
	crawlMaxMs  = 30_000
	badgeP95Ms  = 20
	crawlPoll   = 100 * time.Millisecond
	crawlLimit  = 5 * time.Minute // the bench gives up on a crawl after this
	auditPlan   = "pro"           // the audit plan whose tier allows 500 pages
	benchPasswd = "Audit-bench-pass-1"
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the platform API with the audit routes, its outbound
	// client allowed to reach the addresses in allow (host:port, the
	// fixture sites) and no crawl delay.
	Start    func(ctx context.Context, allow []string) (*Server, error)
	Progress io.Writer // a line per step; nil discards them
	Mode     string    // names the preset in the report

	Scans       int // measured quick scans per concurrency (and as many baseline rounds)
	ScanClients int // clients of the concurrent quick-scan round

	CrawlPages int // the crawl's max_pages (at most 500: the pro tier's cap)
	SitePages  int // pages of the crawl fixture (more than CrawlPages)

	Badges int // measured badge requests of each kind (and as many GET /health)
}

// Full is the preset of `strata bench audit`: the sizes of the issue.
func Full() Options {
	return Options{Mode: "full", Scans: 300, ScanClients: 4, CrawlPages: 500, SitePages: 600, Badges: 500}
}

// Quick is the preset of `--quick`: a smoke test of well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Scans: 60, ScanClients: 4, CrawlPages: 100, SitePages: 150, Badges: 100}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Server is a running platform API under bench.
type Server struct {
	URL string // the API surface's base URL: http://127.0.0.1:port
	// SetAuditPlan puts the account on plan in the audit line (an
	// operator's change through the plans service, as `strata users
	// set-plan EMAIL PLAN --line audit`), and returns once the server's
	// directory reads it.
	SetAuditPlan func(ctx context.Context, accountID, plan string) error
	Describe     string // what runs, for the report's header
	Close        func() error
}

// Run starts the fixture sites and the server (o.Start) and measures;
// the figures come in the order they are taken.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "audit", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP"}
	if o.Start == nil || o.Scans < 1 || o.ScanClients < 1 || o.CrawlPages < 1 || o.CrawlPages > 500 || o.SitePages <= o.CrawlPages ||
		o.Badges < 1 {
		return rep, fmt.Errorf("auditbench: options out of range: %+v", o)
	}
	token := make([]byte, 6)
	if _, err := rand.Read(token); err != nil {
		return rep, err
	}
	excellent := newExcellent()
	defer excellent.Close()
	crawlSite := newCrawlSite(o.SitePages)
	defer crawlSite.Close()
	src := newSources()
	defer src.close()
	o.Logf("fixture sites on %s (excellent) and %s (%d pages); starting the platform API ...", excellent.URL, crawlSite.URL, o.SitePages)
	srv, err := o.Start(ctx, []string{hostOf(excellent.URL), hostOf(crawlSite.URL)})
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := srv.Close(); err != nil {
			o.Logf("stopping the server: %v", err)
		}
	}()
	if srv.URL == "" || srv.SetAuditPlan == nil {
		return rep, errors.New("auditbench: Start returned a server without a URL or a way to set a plan")
	}
	if err := src.check(ctx, srv.URL); err != nil {
		return rep, err
	}
	rep.Server = "loopback HTTP, " + srv.Describe
	b := &bench{o: o, srv: srv, src: src, excellent: excellent, crawlSite: crawlSite, run: hex.EncodeToString(token),
		direct: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second,
			DisableCompression: true}, Timeout: time.Minute}}
	defer b.direct.CloseIdleConnections()
	for _, step := range []func(context.Context) ([]storebench.Figure, error){b.scans, b.crawl, b.badges} {
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

// bench is one run's state.
type bench struct {
	o         Options
	srv       *Server
	src       *sources     // clients to the server, from several loopback source addresses
	direct    *http.Client // the baselines' plain client (to the fixture sites and /health)
	excellent *excellentSite
	crawlSite *crawlSite
	run       string // a random token naming this run's badges and account
}

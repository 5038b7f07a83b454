package audit

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/net/html"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	projaudit "github.com/strata-platform/strata/projections/audit"
)

// CrawlArgs is a crawl's durable job.
type CrawlArgs struct {
	CrawlID string `json:"crawl_id"`
}

// Kind implements jobs.Args.
func (CrawlArgs) Kind() string { return "audit.crawl" }

// Crawl politeness defaults.
const (
	DefaultCrawlDelay   = time.Second // between two requests of one fetcher to the site
	DefaultCrawlWorkers = 2           // requests in flight to the site at once
	robotsToken         = "StrataAudit"
	maxSitemaps         = 3
)

// RegisterJobs declares the crawl's job kind; crawls need it.
func (s *Service) RegisterJobs(js *jobs.Service) error {
	s.jobs = js
	return jobs.Handle(js, func(ctx context.Context, job *jobs.Job[CrawlArgs]) error {
		return s.runCrawl(ctx, job.Args.CrawlID, job.Attempt)
	}, jobs.KindOptions{MaxAttempts: 20, Timeout: 10 * time.Minute})
}

// StartCrawl records a crawl of url for tier (max_pages capped by the
// tier's pages; 0: the cap) and enqueues its job in the same transaction.
// At most MaxConcurrentCrawl crawls are queued or running at once: the
// count and the append hold one advisory lock.
func (s *Service) StartCrawl(ctx context.Context, rawURL string, maxPages int, tier string) (*audit.CrawlRequested, error) {
	if s.jobs == nil {
		return nil, kernel.Unavailable("crawls are not running in this process", nil)
	}
	limit := audit.TierPages(tier)
	switch {
	case maxPages < 0:
		return nil, kernel.Invalid("max_pages", "min:1", "max_pages must be at least 1")
	case maxPages == 0 || maxPages > limit:
		maxPages = limit
	}
	target, err := s.cfg.Scanner.Target(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	ev := &audit.CrawlRequested{CrawlID: uuid.Must(uuid.NewV7()).String(), URL: target.String(), MaxPages: maxPages, Tier: tier, At: s.now()}
	var app eventstore.Appended
	err = s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('audit.crawls', 0))`); err != nil {
			return err
		}
		var active int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+projaudit.Schema+`.crawls WHERE status IN ('queued', 'running')`).Scan(&active); err != nil {
			return err
		}
		if active >= audit.MaxConcurrentCrawl {
			return &kernel.Error{Kind: kernel.KindRateLimited, Rule: "concurrent_crawls",
				Message: fmt.Sprintf("%d crawls are running; at most %d run at once, retry when one ends", active, audit.MaxConcurrentCrawl)}
		}
		var err error
		if app, err = s.store.AppendTx(ctx, tx, eventstore.Stream{Type: audit.StreamCrawl, ID: audit.CrawlStream(ev.CrawlID)}, eventstore.NoStream, ev); err != nil {
			return err
		}
		_, err = s.jobs.Enqueue(ctx, tx, CrawlArgs{CrawlID: ev.CrawlID}, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ev, s.settle(ctx, app.Last)
}

// CancelCrawl asks a crawl to stop; a finished crawl is a conflict.
func (s *Service) CancelCrawl(ctx context.Context, id string) error {
	st, version, err := s.crawl(ctx, id)
	if err != nil {
		return err
	}
	if st.Finished != nil {
		return kernel.Conflict("crawl "+id+" has finished ("+st.Finished.Status+")", nil)
	}
	if st.Cancel {
		return nil
	}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: audit.StreamCrawl, ID: audit.CrawlStream(id)}, version,
		&audit.CrawlCancelRequested{CrawlID: id, At: s.now()})
	if kernel.KindOf(err) == kernel.KindConflict {
		return s.CancelCrawl(ctx, id)
	}
	if err != nil {
		return err
	}
	return s.settle(ctx, app.Last)
}

// crawl folds a crawl's stream.
func (s *Service) crawl(ctx context.Context, id string) (audit.CrawlState, int64, error) {
	var st audit.CrawlState
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return st, 0, &kernel.Error{Kind: kernel.KindNotFound, Field: "crawl_id", Rule: "exists", Message: "no crawl " + id}
	}
	envs, err := s.store.Load(ctx, audit.CrawlStream(id), eventstore.LoadOptions{})
	if err != nil {
		return st, 0, err
	}
	if len(envs) == 0 {
		return st, 0, &kernel.Error{Kind: kernel.KindNotFound, Field: "crawl_id", Rule: "exists", Message: "no crawl " + id}
	}
	for _, e := range envs {
		st.Apply(e.Event)
	}
	return st, envs[len(envs)-1].StreamVersion, nil
}

// appendCrawl appends to a crawl's stream (the worker is its only writer
// but for a cancel, which it reads before each page).
func (s *Service) appendCrawl(ctx context.Context, id string, evs ...kernel.Event) error {
	_, err := s.store.Append(ctx, eventstore.Stream{Type: audit.StreamCrawl, ID: audit.CrawlStream(id)}, eventstore.AnyVersion, evs...)
	return err
}

// runCrawl is the crawl's job: the site's own resources scanned once,
// then pages from the start URL and the sitemaps, breadth first on the
// same host, each allowed by robots.txt for StrataAudit, politely (a
// delay between a fetcher's requests, two fetchers), each page scored as
// the site's scan with that page as its home. A restart goes on from the
// pages recorded; a cancel stops after the page in hand.
func (s *Service) runCrawl(ctx context.Context, id string, attempt int) error {
	st, _, err := s.crawl(ctx, id)
	if err != nil {
		return jobs.Permanent(err)
	}
	if st.Finished != nil {
		return nil
	}
	req := st.Requested
	if err := s.appendCrawl(ctx, id, &audit.CrawlStarted{CrawlID: id, Attempt: attempt, At: s.now()}); err != nil {
		return err
	}
	finish := func(status, reason string) error {
		st, _, err := s.crawl(ctx, id)
		if err != nil {
			return err
		}
		overall, dims := audit.Summarise(st.Pages)
		return s.appendCrawl(ctx, id, &audit.CrawlFinished{CrawlID: id, Status: status, PagesCrawled: len(st.Pages),
			OverallScore: overall, DimensionAverages: dims, Reason: reason, At: s.now()})
	}
	if st.Cancel {
		return finish(audit.CrawlCancelled, "cancelled before it started")
	}
	target, err := url.Parse(req.URL)
	if err != nil {
		return finish(audit.CrawlFailed, "the crawl's url does not parse")
	}
	_, base, _, err := s.cfg.Scanner.Scan(ctx, target)
	if err != nil {
		return err
	}
	robots := audit.RobotsFromResponse(base.Robots)
	c := &crawler{s: s, id: id, base: base, host: target.Host, robots: robots, max: req.MaxPages,
		visited: map[string]bool{}, done: len(st.Pages)}
	for u := range st.Visited {
		c.visited[u] = true
	}
	c.enqueue(target.String())
	for _, u := range c.sitemapURLs(ctx) {
		c.enqueue(u)
	}
	status, reason := c.run(ctx)
	if ctx.Err() != nil {
		return ctx.Err() // shutdown or timeout: the job runs again and goes on
	}
	return finish(status, reason)
}

// crawler is one crawl's frontier.
type crawler struct {
	s        *Service
	id       string
	base     audit.Snapshot
	host     string
	robots   *audit.Robots
	max      int
	mu       sync.Mutex
	queue    []string
	visited  map[string]bool
	done     int
	inflight int
	skipped  int
}

// enqueue adds a same-host URL not seen yet (fragment dropped).
func (c *crawler) enqueue(raw string) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host != c.host {
		return
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	key := u.String()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.visited[key] {
		return
	}
	c.visited[key] = true
	c.queue = append(c.queue, key)
}

// next takes the next URL to fetch. finished is true when there is
// nothing left: the page budget is spent, or the frontier is empty and no
// fetch in flight can add to it; "" with finished false means wait.
func (c *crawler) next() (u string, finished bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.queue) > 0 && c.done < c.max {
		u := c.queue[0]
		c.queue = c.queue[1:]
		p, _ := url.Parse(u)
		path := p.EscapedPath()
		if p.RawQuery != "" {
			path += "?" + p.RawQuery
		}
		if !c.robots.Allowed(robotsToken, path) {
			c.skipped++
			continue
		}
		c.done++ // this page's budget is taken
		c.inflight++
		return u, false
	}
	return "", c.done >= c.max || c.inflight == 0
}

// fetched marks a fetch done.
func (c *crawler) fetched() {
	c.mu.Lock()
	c.inflight--
	c.mu.Unlock()
}

// run fetches pages with DefaultCrawlWorkers fetchers until the budget,
// the frontier or a cancel ends it.
func (c *crawler) run(ctx context.Context) (status, reason string) {
	delay := c.s.cfg.CrawlDelay
	var wg sync.WaitGroup
	var once sync.Once
	stop := make(chan struct{})
	for w := 0; w < DefaultCrawlWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case <-stop:
					return
				default:
				}
				u, finished := c.next()
				if finished {
					return
				}
				if u == "" { // the other fetcher may add links
					time.Sleep(20 * time.Millisecond)
					continue
				}
				if c.cancelled(ctx) {
					c.fetched()
					once.Do(func() { close(stop) })
					return
				}
				c.page(ctx, u)
				c.fetched()
				if delay > 0 {
					select {
					case <-time.After(delay):
					case <-ctx.Done():
					}
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-stop:
		return audit.CrawlCancelled, "cancelled"
	default:
	}
	return audit.CrawlCompleted, ""
}

// cancelled reads whether a cancel was recorded.
func (c *crawler) cancelled(ctx context.Context) bool {
	var n int
	err := c.s.store.DB().QueryRowContext(ctx, `SELECT count(*) FROM es.events WHERE stream_id = $1 AND event_type = $2`,
		audit.CrawlStream(c.id), (audit.CrawlCancelRequested{}).EventType()).Scan(&n)
	return err == nil && n > 0
}

// page fetches one page, follows its links and records its score.
func (c *crawler) page(ctx context.Context, u string) {
	r := &audit.Response{URL: u, Method: http.MethodGet}
	c.s.cfg.Scanner.do(ctx, r, http.Header{"Accept": {"text/html, application/xhtml+xml;q=0.9, */*;q=0.5"}})
	if r.OK() && strings.Contains(strings.ToLower(r.Header.Get("Content-Type")), "html") {
		final := u
		if r.Final != "" {
			final = r.Final
		}
		for _, l := range links(final, r.Body) {
			c.enqueue(l)
		}
	}
	snap := c.base
	snap.Home = r
	scan := audit.Score(snap)
	checks := make(map[string]int, len(scan.Checks))
	for _, ch := range scan.Checks {
		checks[ch.Name] = ch.Score
	}
	_ = c.s.appendCrawl(ctx, c.id, &audit.CrawlPageScored{CrawlID: c.id, URL: u, Status: r.Status, Score: scan.Score, Checks: checks, At: c.s.now()})
}

// links are the absolute URLs of a page's <a href> and <link rel=alternate>.
func links(base string, body []byte) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			name, has := z.TagName()
			if string(name) != "a" || !has {
				continue
			}
			for {
				k, v, more := z.TagAttr()
				if string(k) == "href" {
					if ref, err := url.Parse(strings.TrimSpace(string(v))); err == nil {
						out = append(out, b.ResolveReference(ref).String())
					}
				}
				if !more {
					break
				}
			}
		}
	}
}

// sitemapURLs reads the sitemaps robots.txt names (else /sitemap.xml):
// <urlset> locations, and <sitemapindex> entries followed once (at most
// maxSitemaps files in all), same host only.
func (c *crawler) sitemapURLs(ctx context.Context) []string {
	var maps []string
	if c.robots != nil {
		maps = append(maps, c.robots.Sitemaps...)
	}
	if len(maps) == 0 {
		maps = []string{c.base.Origin + "/sitemap.xml"}
	}
	var out []string
	for i := 0; i < len(maps) && i < maxSitemaps; i++ {
		u, err := url.Parse(maps[i])
		if err != nil || u.Host != c.host {
			continue
		}
		r := &audit.Response{URL: maps[i], Method: http.MethodGet}
		c.s.cfg.Scanner.do(ctx, r, http.Header{"Accept": {"application/xml, text/xml"}})
		if !r.OK() {
			continue
		}
		var doc struct {
			XMLName xml.Name
			URLs    []struct {
				Loc string `xml:"loc"`
			} `xml:"url"`
			Maps []struct {
				Loc string `xml:"loc"`
			} `xml:"sitemap"`
		}
		if err := xml.Unmarshal(r.Body, &doc); err != nil {
			continue
		}
		for _, x := range doc.URLs {
			out = append(out, strings.TrimSpace(x.Loc))
		}
		for _, x := range doc.Maps {
			maps = append(maps, strings.TrimSpace(x.Loc))
		}
	}
	return out
}

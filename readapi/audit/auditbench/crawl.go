package auditbench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
	readaudit "github.com/strata-platform/strata/readapi/audit"
)

// crawlView is what the bench reads of a crawl.
type crawlView struct {
	CrawlID      string   `json:"crawl_id"`
	Status       string   `json:"status"`
	Tier         string   `json:"tier"`
	MaxPages     int      `json:"max_pages"`
	PagesCrawled int      `json:"pages_crawled"`
	OverallScore *float64 `json:"overall_score"`
	Reason       string   `json:"reason"`
	Pages        []struct {
		URL    string `json:"url"`
		Status int    `json:"status"`
	} `json:"pages"`
}

// crawl registers an account through the identity routes, puts it on the
// audit plan pro (whose tier allows 500 pages), starts a crawl of the
// generated site with max_pages o.CrawlPages under its credentials and
// polls the crawl until it completes: the time from the POST to the
// completed status. Baseline: the pages the crawl reports, fetched
// directly by two concurrent fetchers.
func (b *bench) crawl(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	var acct struct {
		ID          string `json:"id"`
		AccessToken string `json:"access_token"`
	}
	email := "audit-bench-" + b.run + "@bench.invalid"
	if _, err := call(ctx, b.direct, http.MethodPost, b.srv.URL+"/api/v1/auth/register",
		map[string]string{"email": email, "password": benchPasswd, "full_name": "Audit bench"}, http.StatusCreated, &acct); err != nil {
		return nil, err
	}
	if acct.ID == "" || acct.AccessToken == "" {
		return nil, fmt.Errorf("auditbench: registration answered no account id or access token")
	}
	if err := b.srv.SetAuditPlan(ctx, acct.ID, auditPlan); err != nil {
		return nil, fmt.Errorf("auditbench: put %s on the audit plan %s: %w", email, auditPlan, err)
	}
	auth := []string{"Authorization", "Bearer " + acct.AccessToken}
	o.Logf("POST .../crawl {url, max_pages %d} as %s (audit plan %s), polling every %s until completed ...", o.CrawlPages, email,
		auditPlan, crawlPoll)
	c, err := b.src.client("audit.full", readaudit.FullPerMinute)
	if err != nil {
		return nil, err
	}
	var started crawlView
	t0 := time.Now()
	if _, err := call(ctx, c, http.MethodPost, b.srv.URL+readaudit.Base+"/crawl",
		map[string]any{"url": b.crawlSite.URL + "/", "max_pages": o.CrawlPages}, http.StatusAccepted, &started, auth...); err != nil {
		return nil, err
	}
	if started.Tier != auditPlan || started.MaxPages != o.CrawlPages {
		return nil, fmt.Errorf("auditbench: the crawl runs for tier %q with max_pages %d, want %s and %d", started.Tier, started.MaxPages,
			auditPlan, o.CrawlPages)
	}
	var v crawlView
	polls := 0
	for {
		c, err := b.src.client("audit.reads", readaudit.ReadsPerMinute)
		if err != nil {
			return nil, err
		}
		v = crawlView{}
		if _, err := call(ctx, c, http.MethodGet, b.srv.URL+readaudit.Base+"/crawl/"+started.CrawlID, nil, http.StatusOK, &v); err != nil {
			return nil, err
		}
		polls++
		if v.Status != "queued" && v.Status != "running" {
			break
		}
		if time.Since(t0) > crawlLimit {
			return nil, fmt.Errorf("auditbench: the crawl is still %s after %s, %d pages crawled", v.Status, crawlLimit, v.PagesCrawled)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(crawlPoll):
		}
	}
	took := time.Since(t0)
	if v.Status != "completed" || v.PagesCrawled != o.CrawlPages || len(v.Pages) != o.CrawlPages {
		return nil, fmt.Errorf("auditbench: the crawl ended %s (%s) with %d pages (%d listed), want completed with %d", v.Status, v.Reason,
			v.PagesCrawled, len(v.Pages), o.CrawlPages)
	}
	urls := make([]string, 0, len(v.Pages))
	for _, p := range v.Pages {
		if p.Status != http.StatusOK {
			return nil, fmt.Errorf("auditbench: the crawl got %d for %s", p.Status, p.URL)
		}
		urls = append(urls, p.URL)
	}
	score := 0.0
	if v.OverallScore != nil {
		score = *v.OverallScore
	}
	o.Logf("  completed in %s: %d pages, overall score %.1f, %d polls", took.Round(time.Millisecond), v.PagesCrawled, score, polls)

	o.Logf("baseline: the same %d pages fetched directly, 2 fetchers ...", len(urls))
	base, err := b.fetchAll(ctx, urls, 2)
	if err != nil {
		return nil, err
	}
	o.Logf("  %s", base.Round(time.Millisecond))
	return []storebench.Figure{{
		Name: fmt.Sprintf("POST .../crawl max_pages %d until completed, %d-page fixture, no delay (base: the same pages fetched directly, 2 fetchers)",
			o.CrawlPages, o.SitePages),
		Unit: storebench.UnitMs, Ours: float64(took) / float64(time.Millisecond), Baseline: float64(base) / float64(time.Millisecond),
		Target: storebench.Target{Max: crawlMaxMs}, Samples: v.PagesCrawled,
	}}, nil
}

// fetchAll fetches urls with the plain client from fetchers goroutines
// and returns how long it took; any answer but a 200 fails it.
func (b *bench) fetchAll(ctx context.Context, urls []string, fetchers int) (time.Duration, error) {
	work := make(chan string)
	errs := make(chan error, fetchers)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range fetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				if _, err := call(ctx, b.direct, http.MethodGet, u, nil, http.StatusOK, nil,
					"Accept", "text/html, application/xhtml+xml;q=0.9, */*;q=0.5"); err != nil {
					errs <- err
					for range work { // drain
					}
					return
				}
			}
		}()
	}
	for _, u := range urls {
		work <- u
	}
	close(work)
	wg.Wait()
	took := time.Since(t0)
	select {
	case err := <-errs:
		return 0, err
	default:
	}
	return took, nil
}

package audit

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamCrawl is one crawl; id "audit-crawl:<crawl id>".
const StreamCrawl = "audit.crawl"

// CrawlStream names a crawl's stream.
func CrawlStream(id string) string { return "audit-crawl:" + id }

// Crawl statuses.
const (
	CrawlQueued    = "queued"
	CrawlRunning   = "running"
	CrawlCompleted = "completed"
	CrawlCancelled = "cancelled"
	CrawlFailed    = "failed"
)

// Crawl page caps by tier (the seed's tier table: Free 1 page, Pro 500,
// Business and Agency unlimited, which MaxCrawlPages bounds).
const (
	MaxCrawlPages      = 10000
	MaxConcurrentCrawl = 5
)

// TierPages is the most pages a crawl of tier may visit.
func TierPages(tier string) int {
	switch tier {
	case "pro":
		return 500
	case "business", "agency":
		return MaxCrawlPages
	}
	return 1
}

// CrawlRequested opens a crawl.
type CrawlRequested struct {
	CrawlID  string    `json:"crawl_id"`
	URL      string    `json:"url"`
	MaxPages int       `json:"max_pages"`
	Tier     string    `json:"tier"`
	At       time.Time `json:"at"`
}

// CrawlStarted records that a worker began (again, after a restart).
type CrawlStarted struct {
	CrawlID string    `json:"crawl_id"`
	Attempt int       `json:"attempt"`
	At      time.Time `json:"at"`
}

// CrawlPageScored is one page crawled and scored: the site's scan with
// this page as its home (the site-wide checks are the site's, the page's
// own structured data and format are the page's).
type CrawlPageScored struct {
	CrawlID string         `json:"crawl_id"`
	URL     string         `json:"url"`
	Status  int            `json:"status"`
	Score   int            `json:"score"`
	Checks  map[string]int `json:"checks"`
	At      time.Time      `json:"at"`
}

// CrawlCancelRequested asks the crawl to stop after the page in hand.
type CrawlCancelRequested struct {
	CrawlID string    `json:"crawl_id"`
	At      time.Time `json:"at"`
}

// CrawlFinished ends a crawl.
type CrawlFinished struct {
	CrawlID           string             `json:"crawl_id"`
	Status            string             `json:"status"`
	PagesCrawled      int                `json:"pages_crawled"`
	OverallScore      float64            `json:"overall_score"`
	DimensionAverages map[string]float64 `json:"dimension_averages"`
	Reason            string             `json:"reason,omitempty"`
	At                time.Time          `json:"at"`
}

func (CrawlRequested) EventType() string       { return "audit.crawl_requested" }
func (CrawlStarted) EventType() string         { return "audit.crawl_started" }
func (CrawlPageScored) EventType() string      { return "audit.crawl_page_scored" }
func (CrawlCancelRequested) EventType() string { return "audit.crawl_cancel_requested" }
func (CrawlFinished) EventType() string        { return "audit.crawl_finished" }

// CrawlState is the fold of a crawl's stream.
type CrawlState struct {
	Requested *CrawlRequested
	Attempts  int
	Pages     []CrawlPageScored
	Visited   map[string]bool
	Cancel    bool
	Finished  *CrawlFinished
}

// Apply folds one event.
func (c *CrawlState) Apply(e kernel.Event) {
	switch e := e.(type) {
	case *CrawlRequested:
		c.Requested = e
	case *CrawlStarted:
		c.Attempts++
	case *CrawlPageScored:
		if c.Visited == nil {
			c.Visited = map[string]bool{}
		}
		c.Visited[e.URL] = true
		c.Pages = append(c.Pages, *e)
	case *CrawlCancelRequested:
		c.Cancel = true
	case *CrawlFinished:
		c.Finished = e
	}
}

// Summarise averages the pages' scores: overall and by check, to one
// decimal.
func Summarise(pages []CrawlPageScored) (overall float64, dims map[string]float64) {
	dims = map[string]float64{}
	if len(pages) == 0 {
		return 0, dims
	}
	sums := map[string]int{}
	total := 0
	for _, p := range pages {
		total += p.Score
		for k, v := range p.Checks {
			sums[k] += v
		}
	}
	names := make([]string, 0, len(sums))
	for k := range sums {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		dims[k] = round1(float64(sums[k]) / float64(len(pages)))
	}
	return round1(float64(total) / float64(len(pages))), dims
}

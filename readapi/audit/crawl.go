package audit

import (
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	projaudit "github.com/strata-platform/strata/projections/audit"
	"github.com/strata-platform/strata/readapi/httpx"
)

// crawlRoutes adds the crawl's routes.
func (a *API) crawlRoutes(r *mux.Router) {
	r.Handle(Base+"/crawl", a.limited("audit.full", FullPerMinute, a.gate(minCrawl, a.startCrawl))).Methods(http.MethodPost)
	r.Handle(Base+"/crawl/{crawl_id}", a.limited("audit.reads", ReadsPerMinute, a.gate(minCrawl, a.getCrawl))).Methods(http.MethodGet)
	r.Handle(Base+"/crawl/{crawl_id}", a.limited("audit.full", FullPerMinute, a.gate(minCrawl, a.cancelCrawl))).Methods(http.MethodDelete)
	r.Handle(Base+"/crawl/{crawl_id}/cancel", a.limited("audit.full", FullPerMinute,
		a.gate(minCrawl, a.cancelCrawl))).Methods(http.MethodPost)
}

// startCrawl serves POST /crawl {url, max_pages}: 202 with the crawl id.
// The caller's audit tier (from optional credentials: Config.Tier) caps
// max_pages: Free 1, Pro 500, Business and Agency unlimited (10,000).
func (a *API) startCrawl(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL      string `json:"url"`
		MaxPages int    `json:"max_pages"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	tier, err := a.tier(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		httpx.WriteError(w, r, err)
		return
	}
	c, err := a.svc.StartCrawl(r.Context(), body.URL, body.MaxPages, tier)
	if err != nil {
		var ke *kernel.Error
		if errors.As(err, &ke) && ke.Kind == kernel.KindRateLimited {
			err = httpx.RateLimited(ke.Message, 30*time.Second)
		}
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Location", Base+"/crawl/"+c.CrawlID)
	_ = httpx.WriteJSON(w, http.StatusAccepted, map[string]any{"crawl_id": c.CrawlID, "status": "queued", "url": c.URL,
		"max_pages": c.MaxPages, "tier": c.Tier})
}

// CrawlPage is one crawled page.
type CrawlPage struct {
	URL    string          `json:"url"`
	Status int             `json:"status"`
	Score  int             `json:"score"`
	Checks json.RawMessage `json:"checks"`
}

// getCrawl serves GET /crawl/{crawl_id}.
func (a *API) getCrawl(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["crawl_id"]
	if len(id) != 36 || !isUUID(id) {
		httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindNotFound, Field: "crawl_id", Rule: "exists", Message: "no crawl " + id})
		return
	}
	var out struct {
		CrawlID           string          `json:"crawl_id"`
		URL               string          `json:"url"`
		Status            string          `json:"status"`
		Tier              string          `json:"tier"`
		MaxPages          int             `json:"max_pages"`
		PagesCrawled      int             `json:"pages_crawled"`
		OverallScore      *float64        `json:"overall_score"`
		DimensionAverages json.RawMessage `json:"dimension_averages"`
		Reason            string          `json:"reason,omitempty"`
		CancelRequested   bool            `json:"cancel_requested"`
		RequestedAt       time.Time       `json:"requested_at"`
		StartedAt         *time.Time      `json:"started_at"`
		FinishedAt        *time.Time      `json:"finished_at"`
		Pages             []CrawlPage     `json:"pages"`
	}
	var dims []byte
	err := a.cfg.DB.QueryRowContext(r.Context(), `SELECT crawl_id::text, url, status, tier, max_pages, pages_crawled, overall_score,
			dimension_averages, reason, cancel_requested, requested_at, started_at, finished_at
		FROM `+projaudit.Schema+`.crawls WHERE crawl_id = $1`, id).Scan(&out.CrawlID, &out.URL, &out.Status, &out.Tier, &out.MaxPages,
		&out.PagesCrawled, &out.OverallScore, &dims, &out.Reason, &out.CancelRequested, &out.RequestedAt, &out.StartedAt, &out.FinishedAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindNotFound, Field: "crawl_id", Rule: "exists", Message: "no crawl " + id})
		return
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out.DimensionAverages = json.RawMessage("{}")
	if len(dims) > 0 {
		out.DimensionAverages = dims
	}
	rows, err := a.cfg.DB.QueryContext(r.Context(), `SELECT url, status, score, checks FROM `+projaudit.Schema+`.crawl_pages
		WHERE crawl_id = $1 ORDER BY at, url`, id)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out.Pages = []CrawlPage{}
	for rows.Next() {
		var p CrawlPage
		var checks []byte
		if err := rows.Scan(&p.URL, &p.Status, &p.Score, &checks); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		p.Checks = checks
		out.Pages = append(out.Pages, p)
	}
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}

// cancelCrawl serves DELETE /crawl/{id} and POST /crawl/{id}/cancel: the
// crawl stops after the page in hand (202); a finished crawl is 409.
func (a *API) cancelCrawl(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["crawl_id"]
	if err := a.svc.CancelCrawl(r.Context(), id); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusAccepted, map[string]any{"crawl_id": id, "status": "cancel_requested"})
}

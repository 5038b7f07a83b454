package audit

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/audit/badge"
	"github.com/strata-platform/strata/readapi/httpx"
)

// badge serves GET /badge?url=&score=&grade=: the 1200x630 PNG with an
// ETag (a matching If-None-Match is 304 without rendering).
func (a *API) badge() http.Handler {
	return badge.Handler(parseBadge, httpx.WriteError)
}

// parseBadge reads the badge's query: url (its host is shown), score
// 0-100 and grade A+|A|B|C|D|F (badge.Input.Check).
func parseBadge(r *http.Request) (badge.Input, error) {
	q := r.URL.Query()
	raw := strings.TrimSpace(q.Get("url"))
	if raw == "" {
		return badge.Input{}, kernel.Invalid("url", "required", "url is required")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") || len(raw) > 2048 {
		return badge.Input{}, kernel.Invalid("url", "url", "url must be an http or https URL with a host")
	}
	s := q.Get("score")
	score, err := strconv.Atoi(s)
	if s == "" || err != nil {
		return badge.Input{}, kernel.Invalid("score", "range:0-100", "score is required: a whole number from 0 to 100")
	}
	in := badge.Input{Host: u.Hostname(), Score: score, Grade: q.Get("grade")}
	return in, in.Check()
}

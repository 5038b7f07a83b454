package content

import (
	"context"
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/content"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Platform statuses in analytics answers.
const (
	statusConnected      = domconn.StatusConnected
	statusNeedsReconnect = domconn.StatusNeedsReconnect
	statusNotConnected   = "not_connected"
)

// twinNote explains twin_id in analytics answers.
const twinNote = "analytics are per connected account, not per twin: twin_id is checked but does not filter the numbers"

// platformStatus is a platform's place in an analytics answer.
type platformStatus struct {
	Platform string `json:"platform"`
	Status   string `json:"status"`
	// LastSyncedAt is when a sync last recorded new numbers (null: never,
	// or not connected).
	LastSyncedAt *string `json:"last_synced_at"`
}

// scope is the analytics query's platforms with their statuses and the
// live ones (connected or waiting to be reconnected), whose numbers are
// shown.
type scope struct {
	statuses []platformStatus
	live     []string
}

// analyticsParams reads platform (all or one; 400 otherwise) and days
// (1-365, default 30; 400 otherwise) and returns the platforms selected.
func analyticsParams(r *http.Request) ([]string, int, error) {
	p, perr := cmd.CheckAnalyticsPlatform(r.URL.Query().Get("platform"))
	if perr != nil {
		return nil, 0, perr
	}
	days, err := httpx.IntParam(r, "days", cmd.DefaultAnalyticsDays, 1, cmd.MaxAnalyticsDays)
	if err != nil {
		return nil, 0, err
	}
	if p == cmd.AllPlatforms {
		return content.Platforms, days, nil
	}
	return []string{p}, days, nil
}

// scopeOf returns the statuses of the owner's accounts at names.
func (a *API) scopeOf(ctx context.Context, owner string, names []string) (scope, error) {
	accts, err := a.cfg.Connections.List(ctx, owner, names)
	if err != nil {
		return scope{}, err
	}
	status := map[string]string{}
	for _, acc := range accts {
		status[acc.Provider] = acc.Status
	}
	synced := map[string]time.Time{}
	rows, err := a.db.QueryContext(ctx, `SELECT platform, max(synced_at) FROM rm_content_v1.analytics
		WHERE owner = $1 AND platform = ANY($2) GROUP BY platform`, owner, names)
	if err != nil {
		return scope{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var at time.Time
		if err := rows.Scan(&p, &at); err != nil {
			return scope{}, err
		}
		synced[p] = at
	}
	if err := rows.Err(); err != nil {
		return scope{}, err
	}
	var sc scope
	for _, n := range names {
		ps := platformStatus{Platform: n, Status: statusNotConnected}
		if st, ok := status[n]; ok && (st == statusConnected || st == statusNeedsReconnect) {
			ps.Status = st
			sc.live = append(sc.live, n)
			if at, ok := synced[n]; ok {
				v := ts(at)
				ps.LastSyncedAt = &v
			}
		}
		sc.statuses = append(sc.statuses, ps)
	}
	return sc, nil
}

// analytics serves GET /analytics/social?platform=&days=&twin_id=: the
// daily rows {platform, date, views, likes, comments, shares,
// followers_gained} of the last days days (today, UTC, included) ordered
// by date then platform, as the platforms reported them (null: a number
// the platform did not give, never 0), and every selected platform's
// status. Only platforms with a live account have rows; one with none is
// listed as not_connected, never with numbers. Analytics are per
// connected account, not per twin: a twin_id must name one of the
// caller's twins (404 otherwise) and does not filter the numbers (the
// answer's note says so).
func (a *API) analytics(w http.ResponseWriter, r *http.Request, c caller) {
	names, days, err := analyticsParams(r)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out := map[string]any{"days": days}
	if id := r.URL.Query().Get("twin_id"); id != "" {
		if _, err := a.svc.CheckTwin(r.Context(), c.actor.Owner, "twin_id", id); err != nil {
			writeErr(w, r, err)
			return
		}
		out["twin_id"], out["note"] = id, twinNote
	}
	sc, err := a.scopeOf(r.Context(), c.actor.Owner, names)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	from, to := a.svc.AnalyticsWindow(days)
	list, err := a.rows(r.Context(), c.actor.Owner, sc.live, from, to)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out["rows"], out["platforms"] = list, sc.statuses
	out["from"], out["to"] = from.Format(time.DateOnly), to.Format(time.DateOnly)
	writeJSON(w, r, http.StatusOK, out, nil)
}

// rows reads the owner's rows at platforms within [from, to].
func (a *API) rows(ctx context.Context, owner string, platforms []string, from, to time.Time) ([]cmd.AnalyticsRow, error) {
	out := []cmd.AnalyticsRow{}
	if len(platforms) == 0 {
		return out, nil
	}
	rows, err := a.db.QueryContext(ctx, `SELECT platform, to_char(day, 'YYYY-MM-DD'), views, likes, comments, shares, followers_gained
		FROM rm_content_v1.analytics WHERE owner = $1 AND platform = ANY($2) AND day BETWEEN $3::date AND $4::date
		ORDER BY day, platform`, owner, platforms, from.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d cmd.AnalyticsRow
		if err := rows.Scan(&d.Platform, &d.Date, &d.Views, &d.Likes, &d.Comments, &d.Shares, &d.FollowersGained); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// exportBody is POST /analytics/social/export's body.
type exportBody struct {
	Format   *string `json:"format"`
	Days     *int    `json:"days"`
	Platform *string `json:"platform"`
}

// export serves POST /analytics/social/export {format (csv, the default),
// days (1-365, default 30), platform (all, the default, or one)}: 202
// {task_id, status}; poll GET /tasks/{task_id}, whose result, once done,
// has download_url, a signed link good for one hour (then 410; an altered
// link is 403). An empty body takes every default.
func (a *API) export(w http.ResponseWriter, r *http.Request, c caller) {
	var b exportBody
	if r.ContentLength != 0 {
		if err := decode(r, &b); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	format, days, platform := cmd.ExportCSV, cmd.DefaultAnalyticsDays, cmd.AllPlatforms
	if b.Format != nil {
		format = *b.Format
	}
	if b.Days != nil {
		days = *b.Days
	}
	if b.Platform != nil {
		platform = *b.Platform
	}
	id, err := a.svc.ExportAnalytics(r.Context(), c.actor, format, days, platform)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	w.Header().Set("Location", Base+"/tasks/"+id)
	writeJSON(w, r, http.StatusAccepted, map[string]any{"task_id": id, "status": content.TaskQueued,
		"kind": content.TaskAnalyticsExport}, nil)
}

// numbers are totals over a window (null: no day in it has that number).
type numbers struct {
	Views           *int64 `json:"views"`
	Likes           *int64 `json:"likes"`
	Comments        *int64 `json:"comments"`
	Shares          *int64 `json:"shares"`
	FollowersGained *int64 `json:"followers_gained"`
}

func (n *numbers) fields() []**int64 {
	return []**int64{&n.Views, &n.Likes, &n.Comments, &n.Shares, &n.FollowersGained}
}

// add adds o into n, null-aware: null plus null stays null.
func (n *numbers) add(o numbers) {
	dst, src := n.fields(), o.fields()
	for i := range dst {
		if *src[i] == nil {
			continue
		}
		v := **src[i]
		if *dst[i] != nil {
			v += **dst[i]
		}
		*dst[i] = &v
	}
}

// delta is cur - prev per number; null when either side is null.
func delta(cur, prev numbers) numbers {
	var d numbers
	out, c, p := d.fields(), cur.fields(), prev.fields()
	for i := range out {
		if *c[i] != nil && *p[i] != nil {
			v := **c[i] - **p[i]
			*out[i] = &v
		}
	}
	return d
}

// comparison is the totals of a window, the previous window's and the
// change, with how many days each window has rows for.
type comparison struct {
	Totals       numbers `json:"totals"`
	Previous     numbers `json:"previous"`
	Delta        numbers `json:"delta"`
	DaysSynced   int     `json:"days_synced"`
	PreviousDays int     `json:"previous_days_synced"`
}

// platformSummary is one live platform's comparison.
type platformSummary struct {
	Platform string `json:"platform"`
	Status   string `json:"status"`
	comparison
}

// summary serves GET /analytics/social/summary?days=: for each platform
// with a live account, the totals over the last days days (today, UTC,
// included) and over the days days before them, and the deltas (current
// minus previous); a total is null when no day of its window has that
// number, a delta null when either total is. overall adds the platforms
// up the same way. platforms lists every platform's status; one that is
// not connected has no numbers.
func (a *API) summary(w http.ResponseWriter, r *http.Request, c caller) {
	days, err := httpx.IntParam(r, "days", cmd.DefaultAnalyticsDays, 1, cmd.MaxAnalyticsDays)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	sc, err := a.scopeOf(r.Context(), c.actor.Owner, content.Platforms)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	from, to := a.svc.AnalyticsWindow(days)
	prevFrom, prevTo := from.AddDate(0, 0, -days), from.AddDate(0, 0, -1)
	by := map[string]*comparison{}
	rows, err := a.db.QueryContext(r.Context(), `SELECT platform,
			sum(views) FILTER (WHERE day >= $3::date)::bigint, sum(likes) FILTER (WHERE day >= $3::date)::bigint,
			sum(comments) FILTER (WHERE day >= $3::date)::bigint, sum(shares) FILTER (WHERE day >= $3::date)::bigint,
			sum(followers_gained) FILTER (WHERE day >= $3::date)::bigint, count(*) FILTER (WHERE day >= $3::date),
			sum(views) FILTER (WHERE day < $3::date)::bigint, sum(likes) FILTER (WHERE day < $3::date)::bigint,
			sum(comments) FILTER (WHERE day < $3::date)::bigint, sum(shares) FILTER (WHERE day < $3::date)::bigint,
			sum(followers_gained) FILTER (WHERE day < $3::date)::bigint, count(*) FILTER (WHERE day < $3::date)
		FROM rm_content_v1.analytics WHERE owner = $1 AND platform = ANY($2) AND day BETWEEN $4::date AND $5::date
		GROUP BY platform`, c.actor.Owner, sc.live, from.Format(time.DateOnly), prevFrom.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		writeErr(w, r, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var cm comparison
		t, pr := &cm.Totals, &cm.Previous
		if err := rows.Scan(&p, &t.Views, &t.Likes, &t.Comments, &t.Shares, &t.FollowersGained, &cm.DaysSynced,
			&pr.Views, &pr.Likes, &pr.Comments, &pr.Shares, &pr.FollowersGained, &cm.PreviousDays); err != nil {
			writeErr(w, r, err)
			return
		}
		by[p] = &cm
	}
	if err := rows.Err(); err != nil {
		writeErr(w, r, err)
		return
	}
	var overall comparison
	list := []platformSummary{}
	for _, ps := range sc.statuses {
		if ps.Status == statusNotConnected {
			continue
		}
		cm := by[ps.Platform]
		if cm == nil {
			cm = &comparison{}
		}
		cm.Delta = delta(cm.Totals, cm.Previous)
		overall.Totals.add(cm.Totals)
		overall.Previous.add(cm.Previous)
		list = append(list, platformSummary{Platform: ps.Platform, Status: ps.Status, comparison: *cm})
	}
	overall.Delta = delta(overall.Totals, overall.Previous)
	writeJSON(w, r, http.StatusOK, map[string]any{"days": days, "from": from.Format(time.DateOnly), "to": to.Format(time.DateOnly),
		"previous_from": prevFrom.Format(time.DateOnly), "previous_to": prevTo.Format(time.DateOnly),
		"by_platform": list, "overall": map[string]numbers{"totals": overall.Totals, "previous": overall.Previous, "delta": overall.Delta},
		"platforms": sc.statuses}, nil)
}

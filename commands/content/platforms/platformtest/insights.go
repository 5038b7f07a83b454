package platformtest

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func (p *Photo) insights(w http.ResponseWriter, r *http.Request) {
	acct, ok := p.own(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	since, err1 := strconv.ParseInt(q.Get("since"), 10, 64)
	until, err2 := strconv.ParseInt(q.Get("until"), 10, 64)
	if q.Get("period") != "day" || err1 != nil || err2 != nil || until <= since {
		graphError(w, http.StatusBadRequest, 100, 0, "period=day, since and until are required", false)
		return
	}
	var data []map[string]any
	for _, name := range strings.Split(q.Get("metric"), ",") {
		if name == "follower_count" {
			var values []map[string]any
			for d := time.Unix(since, 0).UTC(); d.Unix() < until; d = d.AddDate(0, 0, 1) {
				if n, ok := p.numbers(acct.ID, d); ok && n.FollowersGained != nil {
					values = append(values, map[string]any{"value": *n.FollowersGained,
						"end_time": d.AddDate(0, 0, 1).Format("2006-01-02T15:04:05-0700")})
				}
			}
			if values != nil {
				data = append(data, map[string]any{"name": name, "period": "day", "values": values, "id": acct.ID + "/insights/" + name + "/day"})
			}
			continue
		}
		if q.Get("metric_type") != "total_value" {
			graphError(w, http.StatusBadRequest, 100, 0, "metric_type=total_value is required for "+name, false)
			return
		}
		var sum *int64
		for d := time.Unix(since, 0).UTC(); d.Unix() < until; d = d.AddDate(0, 0, 1) {
			n, _ := p.numbers(acct.ID, d)
			if v := map[string]*int64{"views": n.Views, "likes": n.Likes, "comments": n.Comments, "shares": n.Shares}[name]; v != nil {
				sum = addTo(sum, *v)
			}
		}
		if sum != nil {
			data = append(data, map[string]any{"name": name, "period": "day", "total_value": map[string]any{"value": *sum},
				"id": acct.ID + "/insights/" + name + "/day"})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}

func addTo(sum *int64, v int64) *int64 {
	if sum == nil {
		return &v
	}
	s := *sum + v
	return &s
}

var liDateRE = regexp.MustCompile(`^\(start:\(year:(\d+),month:(\d+),day:(\d+)\),end:\(year:(\d+),month:(\d+),day:(\d+)\)\)$`)

// liDate is LinkedIn's {year, month, day}.
func liDate(t time.Time) map[string]int {
	return map[string]int{"year": t.Year(), "month": int(t.Month()), "day": t.Day()}
}

// analytics serves memberCreatorPostAnalytics' me finder with DAILY
// aggregation (the dateRange end is taken as exclusive).
func (n *Network) analytics(w http.ResponseWriter, r *http.Request, acct Account) {
	q := r.URL.Query()
	m := liDateRE.FindStringSubmatch(q.Get("dateRange"))
	pick := map[string]func(Numbers) *int64{
		"IMPRESSION": func(x Numbers) *int64 { return x.Views }, "REACTION": func(x Numbers) *int64 { return x.Likes },
		"COMMENT": func(x Numbers) *int64 { return x.Comments }, "RESHARE": func(x Numbers) *int64 { return x.Shares },
		"MEMBERS_REACHED": func(Numbers) *int64 { return nil }}[q.Get("queryType")]
	if q.Get("q") != "me" || q.Get("aggregation") != "DAILY" || m == nil || pick == nil {
		liError(w, http.StatusBadRequest, 0, "ILLEGAL_ARGUMENT", "q=me, queryType, aggregation=DAILY and dateRange are required")
		return
	}
	num := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	from := time.Date(num(1), time.Month(num(2)), num(3), 0, 0, 0, 0, time.UTC)
	to := time.Date(num(4), time.Month(num(5)), num(6), 0, 0, 0, 0, time.UTC)
	elements := []map[string]any{}
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		x, _ := n.numbers(acct.ID, d)
		if v := pick(x); v != nil {
			elements = append(elements, map[string]any{"count": *v, "metricType": q.Get("queryType"),
				"dateRange": map[string]any{"start": liDate(d), "end": liDate(d.AddDate(0, 0, 1))}})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"elements": elements, "paging": map[string]any{"start": 0, "count": 10, "total": len(elements)}})
}

// reports serves the YouTube Analytics API's reports query (channel==MINE,
// dimensions=day): a row for each day with numbers set, 0 for a number
// not set (YouTube gives every metric asked for).
func (v *VideoSite) reports(w http.ResponseWriter, r *http.Request) {
	acct, ok := v.auth(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	from, err1 := time.Parse(time.DateOnly, q.Get("startDate"))
	to, err2 := time.Parse(time.DateOnly, q.Get("endDate"))
	if q.Get("ids") != "channel==MINE" || q.Get("dimensions") != "day" || err1 != nil || err2 != nil || q.Get("metrics") == "" {
		googleError(w, http.StatusBadRequest, "badRequest", "ids=channel==MINE, startDate, endDate, metrics and dimensions=day are required")
		return
	}
	metrics := strings.Split(q.Get("metrics"), ",")
	headers := []map[string]string{{"name": "day", "columnType": "DIMENSION", "dataType": "STRING"}}
	for _, m := range metrics {
		headers = append(headers, map[string]string{"name": m, "columnType": "METRIC", "dataType": "INTEGER"})
	}
	rows := [][]any{}
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		x, found := v.numbers(acct.ID, d)
		if !found {
			continue
		}
		row := []any{d.Format(time.DateOnly)}
		for _, m := range metrics {
			p := map[string]*int64{"views": x.Views, "likes": x.Likes, "comments": x.Comments, "shares": x.Shares, "subscribersGained": x.FollowersGained}[m]
			var val int64
			if p != nil {
				val = *p
			}
			row = append(row, val)
		}
		rows = append(rows, row)
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": "youtubeAnalytics#resultTable", "columnHeaders": headers, "rows": rows})
}

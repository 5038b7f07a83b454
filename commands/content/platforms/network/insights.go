package network

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// analyticsScope is the permission memberCreatorPostAnalytics needs.
const analyticsScope = "r_member_postAnalytics"

// liDate is a Rest.li date.
type liDate struct {
	Year  int `json:"year"`
	Month int `json:"month"`
	Day   int `json:"day"`
}

func restliDate(t time.Time) string {
	return fmt.Sprintf("(year:%d,month:%d,day:%d)", t.Year(), int(t.Month()), t.Day())
}

// Insights reads the member's daily post analytics (see the package
// comment); the dateRange end is sent as the day after to.
func (a *Adapter) Insights(ctx context.Context, t connections.Tokens, _ connections.Identity, from, to time.Time) ([]platforms.Day, error) {
	days := wire.Days(from, to)
	out := make([]platforms.Day, len(days))
	index := map[time.Time]int{}
	for i, d := range days {
		out[i].Date = d
		index[d] = i
	}
	if len(days) == 0 || t.Scope != "" && !hasScope(t.Scope, analyticsScope) {
		return out, nil
	}
	rng := "(start:" + restliDate(days[0]) + ",end:" + restliDate(days[len(days)-1].AddDate(0, 0, 1)) + ")"
	fields := []struct {
		queryType string
		set       func(*platforms.Day, *int64)
	}{
		{"IMPRESSION", func(d *platforms.Day, v *int64) { d.Views = v }},
		{"REACTION", func(d *platforms.Day, v *int64) { d.Likes = v }},
		{"COMMENT", func(d *platforms.Day, v *int64) { d.Comments = v }},
		{"RESHARE", func(d *platforms.Day, v *int64) { d.Shares = v }},
	}
	for _, f := range fields {
		var ans struct {
			Elements []struct {
				Count     int64 `json:"count"`
				DateRange struct {
					Start liDate `json:"start"`
				} `json:"dateRange"`
			} `json:"elements"`
		}
		target := a.settings.APIBase + "/rest/memberCreatorPostAnalytics?q=me&queryType=" + f.queryType +
			"&aggregation=DAILY&dateRange=" + rng
		if err := a.do(ctx, t, http.MethodGet, target, nil, true, &ans, nil); err != nil {
			return nil, err
		}
		for _, e := range ans.Elements {
			s := e.DateRange.Start
			if i, ok := index[time.Date(s.Year, time.Month(s.Month), s.Day, 0, 0, 0, 0, time.UTC)]; ok {
				f.set(&out[i], wire.Int(e.Count))
			}
		}
	}
	return out, nil
}

// hasScope reports whether a granted scope list (comma or space
// separated) has want.
func hasScope(granted, want string) bool {
	for _, s := range strings.FieldsFunc(granted, func(r rune) bool { return r == ',' || r == ' ' }) {
		if s == want {
			return true
		}
	}
	return false
}

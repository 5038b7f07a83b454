package videosite

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// Insights asks the Analytics API for the channel's daily numbers.
func (a *Adapter) Insights(ctx context.Context, t connections.Tokens, _ connections.Identity, from, to time.Time) ([]platforms.Day, error) {
	days := wire.Days(from, to)
	out := make([]platforms.Day, len(days))
	index := map[string]int{}
	for i, d := range days {
		out[i].Date = d
		index[d.Format(time.DateOnly)] = i
	}
	if len(days) == 0 {
		return out, nil
	}
	q := url.Values{"ids": {"channel==MINE"}, "startDate": {days[0].Format(time.DateOnly)},
		"endDate": {days[len(days)-1].Format(time.DateOnly)}, "metrics": {"views,likes,comments,shares,subscribersGained"},
		"dimensions": {"day"}, "sort": {"day"}}
	var ans reportAnswer
	if err := a.get(ctx, t, a.AnalyticsBase+"/v2/reports?"+q.Encode(), &ans); err != nil {
		return nil, err
	}
	for _, row := range ans.Rows {
		var day string
		i := -1
		for c, h := range ans.ColumnHeaders {
			if h.Name == "day" && c < len(row) && json.Unmarshal(row[c], &day) == nil {
				if j, ok := index[day]; ok {
					i = j
				}
			}
		}
		if i < 0 {
			continue
		}
		for c, h := range ans.ColumnHeaders {
			var n json.Number
			if c >= len(row) || json.Unmarshal(row[c], &n) != nil {
				continue
			}
			v, err := n.Int64()
			if err != nil {
				f, ferr := n.Float64()
				if ferr != nil {
					continue
				}
				v = int64(f)
			}
			switch h.Name {
			case "views":
				out[i].Views = wire.Int(v)
			case "likes":
				out[i].Likes = wire.Int(v)
			case "comments":
				out[i].Comments = wire.Int(v)
			case "shares":
				out[i].Shares = wire.Int(v)
			case "subscribersGained":
				out[i].FollowersGained = wire.Int(v)
			}
		}
	}
	return out, nil
}

// reportAnswer is a reports query's result table.
type reportAnswer struct {
	ColumnHeaders []struct {
		Name string `json:"name"`
	} `json:"columnHeaders"`
	Rows [][]json.RawMessage `json:"rows"`
}

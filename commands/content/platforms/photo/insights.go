package photo

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// insightsAnswer is the insights edge's answer.
type insightsAnswer struct {
	Data []struct {
		Name       string `json:"name"`
		TotalValue *struct {
			Value int64 `json:"value"`
		} `json:"total_value"`
		Values []struct {
			Value   int64  `json:"value"`
			EndTime string `json:"end_time"`
		} `json:"values"`
	} `json:"data"`
}

// Insights reads the days' totals one day at a time and the daily new
// followers in 30-day windows (see the package comment).
func (a *Adapter) Insights(ctx context.Context, t connections.Tokens, acct connections.Identity, from, to time.Time) ([]platforms.Day, error) {
	user := userID(acct)
	days := wire.Days(from, to)
	out := make([]platforms.Day, len(days))
	index := map[string]int{}
	for i, d := range days {
		out[i].Date = d
		index[d.Format(time.DateOnly)] = i
		q := url.Values{"metric": {"views,likes,comments,shares"}, "period": {"day"}, "metric_type": {"total_value"},
			"since": {strconv.FormatInt(d.Unix(), 10)}, "until": {strconv.FormatInt(d.AddDate(0, 0, 1).Unix(), 10)}}
		var ans insightsAnswer
		if err := a.get(ctx, t, "/"+Version+"/"+user+"/insights?"+q.Encode(), &ans); err != nil {
			return nil, err
		}
		for _, m := range ans.Data {
			if m.TotalValue == nil {
				continue
			}
			v := wire.Int(m.TotalValue.Value)
			switch m.Name {
			case "views":
				out[i].Views = v
			case "likes":
				out[i].Likes = v
			case "comments":
				out[i].Comments = v
			case "shares":
				out[i].Shares = v
			}
		}
	}
	for start := 0; start < len(days); start += 30 {
		end := min(start+30, len(days))
		q := url.Values{"metric": {"follower_count"}, "period": {"day"},
			"since": {strconv.FormatInt(days[start].Unix(), 10)}, "until": {strconv.FormatInt(days[end-1].AddDate(0, 0, 1).Unix(), 10)}}
		var ans insightsAnswer
		err := a.get(ctx, t, "/"+Version+"/"+user+"/insights?"+q.Encode(), &ans)
		var ce *connections.CallError
		if errors.As(err, &ce) && ce.Class == connections.Refused {
			continue // not given for this account or range (fewer than 100 followers, older than 30 days)
		} else if err != nil {
			return nil, err
		}
		for _, m := range ans.Data {
			if m.Name != "follower_count" {
				continue
			}
			for _, v := range m.Values {
				end, err := time.Parse("2006-01-02T15:04:05-0700", v.EndTime)
				if err != nil {
					continue
				}
				if i, ok := index[end.Add(-24*time.Hour).UTC().Format(time.DateOnly)]; ok {
					out[i].FollowersGained = wire.Int(v.Value)
				}
			}
		}
	}
	return out, nil
}

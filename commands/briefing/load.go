package briefing

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// load reads the observations an algorithm's window holds for the day
// ending at end (exclusive), kind by kind, from the read model.
func (s *Service) load(ctx context.Context, w briefing.Window, end time.Time) (briefing.Inputs, error) {
	var in briefing.Inputs
	q := s.store.DB()
	from := func(d time.Duration) time.Time { return end.Add(-d) }
	if w.Indicators > 0 {
		err := scan(ctx, q, `SELECT series, at, value FROM `+projbriefing.Schema+`.observations
			WHERE kind = 'indicator' AND at >= $1 AND at < $2`, from(w.Indicators), end, func(r *stdsql.Rows) error {
			var x briefing.Indicator
			if err := r.Scan(&x.Series, &x.Date, &x.Value); err != nil {
				return err
			}
			x.Date = x.Date.UTC()
			in.Indicators = append(in.Indicators, x)
			return nil
		})
		if err != nil {
			return in, err
		}
	}
	if w.Mentions > 0 {
		err := scan(ctx, q, `SELECT source_id, company, source, coalesce(title, ''), coalesce(body, ''), coalesce(url, ''), at
			FROM `+projbriefing.Schema+`.observations WHERE kind = 'mention' AND at >= $1 AND at < $2`,
			from(w.Mentions), end, func(r *stdsql.Rows) error {
				var x briefing.Mention
				if err := r.Scan(&x.ID, &x.Company, &x.Source, &x.Title, &x.Text, &x.URL, &x.At); err != nil {
					return err
				}
				x.At = x.At.UTC()
				in.Mentions = append(in.Mentions, x)
				return nil
			})
		if err != nil {
			return in, err
		}
	}
	if w.Filings > 0 {
		err := scan(ctx, q, `SELECT source_id, company, form, coalesce(title, ''), coalesce(body, ''), source, coalesce(url, ''), at
			FROM `+projbriefing.Schema+`.observations WHERE kind = 'filing' AND at >= $1 AND at < $2`,
			from(w.Filings), end, func(r *stdsql.Rows) error {
				var x briefing.Filing
				if err := r.Scan(&x.ID, &x.Company, &x.Form, &x.Title, &x.Text, &x.Source, &x.URL, &x.FiledAt); err != nil {
					return err
				}
				x.FiledAt = x.FiledAt.UTC()
				in.Filings = append(in.Filings, x)
				return nil
			})
		if err != nil {
			return in, err
		}
	}
	if w.Documents > 0 {
		err := scan(ctx, q, `SELECT source_id, coalesce(title, ''), coalesce(body, ''), source, coalesce(url, ''),
				array_to_json(companies)::text, at
			FROM `+projbriefing.Schema+`.observations WHERE kind = 'document' AND at >= $1 AND at < $2`,
			from(w.Documents), end, func(r *stdsql.Rows) error {
				var x briefing.Document
				var companies string
				if err := r.Scan(&x.ID, &x.Title, &x.Text, &x.Source, &x.URL, &companies, &x.At); err != nil {
					return err
				}
				if err := json.Unmarshal([]byte(companies), &x.Companies); err != nil {
					return err
				}
				x.At = x.At.UTC()
				in.Documents = append(in.Documents, x)
				return nil
			})
		if err != nil {
			return in, err
		}
	}
	if w.Activities > 0 {
		err := scan(ctx, q, `SELECT developer, repo, coalesce(org, ''), metric, coalesce(count, 0), at
			FROM `+projbriefing.Schema+`.observations WHERE kind = 'developer_activity' AND at >= $1 AND at < $2`,
			from(w.Activities), end, func(r *stdsql.Rows) error {
				var x briefing.Activity
				if err := r.Scan(&x.Developer, &x.Repo, &x.Org, &x.Metric, &x.Count, &x.At); err != nil {
					return err
				}
				x.At = x.At.UTC()
				in.Activities = append(in.Activities, x)
				return nil
			})
		if err != nil {
			return in, err
		}
	}
	return in, nil
}

// scan runs a query and hands each row to fn.
func scan(ctx context.Context, q *stdsql.DB, query string, from, to time.Time, fn func(*stdsql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, from, to)
	if err != nil {
		return fmt.Errorf("briefing: load observations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return fmt.Errorf("briefing: load observations: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("briefing: load observations: %w", err)
	}
	return nil
}

package captable

import (
	"context"
	"fmt"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
)

// ExpireDue records the expiry of every award whose exercise window or
// term has lapsed (views already count such units as expired; this writes
// it down as events). Candidate companies come from the read model; the
// decision is made on each company's fold. It returns how many grants
// expired.
func (s *Service) ExpireDue(ctx context.Context) (int, error) {
	today := captable.DayOf(s.clock.Now()).Time
	rows, err := s.store.DB().QueryContext(ctx, `SELECT DISTINCT company_id FROM rm_captable_v1.grants
		WHERE grant_type <> 'RESTRICTED_STOCK' AND (window_ends IS NOT NULL OR expiration_date IS NOT NULL)
		  AND ((window_ends IS NOT NULL AND window_ends < $1) OR (expiration_date IS NOT NULL AND expiration_date < $1))
		  AND quantity - exercised - forfeited - expired - cancelled > 0`, today)
	if err != nil {
		return 0, fmt.Errorf("find lapsed awards: %w", err)
	}
	var companies []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		companies = append(companies, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, id := range companies {
		app, err := s.Do(ctx, id, func(c *captable.Company) ([]kernel.Event, error) { return c.ExpireLapsed(today), nil })
		if err != nil {
			return n, fmt.Errorf("expire awards of company %s: %w", id, err)
		}
		if app.ToVersion > 0 {
			n += int(app.ToVersion - app.FromVersion + 1)
			if err := s.wait(ctx, app.Last); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

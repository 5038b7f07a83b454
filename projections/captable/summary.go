package captable

import (
	"context"
	stdsql "database/sql"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// lapse is an award's outstanding units that lapsed before the day but
// whose expiry the scheduler has not recorded yet.
type lapse struct {
	class, holder string
	qty           num.Num
}

func lapsed(ctx context.Context, db *stdsql.DB, company string, day time.Time) ([]lapse, error) {
	// least() skips a NULL date: the award lapses at the earlier of its
	// window's end and its expiration. The condition is written as an index
	// on (company_id, least(window_ends, expiration_date)) with this WHERE
	// as its predicate would need it.
	rows, err := db.QueryContext(ctx, `SELECT share_class_id, stakeholder_id, (quantity - exercised - forfeited - expired - cancelled)::text
		FROM `+schema+`grants WHERE company_id = $1 AND grant_type <> 'RESTRICTED_STOCK'
		  AND (window_ends IS NOT NULL OR expiration_date IS NOT NULL)
		  AND quantity - exercised - forfeited - expired - cancelled > 0
		  AND least(window_ends, expiration_date) < $2`, company, day)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []lapse
	for rows.Next() {
		var l lapse
		var q string
		if err := rows.Scan(&l.class, &l.holder, &q); err != nil {
			return nil, err
		}
		if l.qty, err = num.Parse(q); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// Summary reads a company's live cap table on day (today) from the running
// totals: the share classes, and the top holders (all of them when top is
// 0). It applies captable.Tally, the rule of the fold's own Summary.
func Summary(ctx context.Context, db *stdsql.DB, company string, day time.Time, top int) (captable.Summary, error) {
	lapses, err := lapsed(ctx, db, company, day)
	if err != nil {
		return captable.Summary{}, err
	}
	byClass, byHolder := map[string]num.Num{}, map[string]num.Num{}
	for _, l := range lapses {
		byClass[l.class] = byClass[l.class].Add(l.qty)
		byHolder[l.holder] = byHolder[l.holder].Add(l.qty)
	}
	classes, err := classTotals(ctx, db, company, byClass)
	if err != nil {
		return captable.Summary{}, err
	}
	// Holders whose awards lapsed may fall in the ranking: read that many
	// more than asked, re-rank, then cut.
	holders, err := topHolders(ctx, db, company, top, len(byHolder))
	if err != nil {
		return captable.Summary{}, err
	}
	for i := range holders {
		holders[i].Awards = holders[i].Awards.Sub(byHolder[holders[i].ID])
	}
	s := captable.Tally(company, day, classes, holders)
	if top > 0 && len(s.Holders) > top {
		s.Holders = s.Holders[:top]
	}
	return s, nil
}

// classTotals reads the running totals of a company's share classes in
// creation order, with what of each lapsed (by class id).
func classTotals(ctx context.Context, db *stdsql.DB, company string, lapsed map[string]num.Num) ([]captable.ClassTotals, error) {
	rows, err := db.QueryContext(ctx, `SELECT share_class_id, name, type, total_shares::text, conversion_ratio::text,
		issued::text, used::text, outstanding::text FROM `+schema+`share_classes WHERE company_id = $1 ORDER BY seq`, company)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []captable.ClassTotals
	for rows.Next() {
		var t captable.ClassTotals
		var text [5]string
		if err := rows.Scan(&t.Class.ID, &t.Class.Name, &t.Class.Type, &text[0], &text[1], &text[2], &text[3], &text[4]); err != nil {
			return nil, err
		}
		for i, dst := range []*num.Num{&t.Class.TotalShares, &t.Class.ConversionRatio, &t.Issued, &t.Used, &t.Outstanding} {
			if *dst, err = num.Parse(text[i]); err != nil {
				return nil, err
			}
		}
		t.Lapsed = lapsed[t.Class.ID]
		out = append(out, t)
	}
	return out, rows.Err()
}

// topHolders reads the largest holders by running total; extra more rows
// are read so that holders whose awards lapsed can be re-ranked.
func topHolders(ctx context.Context, db *stdsql.DB, company string, top, extra int) ([]captable.HolderLine, error) {
	limit := any(nil)
	if top > 0 {
		limit = top + extra
	}
	rows, err := db.QueryContext(ctx, `SELECT stakeholder_id, name, type, issued::text, awards::text FROM `+schema+`stakeholders
		WHERE company_id = $1 AND issued + awards > 0 ORDER BY issued + awards DESC, name LIMIT $2`, company, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []captable.HolderLine
	for rows.Next() {
		var h captable.HolderLine
		var issued, awards string
		if err := rows.Scan(&h.ID, &h.Name, &h.Type, &issued, &awards); err != nil {
			return nil, err
		}
		if err := nums(map[*num.Num]string{&h.Issued: issued, &h.Awards: awards}); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Companies lists the companies an account belongs to, with its role.
func Companies(ctx context.Context, db *stdsql.DB, account string) ([]CompanyView, error) {
	rows, err := db.QueryContext(ctx, `SELECT c.company_id, c.name, m.role, c.created_at FROM `+schema+`members m
		JOIN `+schema+`companies c USING (company_id) WHERE m.account_id = $1 ORDER BY c.created_at, c.company_id`, account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []CompanyView{}
	for rows.Next() {
		var c CompanyView
		if err := rows.Scan(&c.ID, &c.Name, &c.Role, &c.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CompanyView is a company an account belongs to.
type CompanyView struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
}

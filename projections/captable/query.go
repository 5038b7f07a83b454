package captable

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/projections"
)

// schema qualifies the read model's tables for queries outside a projector
// transaction.
var schema = projections.SchemaName(Name) + "."

// Page is a page request: 1-based page and its size.
type Page struct{ Page, Limit int }

func (p Page) offset() int { return (p.Page - 1) * p.Limit }

// ErrNotFound is returned for a resource that is not in the company.
var ErrNotFound = errors.New("not found")

// StakeholderView is a stakeholder as the API shows it.
type StakeholderView struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Email     string    `json:"email"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	CompanyID string    `json:"companyId"`
	Shares    num.Num   `json:"shares"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

const stakeholderCols = `stakeholder_id, name, email, type, title, company_id, (issued + awards)::text, created_at, updated_at`

func scanStakeholder(row interface{ Scan(...any) error }) (StakeholderView, error) {
	var v StakeholderView
	var shares string
	err := row.Scan(&v.ID, &v.Name, &v.Email, &v.Type, &v.Title, &v.CompanyID, &shares, &v.CreatedAt, &v.UpdatedAt)
	if err == nil {
		v.Shares, err = num.Parse(shares)
	}
	return v, err
}

// Stakeholders lists a company's stakeholders in creation order.
func Stakeholders(ctx context.Context, db *stdsql.DB, company string, p Page) ([]StakeholderView, int, error) {
	return list(ctx, db, `SELECT `+stakeholderCols+` FROM `+schema+`stakeholders WHERE company_id = $1 AND NOT removed
		ORDER BY seq LIMIT $2 OFFSET $3`, `SELECT count(*) FROM `+schema+`stakeholders WHERE company_id = $1 AND NOT removed`,
		company, p, scanStakeholder)
}

// Stakeholder returns one stakeholder of the company.
func Stakeholder(ctx context.Context, db *stdsql.DB, company, id string) (StakeholderView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+stakeholderCols+` FROM `+schema+`stakeholders
		WHERE company_id = $1 AND stakeholder_id = $2 AND NOT removed`, company, id), scanStakeholder)
}

// list runs a paged query and its count.
func list[T any](ctx context.Context, db *stdsql.DB, q, count, company string, p Page, scan func(interface{ Scan(...any) error }) (T, error), extra ...any) ([]T, int, error) {
	var total int
	if err := db.QueryRowContext(ctx, count, append([]any{company}, extra...)...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := db.QueryContext(ctx, q, append([]any{company, p.Limit, p.offset()}, extra...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, total, rows.Err()
}

func one[T any](row *stdsql.Row, scan func(interface{ Scan(...any) error }) (T, error)) (T, error) {
	v, err := scan(row)
	if errors.Is(err, stdsql.ErrNoRows) {
		return v, ErrNotFound
	}
	return v, err
}

// nums parses numeric text columns into Nums.
func nums(pairs map[*num.Num]string) error {
	for dst, s := range pairs {
		v, err := num.Parse(s)
		if err != nil {
			return err
		}
		*dst = v
	}
	return nil
}

// ClassView is a share class as the API shows it.
type ClassView struct {
	ID                    string    `json:"id"`
	CompanyID             string    `json:"companyId"`
	Name                  string    `json:"name"`
	Type                  string    `json:"type"`
	TotalShares           num.Num   `json:"totalShares"`
	PricePerShare         num.Num   `json:"pricePerShare"`
	LiquidationPreference num.Num   `json:"liquidationPreference"`
	ConversionRatio       num.Num   `json:"conversionRatio"`
	Participating         bool      `json:"participating"`
	ParticipationCap      num.Num   `json:"participationCap"`
	Seniority             int       `json:"seniority"`
	AntiDilution          string    `json:"antiDilution"`
	AntiDilutionBase      *string   `json:"antiDilutionBase"` // NARROW_BASED only, else null
	IssuedShares          num.Num   `json:"issuedShares"`
	OutstandingAwards     num.Num   `json:"outstandingAwards"`
	AvailableShares       num.Num   `json:"availableShares"`
	CreatedAt             time.Time `json:"createdAt"`
	UpdatedAt             time.Time `json:"updatedAt"`
}

const classCols = `share_class_id, company_id, name, type, total_shares::text, price_per_share::text,
	liquidation_preference::text, conversion_ratio::text, participating, participation_cap::text, seniority, anti_dilution,
	issued::text, used::text, outstanding::text, created_at, updated_at, anti_dilution_base`

func scanClass(row interface{ Scan(...any) error }) (ClassView, error) {
	var v ClassView
	var total, price, pref, ratio, capm, issued, used, out string
	err := row.Scan(&v.ID, &v.CompanyID, &v.Name, &v.Type, &total, &price, &pref, &ratio, &v.Participating, &capm,
		&v.Seniority, &v.AntiDilution, &issued, &used, &out, &v.CreatedAt, &v.UpdatedAt, &v.AntiDilutionBase)
	if err != nil {
		return v, err
	}
	var usedN num.Num
	err = nums(map[*num.Num]string{&v.TotalShares: total, &v.PricePerShare: price, &v.LiquidationPreference: pref,
		&v.ConversionRatio: ratio, &v.ParticipationCap: capm, &v.IssuedShares: issued, &usedN: used, &v.OutstandingAwards: out})
	if v.Type == captable.ClassPool || v.Type == captable.ClassWarrant {
		v.AvailableShares = v.TotalShares.Sub(usedN)
	} else {
		v.AvailableShares = v.TotalShares.Sub(v.IssuedShares)
	}
	return v, err
}

// Classes lists a company's share classes in creation order.
func Classes(ctx context.Context, db *stdsql.DB, company string, p Page) ([]ClassView, int, error) {
	return list(ctx, db, `SELECT `+classCols+` FROM `+schema+`share_classes WHERE company_id = $1 ORDER BY seq LIMIT $2 OFFSET $3`,
		`SELECT count(*) FROM `+schema+`share_classes WHERE company_id = $1`, company, p, scanClass)
}

// Class returns one share class of the company.
func Class(ctx context.Context, db *stdsql.DB, company, id string) (ClassView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+classCols+` FROM `+schema+`share_classes WHERE company_id = $1 AND share_class_id = $2`,
		company, id), scanClass)
}

// SAFEView is a SAFE as the API shows it.
type SAFEView struct {
	ID               string                  `json:"id"`
	CompanyID        string                  `json:"companyId"`
	InvestorID       string                  `json:"investorId"`
	InvestmentAmount num.Num                 `json:"investmentAmount"`
	ValuationCap     num.Num                 `json:"valuationCap"`
	DiscountRate     num.Num                 `json:"discountRate"`
	SafeType         string                  `json:"safeType"`
	IssueDate        captable.Day            `json:"issueDate"`
	Notes            string                  `json:"notes"`
	ElectedSAFEID    *string                 `json:"electedSafeId"`
	ElectedTerms     *captable.SAFETerms     `json:"electedTerms"`
	Converted        *captable.SAFEConverted `json:"conversion"`
	Status           string                  `json:"status"`
	CreatedAt        time.Time               `json:"createdAt"`
	UpdatedAt        time.Time               `json:"updatedAt"`
}

const safeCols = `safe_id, company_id, investor_id, investment_amount::text, valuation_cap::text, discount_rate::text,
	safe_type, issue_date, notes, elected_safe_id, elected_terms, converted, created_at, updated_at`

func scanSAFE(row interface{ Scan(...any) error }) (SAFEView, error) {
	var v SAFEView
	var amount, capv, disc string
	var issue time.Time
	var terms, conv []byte
	err := row.Scan(&v.ID, &v.CompanyID, &v.InvestorID, &amount, &capv, &disc, &v.SafeType, &issue, &v.Notes,
		&v.ElectedSAFEID, &terms, &conv, &v.CreatedAt, &v.UpdatedAt)
	if err != nil {
		return v, err
	}
	v.IssueDate = captable.DayOf(issue)
	v.Status = "OUTSTANDING"
	if len(terms) > 0 {
		v.ElectedTerms = &captable.SAFETerms{}
		if err := json.Unmarshal(terms, v.ElectedTerms); err != nil {
			return v, err
		}
	}
	if len(conv) > 0 {
		v.Converted, v.Status = &captable.SAFEConverted{}, "CONVERTED"
		if err := json.Unmarshal(conv, v.Converted); err != nil {
			return v, err
		}
	}
	return v, nums(map[*num.Num]string{&v.InvestmentAmount: amount, &v.ValuationCap: capv, &v.DiscountRate: disc})
}

// SAFEs lists a company's SAFEs in creation order.
func SAFEs(ctx context.Context, db *stdsql.DB, company string, p Page) ([]SAFEView, int, error) {
	return list(ctx, db, `SELECT `+safeCols+` FROM `+schema+`safes WHERE company_id = $1 ORDER BY seq LIMIT $2 OFFSET $3`,
		`SELECT count(*) FROM `+schema+`safes WHERE company_id = $1`, company, p, scanSAFE)
}

// SAFE returns one SAFE of the company.
func SAFE(ctx context.Context, db *stdsql.DB, company, id string) (SAFEView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+safeCols+` FROM `+schema+`safes WHERE company_id = $1 AND safe_id = $2`,
		company, id), scanSAFE)
}

// ValuationView is a valuation as the API shows it.
type ValuationView struct {
	ID            string       `json:"id"`
	CompanyID     string       `json:"companyId"`
	ValuationDate captable.Day `json:"valuationDate"`
	Methodology   string       `json:"methodology"`
	PricePerShare num.Num      `json:"pricePerShare"`
	Notes         string       `json:"notes"`
	CreatedAt     time.Time    `json:"createdAt"`
}

const valuationCols = `valuation_id, company_id, valuation_date, methodology, price_per_share::text, notes, created_at`

func scanValuation(row interface{ Scan(...any) error }) (ValuationView, error) {
	var v ValuationView
	var price string
	var d time.Time
	if err := row.Scan(&v.ID, &v.CompanyID, &d, &v.Methodology, &price, &v.Notes, &v.CreatedAt); err != nil {
		return v, err
	}
	v.ValuationDate = captable.DayOf(d)
	return v, nums(map[*num.Num]string{&v.PricePerShare: price})
}

// Valuations lists a company's valuations, latest valuation date first.
func Valuations(ctx context.Context, db *stdsql.DB, company string, p Page) ([]ValuationView, int, error) {
	return list(ctx, db, `SELECT `+valuationCols+` FROM `+schema+`valuations WHERE company_id = $1
		ORDER BY valuation_date DESC, seq DESC LIMIT $2 OFFSET $3`,
		`SELECT count(*) FROM `+schema+`valuations WHERE company_id = $1`, company, p, scanValuation)
}

// Valuation returns one valuation; id "" returns the latest (by valuation
// date, then by recording).
func Valuation(ctx context.Context, db *stdsql.DB, company, id string) (ValuationView, error) {
	if id == "" {
		return one(db.QueryRowContext(ctx, `SELECT `+valuationCols+` FROM `+schema+`valuations WHERE company_id = $1
			ORDER BY valuation_date DESC, seq DESC LIMIT 1`, company), scanValuation)
	}
	return one(db.QueryRowContext(ctx, `SELECT `+valuationCols+` FROM `+schema+`valuations WHERE company_id = $1 AND valuation_id = $2`,
		company, id), scanValuation)
}

package captable

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// GrantView is an equity grant as the API shows it, with its vesting as of
// the day it was read.
type GrantView struct {
	ID                     string            `json:"id"`
	CompanyID              string            `json:"companyId"`
	GrantNumber            string            `json:"grantNumber"`
	StakeholderID          string            `json:"stakeholderId"`
	ShareClassID           string            `json:"shareClassId"`
	UnderlyingShareClassID string            `json:"underlyingShareClassId,omitempty"`
	Quantity               num.Num           `json:"quantity"`
	GrantType              string            `json:"grantType"`
	StrikePrice            num.Num           `json:"strikePrice"`
	VestingSchedule        string            `json:"vestingSchedule"`
	VestingRounding        string            `json:"vestingRounding"`
	Tranches               []vesting.Tranche `json:"customTranches,omitempty"`
	GrantDate              captable.Day      `json:"grantDate"`
	VestingStartDate       captable.Day      `json:"vestingStartDate"`
	FullyVestedDate        captable.Day      `json:"fullyVestedDate"`
	ExpirationDate         captable.Day      `json:"expirationDate"`
	ExerciseWindowDays     int               `json:"exerciseWindowDays"`
	Status                 string            `json:"status"`
	AcceptedOn             captable.Day      `json:"acceptedOn"`
	VestedQuantity         num.Num           `json:"vestedQuantity"`
	ExercisedQuantity      num.Num           `json:"exercisedQuantity"`
	ForfeitedQuantity      num.Num           `json:"forfeitedQuantity"`
	ExpiredQuantity        num.Num           `json:"expiredQuantity"`
	CancelledQuantity      num.Num           `json:"cancelledQuantity"`
	OutstandingQuantity    num.Num           `json:"outstandingQuantity"`
	TerminatedOn           captable.Day      `json:"terminatedOn"`
	ExerciseWindowEndsOn   captable.Day      `json:"exerciseWindowEndsOn"`
	Notes                  string            `json:"notes"`
	CreatedAt              time.Time         `json:"createdAt"`
	UpdatedAt              time.Time         `json:"updatedAt"`
}

// Schedule returns the grant's vesting schedule.
func (g GrantView) Schedule() vesting.Schedule {
	return vesting.Schedule{Kind: vesting.Kind(g.VestingSchedule), Start: g.VestingStartDate.Time, Quantity: g.Quantity,
		Rounding: vesting.Rounding(g.VestingRounding), Tranches: g.Tranches}
}

const grantCols = `grant_id, company_id, grant_number, stakeholder_id, share_class_id, underlying_share_class_id, quantity::text,
	grant_type, strike_price::text, vesting_schedule, vesting_rounding, tranches, grant_date, vesting_start_date, expiration_date,
	exercise_window_days, status, accepted_on, exercised::text, forfeited::text, expired::text, cancelled::text,
	terminated_on, window_ends, notes, created_at, updated_at`

func scanGrantAt(today time.Time) func(row interface{ Scan(...any) error }) (GrantView, error) {
	return func(row interface{ Scan(...any) error }) (GrantView, error) {
		var g GrantView
		var qty, strike, ex, ff, exp, can string
		var tranches []byte
		var grantDate, start time.Time
		var expiration, accepted, terminated, window stdsql.NullTime
		err := row.Scan(&g.ID, &g.CompanyID, &g.GrantNumber, &g.StakeholderID, &g.ShareClassID, &g.UnderlyingShareClassID, &qty,
			&g.GrantType, &strike, &g.VestingSchedule, &g.VestingRounding, &tranches, &grantDate, &start, &expiration,
			&g.ExerciseWindowDays, &g.Status, &accepted, &ex, &ff, &exp, &can, &terminated, &window, &g.Notes, &g.CreatedAt, &g.UpdatedAt)
		if err != nil {
			return g, err
		}
		if err := nums(map[*num.Num]string{&g.Quantity: qty, &g.StrikePrice: strike, &g.ExercisedQuantity: ex,
			&g.ForfeitedQuantity: ff, &g.ExpiredQuantity: exp, &g.CancelledQuantity: can}); err != nil {
			return g, err
		}
		if err := json.Unmarshal(tranches, &g.Tranches); err != nil {
			return g, err
		}
		day := func(t stdsql.NullTime) captable.Day {
			if !t.Valid {
				return captable.Day{}
			}
			return captable.DayOf(t.Time)
		}
		g.GrantDate, g.VestingStartDate = captable.DayOf(grantDate), captable.DayOf(start)
		g.ExpirationDate, g.AcceptedOn, g.TerminatedOn, g.ExerciseWindowEndsOn = day(expiration), day(accepted), day(terminated), day(window)
		g.OutstandingQuantity = g.Quantity.Sub(g.ExercisedQuantity).Sub(g.ForfeitedQuantity).Sub(g.ExpiredQuantity).Sub(g.CancelledQuantity)
		s := g.Schedule()
		g.FullyVestedDate = captable.DayOf(s.FullyVestedDate())
		asOf := today
		if !g.TerminatedOn.IsZero() && g.TerminatedOn.Before(asOf) {
			asOf = g.TerminatedOn.Time // vesting stops at termination
		}
		g.VestedQuantity = s.VestedAt(asOf)
		return g, nil
	}
}

// GrantFilter narrows a grant list.
type GrantFilter struct {
	StakeholderID string
	Status        string
}

// Grants lists a company's grants in creation order, vesting as of today.
func Grants(ctx context.Context, db *stdsql.DB, company string, f GrantFilter, p Page, today time.Time) ([]GrantView, int, error) {
	where := ` WHERE company_id = $1 AND ($4 = '' OR stakeholder_id = $4) AND ($5 = '' OR status = $5)`
	count := `SELECT count(*) FROM ` + schema + `grants WHERE company_id = $1 AND ($2 = '' OR stakeholder_id = $2) AND ($3 = '' OR status = $3)`
	return list(ctx, db, `SELECT `+grantCols+` FROM `+schema+`grants`+where+` ORDER BY seq LIMIT $2 OFFSET $3`,
		count, company, p, scanGrantAt(today), f.StakeholderID, f.Status)
}

// Grant returns one grant of the company, vesting as of today.
func Grant(ctx context.Context, db *stdsql.DB, company, id string, today time.Time) (GrantView, error) {
	return one(db.QueryRowContext(ctx, `SELECT `+grantCols+` FROM `+schema+`grants WHERE company_id = $1 AND grant_id = $2`,
		company, id), scanGrantAt(today))
}

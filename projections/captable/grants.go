package captable

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/eventstore"
)

// grantRow is what the projector needs of a stored grant to move totals
// and recompute its status.
type grantRow struct {
	stakeholder, class, grantType string
	ratio                         num.Num // the class's conversion ratio for preferred stock, else 1
}

func (Projector) grantRow(ctx context.Context, tx *stdsql.Tx, id string) (grantRow, error) {
	var r grantRow
	var ratio, classType string
	err := tx.QueryRowContext(ctx, `SELECT g.stakeholder_id, g.share_class_id, g.grant_type, c.conversion_ratio::text, c.type
		FROM grants g JOIN share_classes c USING (share_class_id) WHERE g.grant_id = $1`, id).
		Scan(&r.stakeholder, &r.class, &r.grantType, &ratio, &classType)
	if err != nil {
		return r, err
	}
	r.ratio = num.Int(1)
	if classType == captable.ClassPreferred {
		r.ratio, err = num.Parse(ratio)
	}
	return r, err
}

// move adds qty units of a grant to (sign +1) or takes them from (-1) its
// class's and its holder's totals.
func move(ctx context.Context, tx *stdsql.Tx, r grantRow, qty num.Num, sign int) error {
	if sign < 0 {
		qty = qty.Neg()
	}
	if captable.IsStock(r.grantType) {
		if _, err := tx.ExecContext(ctx, `UPDATE share_classes SET issued = issued + $2::numeric WHERE share_class_id = $1`,
			r.class, qty.String()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE stakeholders SET issued = issued + $2::numeric WHERE stakeholder_id = $1`,
			r.stakeholder, qty.Mul(r.ratio).String())
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE share_classes SET used = used + $2::numeric, outstanding = outstanding + $2::numeric
		WHERE share_class_id = $1`, r.class, qty.String()); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE stakeholders SET awards = awards + $2::numeric WHERE stakeholder_id = $1`,
		r.stakeholder, qty.String())
	return err
}

func (p Projector) applyGrant(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *captable.GrantIssued:
		if err := insertGrant(ctx, tx, e.StreamID, e.Position, ev.Grant, e.RecordedAt); err != nil {
			return err
		}
		r, err := p.grantRow(ctx, tx, ev.ID)
		if err != nil {
			return err
		}
		return move(ctx, tx, r, ev.Quantity, +1)
	case *captable.GrantUpdated:
		r, err := p.grantRow(ctx, tx, ev.ID)
		if err != nil {
			return err
		}
		var old string
		var seq int64 // the grant keeps its place in lists and its creation time
		var created time.Time
		if err := tx.QueryRowContext(ctx, `SELECT quantity::text, seq, created_at FROM grants WHERE grant_id = $1`, ev.ID).
			Scan(&old, &seq, &created); err != nil {
			return err
		}
		oldQty, err := num.Parse(old)
		if err != nil {
			return err
		}
		if err := move(ctx, tx, r, oldQty, -1); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM grants WHERE grant_id = $1`, ev.ID); err != nil {
			return err
		}
		if err := insertGrant(ctx, tx, e.StreamID, seq, ev.Grant, e.RecordedAt); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE grants SET created_at = $2 WHERE grant_id = $1`, ev.ID, created); err != nil {
			return err
		}
		if r, err = p.grantRow(ctx, tx, ev.ID); err != nil {
			return err
		}
		return move(ctx, tx, r, ev.Quantity, +1)
	case *captable.GrantAccepted:
		return p.lifecycle(ctx, tx, ev.GrantID, e.RecordedAt, `accepted_on = $2`, ev.On)
	case *captable.GrantExercised:
		r, err := p.grantRow(ctx, tx, ev.GrantID)
		if err != nil {
			return err
		}
		q := ev.Quantity.String()
		if _, err := tx.ExecContext(ctx, `UPDATE share_classes SET outstanding = outstanding - $2::numeric WHERE share_class_id = $1`, r.class, q); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE share_classes SET issued = issued + $2::numeric WHERE share_class_id = $1`, ev.ShareClassID, q); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE stakeholders SET awards = awards - $2::numeric, issued = issued + $2::numeric
			WHERE stakeholder_id = $1`, r.stakeholder, q); err != nil {
			return err
		}
		return p.lifecycle(ctx, tx, ev.GrantID, e.RecordedAt, `exercised = exercised + $2::numeric`, q)
	case *captable.GrantTerminated:
		if err := p.release(ctx, tx, ev.GrantID, ev.Forfeited); err != nil {
			return err
		}
		return p.lifecycle(ctx, tx, ev.GrantID, e.RecordedAt,
			`forfeited = forfeited + $2::numeric, terminated_on = $3, window_ends = $4`, ev.Forfeited.String(), ev.On, ev.WindowEnds)
	case *captable.GrantExpired:
		if err := p.release(ctx, tx, ev.GrantID, ev.Quantity); err != nil {
			return err
		}
		return p.lifecycle(ctx, tx, ev.GrantID, e.RecordedAt, `expired = expired + $2::numeric`, ev.Quantity.String())
	case *captable.GrantCancelled:
		if err := p.release(ctx, tx, ev.GrantID, ev.Quantity); err != nil {
			return err
		}
		return p.lifecycle(ctx, tx, ev.GrantID, e.RecordedAt, `cancelled = cancelled + $2::numeric`, ev.Quantity.String())
	}
	return nil
}

func (p Projector) release(ctx context.Context, tx *stdsql.Tx, id string, qty num.Num) error {
	r, err := p.grantRow(ctx, tx, id)
	if err != nil {
		return err
	}
	return move(ctx, tx, r, qty, -1)
}

func insertGrant(ctx context.Context, tx *stdsql.Tx, company string, seq int64, g captable.Grant, at time.Time) error {
	tranches, err := json.Marshal(g.Tranches)
	if err != nil {
		return err
	}
	if g.Tranches == nil {
		tranches = []byte("[]")
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO grants (grant_id, company_id, seq, grant_number, stakeholder_id, share_class_id,
		underlying_share_class_id, grant_type, quantity, strike_price, vesting_schedule, vesting_start_date, vesting_rounding,
		tranches, grant_date, expiration_date, exercise_window_days, notes, status, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20)
		ON CONFLICT (grant_id) DO NOTHING`,
		g.ID, company, seq, g.GrantNumber, g.StakeholderID, g.ShareClassID, g.UnderlyingShareClassID, g.GrantType,
		g.Quantity.String(), g.StrikePrice.String(), string(g.VestingSchedule), g.VestingStartDate, string(g.VestingRounding),
		tranches, g.GrantDate, g.ExpirationDate, g.ExerciseWindowDays, g.Notes, captable.StatusPending, at)
	return err
}

// lifecycle applies set to a grant and recomputes its status from the row
// with the domain's own rule.
func (Projector) lifecycle(ctx context.Context, tx *stdsql.Tx, id string, at time.Time, set string, args ...any) error {
	q := `UPDATE grants SET ` + set + `, updated_at = $` + strconv.Itoa(len(args)+2) + ` WHERE grant_id = $1`
	if _, err := tx.ExecContext(ctx, q, append(append([]any{id}, args...), at)...); err != nil {
		return err
	}
	var g captable.GrantState
	var qty, ex, ff, exp, can string
	var accepted stdsql.NullTime
	var terminated stdsql.NullTime
	if err := tx.QueryRowContext(ctx, `SELECT quantity::text, exercised::text, forfeited::text, expired::text, cancelled::text,
		accepted_on, terminated_on FROM grants WHERE grant_id = $1`, id).Scan(&qty, &ex, &ff, &exp, &can, &accepted, &terminated); err != nil {
		return err
	}
	for dst, s := range map[*num.Num]string{&g.Quantity: qty, &g.Exercised: ex, &g.Forfeited: ff, &g.Expired: exp, &g.Cancelled: can} {
		v, err := num.Parse(s)
		if err != nil {
			return err
		}
		*dst = v
	}
	g.Accepted = accepted.Valid
	if terminated.Valid {
		g.Termination = &vesting.Termination{} // only its presence counts for the status
	}
	_, err := tx.ExecContext(ctx, `UPDATE grants SET status = $2 WHERE grant_id = $1`, id, g.Status())
	return err
}

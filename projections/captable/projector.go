// Package captable projects the cap table's company events into the tables
// of schema rm_captable_v1, which the cap table's read API serves: lists,
// single resources, and the live cap-table summary (running totals per
// share class and per stakeholder, so the summary reads a few rows however
// many grants a company has).
package captable

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_captable_v1.
const Name = "captable.v1"

// Projector maintains rm_captable_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: the rows one
// stream's events write are that stream's alone, so an event that cannot be
// applied parks its stream and the others go on.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector: every company event.
func (Projector) Handles() []string {
	var out []string
	for _, c := range captable.CompanyEvents() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (p Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	company, at, seq := e.StreamID, e.RecordedAt, e.Position
	var err error
	switch ev := e.Event.(type) {
	case *captable.CompanyCreated:
		_, err = tx.ExecContext(ctx, `INSERT INTO companies (company_id, name, created_by, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (company_id) DO NOTHING`, ev.CompanyID, ev.Name, ev.CreatedBy, ev.At)
	case *captable.MemberAdded:
		_, err = tx.ExecContext(ctx, `INSERT INTO members (company_id, account_id, role, added_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (company_id, account_id) DO UPDATE SET role = EXCLUDED.role`, company, ev.AccountID, string(ev.Role), ev.At)
	case *captable.StakeholderAdded:
		s := ev.Stakeholder
		_, err = tx.ExecContext(ctx, `INSERT INTO stakeholders (stakeholder_id, company_id, seq, name, email, type, title, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (stakeholder_id) DO NOTHING`,
			s.ID, company, seq, s.Name, s.Email, s.Type, s.Title, s.At)
	case *captable.StakeholderUpdated:
		s := ev.Stakeholder
		_, err = tx.ExecContext(ctx, `UPDATE stakeholders SET name = $2, email = $3, type = $4, title = $5, updated_at = $6
			WHERE stakeholder_id = $1`, s.ID, s.Name, s.Email, s.Type, s.Title, s.At)
	case *captable.StakeholderRemoved:
		_, err = tx.ExecContext(ctx, `UPDATE stakeholders SET removed = true, updated_at = $2 WHERE stakeholder_id = $1`, ev.StakeholderID, ev.At)
	case *captable.ShareClassCreated:
		c := ev.ShareClass
		_, err = tx.ExecContext(ctx, `INSERT INTO share_classes (share_class_id, company_id, seq, name, type, total_shares,
			price_per_share, liquidation_preference, conversion_ratio, participating, participation_cap, seniority, anti_dilution,
			created_at, updated_at, anti_dilution_base) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)
			ON CONFLICT (share_class_id) DO NOTHING`,
			c.ID, company, seq, c.Name, c.Type, c.TotalShares.String(), c.PricePerShare.String(), c.LiquidationPreference.String(),
			c.ConversionRatio.String(), c.Participating, c.ParticipationCap.String(), c.Seniority, c.AntiDilution, c.At, narrowBase(c))
	case *captable.ShareClassUpdated:
		err = p.updateClass(ctx, tx, ev.ShareClass, ev.At)
	case *captable.ConversionAdjusted:
		err = p.adjustRatio(ctx, tx, ev)
	case *captable.SharesAuthorized:
		_, err = tx.ExecContext(ctx, `UPDATE share_classes SET total_shares = total_shares + $2::numeric, updated_at = $3
			WHERE share_class_id = $1`, ev.ShareClassID, ev.Increase.String(), at)
	case *captable.ValuationRecorded:
		v := ev.Valuation
		_, err = tx.ExecContext(ctx, `INSERT INTO valuations (valuation_id, company_id, seq, valuation_date, methodology,
			price_per_share, notes, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (valuation_id) DO NOTHING`,
			v.ID, company, seq, v.ValuationDate, v.Methodology, v.PricePerShare.String(), v.Notes, v.At)
	case *captable.SAFEIssued:
		s := ev.SAFE
		_, err = tx.ExecContext(ctx, `INSERT INTO safes (safe_id, company_id, seq, investor_id, investment_amount, valuation_cap,
			discount_rate, safe_type, issue_date, notes, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
			ON CONFLICT (safe_id) DO NOTHING`, s.ID, company, seq, s.InvestorID, s.InvestmentAmount.String(), s.ValuationCap.String(),
			s.DiscountRate.String(), s.SafeType, s.IssueDate, s.Notes, at)
	case *captable.SAFEUpdated:
		s := ev.SAFE
		_, err = tx.ExecContext(ctx, `UPDATE safes SET investor_id = $2, investment_amount = $3, valuation_cap = $4,
			discount_rate = $5, safe_type = $6, issue_date = $7, notes = $8, updated_at = $9 WHERE safe_id = $1`,
			s.ID, s.InvestorID, s.InvestmentAmount.String(), s.ValuationCap.String(), s.DiscountRate.String(), s.SafeType,
			s.IssueDate, s.Notes, at)
	case *captable.MFNElected:
		terms, _ := json.Marshal(ev.Terms)
		_, err = tx.ExecContext(ctx, `UPDATE safes SET elected_safe_id = $2, elected_terms = $3, updated_at = $4 WHERE safe_id = $1`,
			ev.SAFEID, ev.ElectedSAFEID, terms, at)
	case *captable.SAFEConverted:
		conv, _ := json.Marshal(ev)
		_, err = tx.ExecContext(ctx, `UPDATE safes SET converted = $2, updated_at = $3 WHERE safe_id = $1`, ev.SAFEID, conv, at)
	default:
		var ok bool
		if ok, err = applyFile(ctx, tx, e); !ok {
			err = p.applyGrant(ctx, tx, e)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", e.Type, err)
	}
	return nil
}

// narrowBase is the base a NARROW_BASED class counts (the default for a
// class recorded before the field), NULL for other protections.
func narrowBase(c captable.ShareClass) *string {
	if c.AntiDilution != captable.AntiDilutionNarrowBased {
		return nil
	}
	b := c.NarrowBase()
	return &b
}

func (Projector) updateClass(ctx context.Context, tx *stdsql.Tx, c captable.ShareClass, at any) error {
	var old string
	if err := tx.QueryRowContext(ctx, `SELECT conversion_ratio::text FROM share_classes WHERE share_class_id = $1`, c.ID).Scan(&old); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE share_classes SET name = $2, total_shares = $3, price_per_share = $4,
		liquidation_preference = $5, conversion_ratio = $6, participating = $7, participation_cap = $8, seniority = $9,
		anti_dilution = $10, updated_at = $11, anti_dilution_base = $12 WHERE share_class_id = $1`,
		c.ID, c.Name, c.TotalShares.String(), c.PricePerShare.String(), c.LiquidationPreference.String(),
		c.ConversionRatio.String(), c.Participating, c.ParticipationCap.String(), c.Seniority, c.AntiDilution, at, narrowBase(c))
	if err != nil {
		return err
	}
	return reconvert(ctx, tx, c.ID, old, c.ConversionRatio)
}

func (Projector) adjustRatio(ctx context.Context, tx *stdsql.Tx, ev *captable.ConversionAdjusted) error {
	var old string
	if err := tx.QueryRowContext(ctx, `SELECT conversion_ratio::text FROM share_classes WHERE share_class_id = $1`, ev.ShareClassID).Scan(&old); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE share_classes SET conversion_ratio = $2 WHERE share_class_id = $1`,
		ev.ShareClassID, ev.NewConversionRatio.String()); err != nil {
		return err
	}
	return reconvert(ctx, tx, ev.ShareClassID, old, ev.NewConversionRatio)
}

// reconvert moves the as-converted holdings of a preferred class's holders
// from the old conversion ratio to the new one.
func reconvert(ctx context.Context, tx *stdsql.Tx, class, old string, ratio num.Num) error {
	oldRatio, err := num.Parse(old)
	if err != nil || oldRatio.Equal(ratio) {
		return err
	}
	delta := ratio.Sub(oldRatio).String()
	_, err = tx.ExecContext(ctx, `UPDATE stakeholders s SET issued = s.issued + g.held * $2::numeric
		FROM (SELECT stakeholder_id, sum(quantity - forfeited - cancelled) AS held FROM grants
		      WHERE share_class_id = $1 AND grant_type = 'RESTRICTED_STOCK' GROUP BY stakeholder_id) g
		WHERE s.stakeholder_id = g.stakeholder_id
		  AND EXISTS (SELECT 1 FROM share_classes c WHERE c.share_class_id = $1 AND c.type = 'PREFERRED')`, class, delta)
	return err
}

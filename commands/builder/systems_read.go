package builder

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Cards is GET /api/build/systems: the company's system cards with their
// counts, from its record events only (the records table projected inline
// from them), never a record's contents. The set (builder.SystemSet): the
// core systems, the entities of the company's app spec, those the idea
// implies (template.Plan of idea, when given; 400 field idea), and any
// system that has records. 400 field companyId, 404 for an unknown company.
func (s *Systems) Cards(ctx context.Context, companyID, idea string) ([]builder.Card, error) {
	if err := checkCompanyID(companyID); err != nil {
		return nil, err
	}
	var ideaRefs []builder.EntityRef
	if strings.TrimSpace(idea) != "" {
		spec, err := template.Plan(idea)
		if err != nil {
			var ke *kernel.Error
			if errors.As(err, &ke) {
				return nil, kernel.Invalid("idea", ke.Rule, strings.Replace(ke.Message, "the idea", "idea", 1))
			}
			return nil, err
		}
		ideaRefs = entityRefs(spec)
	}
	ch, err := s.cfg.Chats.Load(ctx, companyID)
	if err != nil {
		return nil, err
	}
	tallies, err := s.Tallies(ctx, companyID)
	if err != nil {
		return nil, err
	}
	set, err := s.systemSetWith(ch, ideaRefs, tallies)
	if err != nil {
		return nil, err
	}
	cards := make([]builder.Card, 0, len(set))
	for _, d := range set {
		cards = append(cards, builder.CardOf(d, tallies[d.ID]))
	}
	return cards, nil
}

// systemSet is the company's systems (no idea), for a write.
func (s *Systems) systemSet(ctx context.Context, ch *builder.Chat, idea []builder.EntityRef) ([]builder.SystemDef, error) {
	tallies, err := s.Tallies(ctx, ch.ID)
	if err != nil {
		return nil, err
	}
	return s.systemSetWith(ch, idea, tallies)
}

func (s *Systems) systemSetWith(ch *builder.Chat, idea []builder.EntityRef, tallies map[string]builder.SystemTally) ([]builder.SystemDef, error) {
	spec, err := specEntities(ch)
	if err != nil {
		return nil, err
	}
	recorded := make([]string, 0, len(tallies))
	for id := range tallies {
		recorded = append(recorded, id)
	}
	return builder.SystemSet(spec, idea, recorded), nil
}

// Tallies counts the company's records per system (one indexed query on
// the records table): systems without records are absent.
func (s *Systems) Tallies(ctx context.Context, companyID string) (map[string]builder.SystemTally, error) {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT system, status, outcome, count(*), max(changed_at)
		FROM platform.builder_system_records WHERE company_id = $1 GROUP BY system, status, outcome`, companyID)
	if err != nil {
		return nil, fmt.Errorf("count the systems of %s: %w", companyID, err)
	}
	defer rows.Close()
	out := map[string]builder.SystemTally{}
	for rows.Next() {
		var system, status, outcome string
		var n int
		var last time.Time
		if err := rows.Scan(&system, &status, &outcome, &n, &last); err != nil {
			return nil, err
		}
		t := out[system]
		switch status {
		case builder.RecordOpen:
			t.Open += n
		case builder.RecordClosed:
			t.Closed += n
			if outcome != "" {
				if t.Outcomes == nil {
					t.Outcomes = map[string]int{}
				}
				t.Outcomes[outcome] += n
			}
		case builder.RecordDeleted:
			t.Deleted += n
		}
		if last.After(t.LastActivity) {
			t.LastActivity = last
		}
		out[system] = t
	}
	return out, rows.Err()
}

// DeckLines are the company's system cards as "label: n" lines (n the
// records not deleted, with the open ones), for the pitch deck
// (DeckSources.Systems).
func (s *Systems) DeckLines(ctx context.Context, companyID string) ([]string, error) {
	cards, err := s.Cards(ctx, companyID, "")
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(cards))
	for _, c := range cards {
		out = append(out, fmt.Sprintf("%s: %d (%d open)", c.Label, c.Counts["total"], c.Counts[builder.RecordOpen]))
	}
	return out, nil
}

func recordState(ctx context.Context, tx *stdsql.Tx, companyID, system, recordID string) (builder.RecordState, error) {
	st := builder.RecordState{Exists: true}
	err := tx.QueryRowContext(ctx, `SELECT status, outcome FROM platform.builder_system_records
		WHERE company_id = $1 AND system = $2 AND record_id = $3`, companyID, system, recordID).Scan(&st.Status, &st.Outcome)
	if errors.Is(err, stdsql.ErrNoRows) {
		return builder.RecordState{}, nil
	}
	return st, err
}

func putRecord(ctx context.Context, tx *stdsql.Tx, ev *builder.SystemRecordChanged, st builder.RecordState, version int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO platform.builder_system_records (company_id, system, record_id, status, outcome,
		created_at, changed_at, stream_version) VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
		ON CONFLICT (company_id, system, record_id) DO UPDATE SET status = $4, outcome = $5, changed_at = $6, stream_version = $7`,
		ev.CompanyID, ev.System, ev.RecordID, st.Status, st.Outcome, ev.At, version)
	return err
}

// RecordRow is one row of the records table.
type RecordRow struct {
	System, RecordID, Status, Outcome string
}

// Refold folds the company's systems stream into record rows, as the
// inline projection writes them: a check that the table says what the
// events say (and what a rebuild would write).
func (s *Systems) Refold(ctx context.Context, companyID string) (map[string]RecordRow, error) {
	evs, err := s.cfg.Store.Load(ctx, builder.SystemsStream(companyID), eventstore.LoadOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]RecordRow{}
	for _, e := range evs {
		ev, ok := e.Event.(*builder.SystemRecordChanged)
		if !ok {
			continue
		}
		k := ev.System + "/" + ev.RecordID
		prev := out[k]
		st := builder.NextRecordState(builder.RecordState{Exists: prev.Status != "", Status: prev.Status, Outcome: prev.Outcome}, ev.Change, ev.Outcome)
		out[k] = RecordRow{System: ev.System, RecordID: ev.RecordID, Status: st.Status, Outcome: st.Outcome}
	}
	return out, nil
}

// Rows reads the company's records table (for Refold's check).
func (s *Systems) Rows(ctx context.Context, companyID string) (map[string]RecordRow, error) {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT system, record_id, status, outcome FROM platform.builder_system_records
		WHERE company_id = $1`, companyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]RecordRow{}
	for rows.Next() {
		var r RecordRow
		if err := rows.Scan(&r.System, &r.RecordID, &r.Status, &r.Outcome); err != nil {
			return nil, err
		}
		out[r.System+"/"+r.RecordID] = r
	}
	return out, rows.Err()
}

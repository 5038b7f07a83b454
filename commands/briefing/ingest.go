package briefing

import (
	"context"
	stdsql "database/sql"
	"fmt"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Ingested is what a batch recorded.
type Ingested struct {
	BatchID    string `json:"batch_id,omitempty"` // empty when nothing was new
	Received   int    `json:"received"`
	Recorded   int    `json:"recorded"`
	Duplicates int    `json:"duplicates"` // already recorded, or repeated in the batch
}

// Ingest checks every observation (all or nothing: one invalid
// observation records none, and the error names it) and records the ones
// not recorded before as one event. The observations' identities are
// claimed in platform.briefing_observation_ids in the transaction that
// appends the batch, so a resubmission, however concurrent, counts once.
func (s *Service) Ingest(ctx context.Context, obs []briefing.Observation, via string) (Ingested, error) {
	out := Ingested{Received: len(obs)}
	if len(obs) == 0 {
		return out, kernel.Invalid("observations", "min:1", "at least one observation is required")
	}
	if len(obs) > briefing.MaxBatch {
		return out, kernel.Invalid("observations", fmt.Sprintf("max:%d", briefing.MaxBatch),
			fmt.Sprintf("at most %d observations in one batch; split it", briefing.MaxBatch))
	}
	seen := make(map[[3]string]bool, len(obs))
	unique := make([]briefing.Observation, 0, len(obs))
	for i := range obs {
		if err := obs[i].Check(fmt.Sprintf("observations[%d]", i)); err != nil {
			return out, err
		}
		if k := obs[i].Key(); !seen[k] {
			seen[k] = true
			unique = append(unique, obs[i])
		}
	}
	batchID := newID()
	kinds, sources, ids := make([]string, len(unique)), make([]string, len(unique)), make([]string, len(unique))
	for i, o := range unique {
		kinds[i], sources[i], ids[i] = o.Kind, o.Source, o.SourceID
	}
	var fresh []briefing.Observation
	err := s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		rows, err := tx.QueryContext(ctx, `INSERT INTO platform.briefing_observation_ids (kind, source, source_id, batch_id)
			SELECT k, s, i, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS x(k, s, i)
			ON CONFLICT DO NOTHING RETURNING kind, source, source_id`, kinds, sources, ids, batchID)
		if err != nil {
			return fmt.Errorf("briefing: claim observations: %w", err)
		}
		claimed := make(map[[3]string]bool, len(unique))
		for rows.Next() {
			var k [3]string
			if err := rows.Scan(&k[0], &k[1], &k[2]); err != nil {
				rows.Close()
				return err
			}
			claimed[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		fresh = fresh[:0]
		for _, o := range unique {
			if claimed[o.Key()] {
				fresh = append(fresh, o)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		_, err = s.store.AppendTx(ctx, tx, eventstore.Stream{Type: briefing.StreamBatch, ID: briefing.BatchStream(batchID)},
			eventstore.NoStream, &briefing.ObservationsRecorded{BatchID: batchID, Via: via, Observations: fresh,
				Duplicates: len(obs) - len(fresh), At: s.Now()})
		return err
	})
	if err != nil {
		return out, err
	}
	out.Recorded, out.Duplicates = len(fresh), len(obs)-len(fresh)
	if len(fresh) > 0 {
		out.BatchID = batchID
	}
	return out, nil
}

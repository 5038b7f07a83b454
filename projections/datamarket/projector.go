// Package datamarket projects the data marketplace's version events into
// schema rm_datamarket_v1: every version with its provenance, counts and
// row errors, and each dataset's current version, the one pointer readers
// follow (switched in the projector's transaction: a reader sees the old
// version or the new one, never a mix).
package datamarket

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_datamarket_v1.
const Name = "datamarket.v1"

// Schema is the schema of the projector's tables.
const Schema = "rm_datamarket_v1"

// Projector maintains rm_datamarket_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: a dataset's
// rows are its stream's.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	var out []string
	for _, c := range datamarket.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *datamarket.VersionStaged:
		var prov []byte
		if prov, err = json.Marshal(ev.Provenance); err == nil {
			_, err = tx.ExecContext(ctx, `INSERT INTO versions (dataset, version, status, provenance, staged_at)
				VALUES ($1, $2, 'staged', $3, $4) ON CONFLICT (dataset, version) DO NOTHING`, ev.Dataset, ev.Version, prov, ev.At)
		}
	case *datamarket.VersionValidated:
		err = validated(ctx, tx, ev)
	case *datamarket.VersionPublished:
		err = published(ctx, tx, ev.Dataset, ev.Version, ev.At, ev.At)
	case *datamarket.VersionRejected:
		var errs []byte
		if errs, err = json.Marshal(ev.Errors); err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE versions SET status = 'rejected', reason = $3, rows_read = $4, rows_invalid = $5,
				errors = $6, finished_at = $7 WHERE dataset = $1 AND version = $2`,
				ev.Dataset, ev.Version, ev.Reason, ev.RowsRead, ev.RowsInvalid, errs, ev.At)
		}
	case *datamarket.VersionRetracted:
		err = retracted(ctx, tx, ev)
	case *datamarket.VersionPurged:
		_, err = tx.ExecContext(ctx, `UPDATE versions SET purged_at = $3,
				status = CASE WHEN status = 'retracted' THEN status ELSE 'purged' END
			WHERE dataset = $1 AND version = $2`, ev.Dataset, ev.Version, ev.At)
	}
	if err != nil {
		return fmt.Errorf("datamarket.v1: %s: %w", e.Type, err)
	}
	return nil
}

func validated(ctx context.Context, tx *stdsql.Tx, ev *datamarket.VersionValidated) error {
	errs, err := json.Marshal(ev.Errors)
	if err != nil {
		return err
	}
	ign, err := json.Marshal(ev.IgnoredColumns)
	if err != nil {
		return err
	}
	facets, err := json.Marshal(ev.Facets)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE versions SET row_table = $3, rows_read = $4, rows_loaded = $5, rows_invalid = $6,
			errors = $7, ignored_columns = $8, facets = $9 WHERE dataset = $1 AND version = $2`,
		ev.Dataset, ev.Version, ev.Table, ev.RowsRead, ev.RowsLoaded, ev.RowsInvalid, errs, ign, facets)
	return err
}

// published makes a version the dataset's current one, switched at
// switched; at, when not nil, is the version's first publication.
func published(ctx context.Context, tx *stdsql.Tx, dataset string, version int, at any, switched time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE versions SET status = 'superseded'
		WHERE dataset = $1 AND version <> $2 AND status = 'published'`, dataset, version); err != nil {
		return err
	}
	if at != nil {
		if _, err := tx.ExecContext(ctx, `UPDATE versions SET published_at = $3, finished_at = $3
			WHERE dataset = $1 AND version = $2`, dataset, version, at); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE versions SET status = 'published' WHERE dataset = $1 AND version = $2`, dataset, version); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO current (dataset, version, row_table, rows_loaded, facets, published_at, switched_at)
		SELECT dataset, version, row_table, rows_loaded, facets, published_at, $3 FROM versions WHERE dataset = $1 AND version = $2
		ON CONFLICT (dataset) DO UPDATE SET version = excluded.version, row_table = excluded.row_table,
			rows_loaded = excluded.rows_loaded, facets = excluded.facets, published_at = excluded.published_at,
			switched_at = excluded.switched_at`, dataset, version, switched)
	return err
}

func retracted(ctx context.Context, tx *stdsql.Tx, ev *datamarket.VersionRetracted) error {
	if _, err := tx.ExecContext(ctx, `UPDATE versions SET status = 'retracted', reason = $3 WHERE dataset = $1 AND version = $2`,
		ev.Dataset, ev.Version, ev.Reason); err != nil {
		return err
	}
	if ev.Current == 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM current WHERE dataset = $1`, ev.Dataset)
		return err
	}
	return published(ctx, tx, ev.Dataset, ev.Current, nil, ev.At)
}

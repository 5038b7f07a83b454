package eventstore

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
)

// Claim reserves value in scope for ownerStream inside tx (the append's
// transaction, after AppendTx). A value already claimed by another stream is a
// conflict naming field; claiming a value the same stream already holds is a
// no-op.
func Claim(ctx context.Context, tx *stdsql.Tx, scope, value, ownerStream, field string) error {
	var owner string
	err := tx.QueryRowContext(ctx, `INSERT INTO es.unique_keys (scope, value, owner_stream) VALUES ($1, $2, $3)
		ON CONFLICT (scope, value) DO UPDATE SET scope = EXCLUDED.scope
		RETURNING owner_stream`, scope, value, ownerStream).Scan(&owner)
	if err != nil {
		return fmt.Errorf("claim %s: %w", scope, err)
	}
	if owner != ownerStream {
		return &kernel.Error{Kind: kernel.KindConflict, Field: field, Rule: "unique",
			Message: fmt.Sprintf("%s is already taken", field)}
	}
	return nil
}

// Release frees value in scope if ownerStream holds it.
func Release(ctx context.Context, tx *stdsql.Tx, scope, value, ownerStream string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM es.unique_keys WHERE scope = $1 AND value = $2 AND owner_stream = $3`,
		scope, value, ownerStream)
	if err != nil {
		return fmt.Errorf("release %s: %w", scope, err)
	}
	return nil
}

func jsonUnmarshalMetadata(raw []byte, md *Metadata) error {
	if len(raw) == 0 || string(raw) == "{}" {
		return nil
	}
	if err := json.Unmarshal(raw, md); err != nil {
		return fmt.Errorf("decode metadata: %w", err)
	}
	return nil
}
